/**
 * Masked list summaries kept in the catalog (`summary-mask.ts`): the list masks a row once and
 * reuses the stored mask while the row and the masking code are the same; a row written again
 * (new `gen`) or another masking code is masked again; nothing unmasked leaves through the API's
 * gate either way.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AGENTS } from '../agents/registry'
import { LibraryService } from '../library'
import { layoutForHome } from '../platform'
import { maskResult } from '../secrets'
import { FAKE_SECRETS, secretText } from '../../../tests/builders/secrets/fake-secrets'
import { maskedKeyFor, maskerKey, secretsSourceHash } from './summary-mask'

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'real')
const SESSION = '59d2b1d8-139c-406e-9af8-d7379d3f42fd'
const SECRET = FAKE_SECRETS.find((s) => s.kind === 'anthropic')!

let dir: string
let home: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sepia-summary-mask-'))
  home = join(dir, 'home')
  cpSync(join(FIXTURES, 'claude-code', 'home'), home, { recursive: true })
  // The session's first prompt (its summary's `firstPrompt`) carries a fake key.
  const projects = join(home, '.claude', 'projects')
  const file = join(projects, readdirSync(projects)[0]!, `${SESSION}.jsonl`)
  const text = readFileSync(file, 'utf8')
  const first = '[think] What is 17 * 3 + 4? Think first.'
  expect(text.includes(first)).toBe(true)
  writeFileSync(file, text.replaceAll(first, `${secretText(SECRET)} ${first}`))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function open(): Promise<LibraryService> {
  return new LibraryService([{ layout: await layoutForHome({ home }), isDemo: false }], AGENTS.filter((a) => a.id === 'claude-code'), { now: Date.now }, { refreshFirstLoad: true, workers: 0, catalogPath: join(dir, 'data', 'catalog.sqlite') })
}

async function listOnce(): Promise<{ json: string; prompt: string | undefined }> {
  const lib = await open()
  const library = maskResult(await lib.load())
  await lib.close()
  return { json: JSON.stringify(library), prompt: library.sessions.find((s) => s.id === SESSION)?.firstPrompt }
}

function row(): { gen: number; key: string | null; masked: string | null } {
  const lib = new LibraryService([], [], { now: Date.now }, { catalogPath: join(dir, 'data', 'catalog.sqlite') })
  const r = lib.db.prepare('SELECT s.gen AS gen, c.key AS key, c.json AS masked FROM sessions s LEFT JOIN list_cache c ON c.sid = s.sid WHERE s.session_id = ?').get(SESSION) as { gen: number; key: string | null; masked: string | null }
  lib.db.close()
  return r
}

function exec(sql: string, ...args: unknown[]): void {
  const lib = new LibraryService([], [], { now: Date.now }, { catalogPath: join(dir, 'data', 'catalog.sqlite') })
  lib.db.prepare(sql).run(...args)
  lib.db.close()
}

describe('masked list summaries', () => {
  it('are masked once, stored for the row version, and never leave unmasked', async () => {
    const first = await listOnce()
    expect(first.json.includes(SECRET.secret)).toBe(false)
    expect(first.prompt).toContain(SECRET.label)
    const r = row()
    expect(r.key).toBe(maskedKeyFor(r.gen))
    expect(r.masked).not.toContain(SECRET.secret)
    expect(JSON.parse(r.masked!).firstPrompt).toBe(first.prompt)
    // The stored mask is what the next list sends (the row is not masked again).
    exec("UPDATE list_cache SET json = json_set(json, '$.firstPrompt', 'from the stored mask') WHERE sid = (SELECT sid FROM sessions WHERE session_id = ?)", SESSION)
    expect((await listOnce()).prompt).toBe('from the stored mask')
  })

  it('a row written again (new gen) or another masking code is masked again from the row', async () => {
    const first = await listOnce()
    exec("UPDATE list_cache SET json = json_set(json, '$.firstPrompt', 'stale') WHERE sid = (SELECT sid FROM sessions WHERE session_id = ?)", SESSION)
    exec('UPDATE sessions SET gen = gen + 1 WHERE session_id = ?', SESSION)
    const again = await listOnce()
    expect(again.prompt).toBe(first.prompt)
    expect(again.json.includes(SECRET.secret)).toBe(false)
    expect(row().key).toBe(maskedKeyFor(row().gen))
    exec("UPDATE list_cache SET json = json_set(json, '$.firstPrompt', 'stale'), key = ? WHERE sid = (SELECT sid FROM sessions WHERE session_id = ?)", `${row().gen}:another-masker`, SESSION)
    expect((await listOnce()).prompt).toBe(first.prompt)
  })

  it('the masker key is the hash of the secrets module sources', () => {
    expect(maskerKey()).toBe(secretsSourceHash(join(import.meta.dirname, '..', 'secrets')))
    expect(maskerKey()).toMatch(/^[0-9a-f]{16}$/)
  })
})
