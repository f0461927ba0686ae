/**
 * Crush databases people published (fixtures/public-real/crush, see its SOURCES.md). Every count
 * is taken from an independent reading of the raw database here, never from Sepia: SQL over a
 * read-only copy (db + `-wal`) in a temporary folder: `COUNT(*)` of `messages` by role,
 * `tool_call`/`tool_result` parts and `finish` reasons with `json_each`, the `sessions` totals.
 * `exabgp-wal-only` keeps every row in its `-wal`; the fixture must stay byte for byte as it is.
 */
import Database from 'better-sqlite3'
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { eventText } from '../../../shared/events'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { snapshotTree } from '../../../../tests/helpers/snapshot'
import { readHomeOf } from '../../../../tests/builders/testing'
import { closeCrushDbs } from './db'
import { LAST_REQUEST_NOTE } from './read'
import { crush } from '.'

const ROOT = join(REPO_ROOT, 'fixtures', 'public-real', 'crush')
const CASES = ['dbos-api-error', 'exabgp-wal-only']

/** The `.crush/crush.db` under `dir` (depth-first). */
function dbOf(dir: string): string {
  const here = join(dir, '.crush', 'crush.db')
  if (existsSync(here)) return here
  for (const e of readdirSync(dir)) {
    const p = join(dir, e)
    if (!e.startsWith('.') && statSync(p).isDirectory()) {
      try {
        return dbOf(p)
      } catch {
        // not here
      }
    }
  }
  throw new Error(`no crush.db under ${dir}`)
}

