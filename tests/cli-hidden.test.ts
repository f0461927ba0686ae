/**
 * Sessions their agent hides (Devin CLI `sessions.hidden = 1`): `sepia list` leaves them out and
 * says how many, `--all` lists them marked "(hidden)", and `--json` carries `hidden: true`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../src/cli/index'
import { writeMainHome } from './builders/devin/fixtures-homes'

const home = mkdtempSync(join(tmpdir(), 'sepia-hidden-'))
writeMainHome(home)
afterAll(() => rmSync(home, { recursive: true, force: true }))

async function cli(...argv: string[]): Promise<{ code: number; out: string }> {
  let text = ''
  const out = new Writable({ write: (c, _e, cb) => ((text += String(c)), cb()) })
  const err = new Writable({ write: (_c, _e, cb) => cb() })
  const code = await main(argv, out as unknown as NodeJS.WritableStream, err as unknown as NodeJS.WritableStream)
  return { code, out: text }
}

describe('sepia list and hidden sessions', () => {
  it('leaves hidden sessions out unless --all, and marks them in JSON', async () => {
    const plain = await cli('list', '--home', home)
    expect(plain.code).toBe(0)
    expect(plain.out).toContain('(1 hidden by their agent not shown: --all lists them)')
    expect(plain.out).not.toContain('pale-moon')
    expect(plain.out).toContain('quiet-harbor')
    const all = await cli('list', '--home', home, '--all')
    expect(all.out).toMatch(/pale-moon .*\(hidden\)/)
    const json = JSON.parse((await cli('list', '--home', home, '--json')).out) as { sessions: { id: string; hidden?: boolean }[] }
    expect(json.sessions.filter((s) => s.hidden).map((s) => s.id)).toEqual(['pale-moon'])
  })
})
