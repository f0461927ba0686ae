/**
 * `sepia bundle`, `sepia install-bundle`, `sepia move` (issue 19), in process: a session of a copy
 * of fixtures/real/claude-code/home (written by Claude Code 2.1.332, project /home/ana/src/ledger-api)
 * bundled, installed into another home under a macOS-style project path, and moved to another
 * folder of its own home. Assertions read the written files directly.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli-run'
import { findAppRoot } from '../src/main/context'

const ROOT = findAppRoot()
const ID = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
const temps: string[] = []
const temp = (n: string): string => {
  const d = mkdtempSync(join(tmpdir(), `sepia-move-cli-${n}-`))
  temps.push(d)
  return d
}
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

function copyHome(): string {
  const home = temp('home')
  cpSync(join(ROOT, 'fixtures/real/claude-code/home'), home, { recursive: true })
  return home
}

const cwdsOf = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { cwd?: string }).cwd)
    .filter((c): c is string => typeof c === 'string')

describe('sepia bundle / install-bundle / move', () => {
  it('bundles a session (saying secrets are included) and installs it into another home under a macOS path', async () => {
    const home = copyHome()
    const zip = join(temp('out'), 'ledger.zip')
    const b = await runCli('bundle', ID, '--home', home, '--out', zip)
    expect(b.err).toBe('')
    expect(b.code).toBe(0)
    expect(b.out).toContain('SECRETS INCLUDED')
    expect(existsSync(zip)).toBe(true)

    const target = temp('target')
    const r = await runCli('install-bundle', zip, '--project', '/Users/ana/src/ledger-api', '--target-home', target, '--json')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ agent: 'claude-code', sessionId: ID, projectPath: '/Users/ana/src/ledger-api', originalProjectPath: '/home/ana/src/ledger-api' })
    const file = join(target, '.claude/projects/-Users-ana-src-ledger-api', `${ID}.jsonl`)
    const cwds = cwdsOf(file)
    expect(cwds.length).toBe(cwdsOf(join(home, '.claude/projects/-home-ana-src-ledger-api', `${ID}.jsonl`)).length)
    expect(new Set(cwds)).toEqual(new Set(['/Users/ana/src/ledger-api']))
    expect(readdirSync(join(target, '.claude/file-history', ID))).toEqual(['657b1f1da8359986@v2'])

    // Installed again: the id is taken, so the second copy gets a new one; the first is untouched.
    const before = readFileSync(file)
    const again = await runCli('install-bundle', zip, '--project', '/Users/ana/src/ledger-api', '--target-home', target, '--json')
    expect(again.code).toBe(0)
    expect(JSON.parse(again.out).sessionId).not.toBe(ID)
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it('moves a session to another folder of its home, keeping the original; --remove-original removes it after a backup', async () => {
    const home = copyHome()
    const original = join(home, '.claude/projects/-home-ana-src-ledger-api', `${ID}.jsonl`)
    const kept = await runCli('move', ID, '--home', home, '--to-project', '/home/ana/work/ledger-api')
    expect(kept.err).toBe('')
    expect(kept.code).toBe(0)
    expect(kept.out).toContain('is kept where it was')
    expect(existsSync(original)).toBe(true)
    const moved = readdirSync(join(home, '.claude/projects/-home-ana-work-ledger-api'))
    expect(moved).toHaveLength(1)
    expect(new Set(cwdsOf(join(home, '.claude/projects/-home-ana-work-ledger-api', moved[0]!)))).toEqual(new Set(['/home/ana/work/ledger-api']))

    const removed = await runCli('move', ID, '--home', home, '--to-project', '/home/ana/other/ledger-api', '--remove-original', '--json')
    expect(removed.err).toBe('')
    const r = JSON.parse(removed.out) as { original: { kept: boolean; backup: string } }
    expect(r.original.kept).toBe(false)
    expect(existsSync(original)).toBe(false)
    expect(existsSync(r.original.backup)).toBe(true)
  })

  it('says what is missing', async () => {
    expect((await runCli('bundle', ID)).code).toBe(2)
    expect((await runCli('move', ID)).code).toBe(2)
    expect((await runCli('install-bundle')).code).toBe(2)
  })
})