/** Run `fn` on a read-only copy of `db` (+ `-wal`) in a temporary folder. */
function onCopy<T>(db: string, fn: (d: Database.Database) => T): T {
  const tmp = mkdtempSync(join(tmpdir(), 'sepia-crush-truth-'))
  try {
    copyFileSync(db, join(tmp, 'c.db'))
    if (existsSync(`${db}-wal`)) copyFileSync(`${db}-wal`, join(tmp, 'c.db-wal'))
    const d = new Database(join(tmp, 'c.db'), { readonly: true })
    try {
      return fn(d)
    } finally {
      d.close()
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

interface Truth {
  id: string
  title: string
  created: number
  roles: Record<string, number>
  toolCalls: number
  toolResults: number
  errors: number
  canceled: number
  prompt: number
  completion: number
  cost: number
}

function truth(db: string): Truth[] {
  return onCopy(db, (d) =>
    (d.prepare('SELECT id, title, created_at, prompt_tokens, completion_tokens, cost FROM sessions').all() as Record<string, any>[]).map((s) => {
      const roles = Object.fromEntries((d.prepare('SELECT role, COUNT(*) AS n FROM messages WHERE session_id = ? GROUP BY role').all(s.id) as { role: string; n: number }[]).map((r) => [r.role, r.n]))
      const parts = (type: string, extra = '') =>
        (d.prepare(`SELECT COUNT(*) AS n FROM messages, json_each(messages.parts) WHERE session_id = ? AND json_extract(json_each.value, '$.type') = ? ${extra}`).get(s.id, type) as { n: number }).n
      return {
        id: s.id, title: s.title, created: s.created_at * 1000, roles,
        toolCalls: parts('tool_call'), toolResults: parts('tool_result'),
        errors: parts('finish', "AND json_extract(json_each.value, '$.data.reason') = 'error'"),
        canceled: parts('finish', "AND json_extract(json_each.value, '$.data.reason') = 'canceled'"),
        prompt: s.prompt_tokens, completion: s.completion_tokens, cost: s.cost,
      }
    }),
  )
}

describe('crush public-real databases', () => {
  for (const c of CASES) {
    it(`${c}: sessions, messages by role, tool calls and results, API errors and totals equal SQL over a copy; the fixture is untouched`, async () => {
      const home = join(ROOT, c, 'home')
      const db = dbOf(home)
      const t = truth(db)
      const before = snapshotTree(home)
      const read = await readHomeOf(crush, home)
      closeCrushDbs()
      expect(snapshotTree(home)).toEqual(before)
      expect(read.sessions.map((s) => s.id).sort()).toEqual(t.map((x) => x.id).sort())
      for (const x of t) {
        const s = read.byId(x.id)
        expect(s.source.files[0]).toBe(db)
        expect(s.diagnostics).toEqual([])
        expect(s.title).toBe(x.title)
        expect(s.createdAt).toBe(x.created)
        expect(s.workingDirectory).toBe(join(db, '..', '..'))
        for (const role of ['user', 'assistant', 'system'] as const) expect(s.nodes.filter((n) => n.role === role && !n.event), role).toHaveLength(x.roles[role] ?? 0)
        expect(s.nodes.filter((n) => n.role === 'tool')).toHaveLength(x.toolResults)
        expect(countPairedToolCalls(s)).toEqual({ calls: x.toolCalls, paired: x.toolResults })
        expect(s.nodes.filter((n) => n.event === 'api-error')).toHaveLength(x.errors)
        expect(s.nodes.filter((n) => n.event === 'interrupted')).toHaveLength(x.canceled)
        // Crush overwrites the token columns on every response; only the cost is a total (crush/read.ts).
        expect(s.usage).toEqual({ cost: x.cost })
        expect(s.metadata.lastRequestTokens).toEqual({ promptTokens: x.prompt, completionTokens: x.completion, note: LAST_REQUEST_NOTE })
        expect(s.nodes.filter((n) => n.usage)).toEqual([expect.objectContaining({ role: 'assistant', usage: { cost: x.cost } })])
        expectGolden(`crush/${c}/${s.id}`, s)
      }
    })
  }

  it('dbos-api-error: the OpenAI 400 "organization must be verified" error is an api-error node', async () => {
    const read = await readHomeOf(crush, join(ROOT, 'dbos-api-error', 'home'))
    const errs = read.sessions.flatMap((s) => s.nodes).filter((n) => n.event === 'api-error')
    expect(errs.length).toBeGreaterThan(0)
    expect(errs.some((n) => n.content.includes('organization must be verified'))).toBe(true)
    // Views show an event's first line: it says what the provider said, not Crush's bare "API Error".
    for (const n of errs) expect(eventText(n)).toMatch(/^API error: 400 Bad Request: Your organization must be verified to stream this model\./)
  })

  it('sepia list --home <fixture home> --json lists every session', async () => {
    for (const c of CASES) {
      const home = join(ROOT, c, 'home')
      const before = snapshotTree(home)
      const r = await runCli('list', '--home', home, '--json')
      expect(r.code).toBe(0)
      const listed = (JSON.parse(r.out) as { sessions: { agent: string; id: string }[] }).sessions.filter((s) => s.agent === 'crush')
      expect(listed.map((s) => s.id).sort()).toEqual(truth(dbOf(home)).map((x) => x.id).sort())
      closeCrushDbs()
      expect(snapshotTree(home)).toEqual(before)
    }
  }, 60_000)

  it('a corrupt database is a diagnostic naming the file; a row whose parts is not JSON names its row', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-crush-bad-'))
    cpSync(join(ROOT, 'dbos-api-error', 'home'), home, { recursive: true })
    const db = dbOf(home)
    // A damaged row: edit the copy (never the fixture).
    const w = new Database(db)
    const row = w.prepare("SELECT rowid AS rowid, id, session_id FROM messages WHERE role = 'assistant' ORDER BY rowid LIMIT 1").get() as { rowid: number; id: string; session_id: string }
    w.prepare('UPDATE messages SET parts = ? WHERE rowid = ?').run('[{"type":"text","data":{"text":"cut', row.rowid)
    w.close()
    closeCrushDbs()
    const read = await readHomeOf(crush, home)
    const s = read.byId(row.session_id)
    expect(s.diagnostics).toContainEqual(expect.objectContaining({ severity: 'warning', path: db, line: row.rowid, message: expect.stringContaining(row.id) }))
    expect(s.nodes.length).toBeGreaterThan(10)
    closeCrushDbs()
    writeFileSync(db, 'SQLite format 3\u0000 but then nothing a database holds')
    for (const f of [`${db}-wal`, `${db}-shm`]) rmSync(f, { force: true })
    const broken = await readHomeOf(crush, home)
    expect(broken.refs).toEqual([])
    expect(broken.diagnostics).toContainEqual(expect.objectContaining({ path: db, message: expect.stringContaining('cannot read Crush database') }))
  })
})
