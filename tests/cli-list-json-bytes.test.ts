/**
 * `sepia list --json` writes the stored masked summaries as the UTF-8 bytes SQLite holds
 * (`CatalogStore.listForList(..., 'bytes')`, `formatListJson`; issue 15): the output must be the
 * bytes the text path printed, whether a row's summary was stored, masked now (a row written again,
 * a mask of another masking code, none stored yet), or a mix of both; with non-ASCII text (CJK, an
 * emoji outside the BMP, `…`); and for a library with no session.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatListJson } from '../src/cli/commands'
import { main } from '../src/cli/index'
import { findAppRoot } from '../src/main/context'
import { CATALOG_FILE } from '../src/main/catalog/schema'
import { maskedKeyFor } from '../src/main/catalog/summary-mask'

const tmp = mkdtempSync(join(tmpdir(), 'sepia-list-bytes-'))
const home = join(tmp, 'home')
const empty = join(tmp, 'empty-home')
const saved = { SEPIA_DATA_DIR: process.env.SEPIA_DATA_DIR }
const SOURCE = '59d2b1d8-139c-406e-9af8-d7379d3f42fd'
const CJK = 'c0ffee00-1111-4222-8333-444455556666'
const PROMPT = '[think] What is 17 * 3 + 4? Think first.'
const WIDE = '量子計算機のテスト 😀 “quoted” … naïve'

beforeAll(() => {
  cpSync(join(findAppRoot(), 'fixtures/real/claude-code/home'), home, { recursive: true })
  // A session whose first prompt (its summary's title and firstPrompt) is CJK, an astral emoji and other non-ASCII text.
  const projects = join(home, '.claude', 'projects')
  const dir = join(projects, readdirSync(projects).find((p) => readdirSync(join(projects, p)).includes(`${SOURCE}.jsonl`))!)
  const text = readFileSync(join(dir, `${SOURCE}.jsonl`), 'utf8')
  expect(text.includes(PROMPT)).toBe(true)
  writeFileSync(join(dir, `${CJK}.jsonl`), text.split(SOURCE).join(CJK).replaceAll(PROMPT, WIDE))
  mkdirSync(empty)
  process.env.SEPIA_DATA_DIR = join(tmp, 'data')
})
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  rmSync(tmp, { recursive: true, force: true })
})

/** `sepia <argv>` in this process; stdout as the bytes written. */
async function run(...argv: string[]): Promise<{ code: number; out: Buffer }> {
  const chunks: Buffer[] = []
  const out = new Writable({ write: (c: Buffer | string, _e, cb) => (chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c)), cb()) })
  const err = new Writable({ write: (_c, _e, cb) => cb() })
  const code = await main(argv, out as unknown as NodeJS.WritableStream, err as unknown as NodeJS.WritableStream)
  return { code, out: Buffer.concat(chunks) }
}

/** The text `sepia list --json` printed before the bytes path (main at cf90f0c), from the parsed output. */
function asText(out: Buffer): Buffer {
  const l = JSON.parse(out.toString('utf8')) as { homes: unknown; sessions: unknown[]; diagnostics: unknown }
  const indent = (v: unknown): string => JSON.stringify(v, null, 2).replace(/\n/g, '\n  ')
  const sessions = l.sessions.map((s) => JSON.stringify(s))
  const list = sessions.length === 0 ? '[]' : `[\n    ${sessions.join(',\n    ')}\n  ]`
  return Buffer.from(`{\n  "homes": ${indent(l.homes)},\n  "sessions": ${list},\n  "diagnostics": ${indent(l.diagnostics)}\n}\n`, 'utf8')
}

function catalog<T>(f: (db: Database.Database) => T): T {
  const db = new Database(join(tmp, 'data', CATALOG_FILE))
  try {
    return f(db)
  } finally {
    db.close()
  }
}

describe('sepia list --json from the stored bytes', () => {
  it('prints the same bytes for summaries masked now, stored, and stale among stored ones, non-ASCII text included', async () => {
    // First list: no summary is stored yet, each is masked now (and stored).
    const first = await run('list', '--json', '--home', home)
    expect(first.code).toBe(0)
    expect(first.out.equals(asText(first.out))).toBe(true)
    const sessions = (JSON.parse(first.out.toString('utf8')) as { sessions: { id: string; title?: string; firstPrompt?: string }[] }).sessions
    expect(sessions.length).toBeGreaterThan(3)
    expect(sessions.find((s) => s.id === CJK)?.firstPrompt).toContain(WIDE)
    expect(first.out.includes(Buffer.from(WIDE, 'utf8'))).toBe(true)
    const stored = catalog((db) => db.prepare('SELECT COUNT(*) FROM list_cache').pluck().get() as number)
    expect(stored).toBe(sessions.length)

    // Second list: every summary is the stored bytes.
    const second = await run('list', '--json', '--home', home)
    expect(second.out.equals(first.out)).toBe(true)

    // Third: the CJK row written again (new gen), another row's mask from other masking code and
    // a third row's mask gone, among stored rows: those three are masked now, the same bytes.
    const sids = catalog((db) => db.prepare('SELECT sid, session_id AS id FROM sessions ORDER BY sid').all() as { sid: number; id: string }[])
    const cjk = sids.find((s) => s.id === CJK)!.sid
    const others = sids.filter((s) => s.sid !== cjk)
    catalog((db) => {
      db.prepare('UPDATE sessions SET gen = gen + 1 WHERE sid = ?').run(cjk)
      db.prepare("UPDATE list_cache SET key = key || '-other-masker' WHERE sid = ?").run(others[0]!.sid)
      db.prepare('DELETE FROM list_cache WHERE sid = ?').run(others[1]!.sid)
    })
    const keys = catalog((db) => db.prepare('SELECT s.gen AS gen, c.key AS key FROM sessions s LEFT JOIN list_cache c ON c.sid = s.sid').all() as { gen: number; key: string | null }[])
    expect(keys.filter((k) => k.key !== maskedKeyFor(k.gen)).length).toBe(3)
    const third = await run('list', '--json', '--home', home)
    expect(third.out.equals(first.out)).toBe(true)
    // ... and stored again: the next list reads them all from the catalog.
    const fourth = await run('list', '--json', '--home', home)
    expect(fourth.out.equals(first.out)).toBe(true)

    // --agent filters the bytes by each summary's agent.
    const one = await run('list', '--json', '--home', home, '--agent', 'claude-code')
    expect(one.out.equals(first.out)).toBe(true)
    const none = await run('list', '--json', '--home', home, '--agent', 'codex')
    expect(none.out.equals(asText(none.out))).toBe(true)
    expect((JSON.parse(none.out.toString('utf8')) as { sessions: unknown[] }).sessions).toEqual([])
  }, 60_000)

  it('an empty library prints an empty sessions list, as the text path did', async () => {
    const r = await run('list', '--json', '--home', empty)
    expect(r.code).toBe(0)
    expect(r.out.equals(asText(r.out))).toBe(true)
    expect(r.out.toString('utf8')).toContain('\n  "sessions": [],\n')
  })

  it('formatListJson copies each session as it is, between the text path separators', () => {
    const homes = [{ path: '/home/ana', os: 'linux' as const, isDemo: false }]
    const a = '{"id":"a","title":"量子計算機 😀 …"}'
    const b = '{"id":"b","title":"plain"}'
    const text = (sessions: string[]): string => {
      const list = sessions.length === 0 ? '[]' : `[\n    ${sessions.join(',\n    ')}\n  ]`
      return `{\n  "homes": ${JSON.stringify(homes, null, 2).replace(/\n/g, '\n  ')},\n  "sessions": ${list},\n  "diagnostics": []\n}\n`
    }
    expect(formatListJson(homes, [Buffer.from(a), Buffer.from(b)], []).equals(Buffer.from(text([a, b]), 'utf8'))).toBe(true)
    expect(formatListJson(homes, [Buffer.from(a)], []).equals(Buffer.from(text([a]), 'utf8'))).toBe(true)
    expect(formatListJson(homes, [], []).equals(Buffer.from(text([]), 'utf8'))).toBe(true)
  })
})
