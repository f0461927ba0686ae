/**
 * The streaming index path (Claude Code's `readStream`, `stream.ts`, `writer.ts`) stores exactly
 * what the whole-read path (`read` → `extractSession` → `writeSession`) stores — session rows,
 * files, message rows (the search index's text), usage rows and the search index itself — over
 * every Claude Code fixture home plus a few odd transcripts written here. Also with a window of
 * nothing (every reply continued on a later line is "late": the second pass), with one row per
 * transaction (placeholder rows), after a crash mid-write, and when a session is indexed again.
 */
import type Database from 'better-sqlite3'
import { appendFileSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { claudeCode } from '../agents/claude-code'
import { readSessionStream } from '../agents/claude-code/stream'
import type { NodeStream, StoreRef } from '../agents/types'
import { findAppRoot } from '../context'
import { layoutForHome } from '../platform'
import { extractSession } from './extract'
import { indexText } from './indexer'
import { openCatalog } from './schema'
import { CatalogStore, type FileStamp } from './store'
import { indexStream, SessionIndexer } from './stream'
import { MessageWriter, PENDING_HOME, type BatchSize } from './writer'
import { DEFAULT_WINDOW, type StreamWindow } from '../agents/claude-code/transcript-stream'

const ROOT = findAppRoot()
const ctx = { now: () => 1_800_000_000_000 }
const NOTHING: StreamWindow = { bytes: -1, nodes: 0 }
const temps: string[] = []
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** Write odd transcripts (and the public fixtures) into a new home. */
function oddHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'sepia-stream-'))
  temps.push(home)
  const dir = join(home, '.claude/projects/-home-ana-odd')
  mkdirSync(dir, { recursive: true })
  const pub = join(ROOT, 'fixtures/public/claude-code')
  for (const f of readdirSync(pub).filter((x) => x.endsWith('.jsonl'))) copyFileSync(join(pub, f), join(dir, f))
  let n = 0
  const last = new Map<string, string>()
  const rec = (sid: string, type: string, extra: Record<string, unknown>) => {
    const uuid = `u-${sid}-${++n}`
    const parentUuid = last.get(sid) ?? null
    last.set(sid, uuid)
    return JSON.stringify({ type, uuid, parentUuid, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), sessionId: sid, cwd: '/home/ana/odd', ...extra })
  }
  const user = (sid: string, content: unknown) => rec(sid, 'user', { message: { role: 'user', content } })
  const reply = (sid: string, id: string, block: unknown, usage = { input_tokens: 3, output_tokens: 5 }) =>
    rec(sid, 'assistant', { message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content: [block], usage } })
  const result = (id: string, text: string) => [{ type: 'tool_result', tool_use_id: id, content: text }]
  const write = (sid: string, lines: string[]) => writeFileSync(join(dir, `${sid}.jsonl`), lines.join('\n') + '\n')
  const a = '00000000-0000-4000-8000-00000000000a'
  write(a, [user(a, 'result before its call'), user(a, result('t1', 'early output')), reply(a, 'm1', { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/x' } })])
  const b = '00000000-0000-4000-8000-00000000000b'
  write(b, [user(b, 'two results for one call'), reply(b, 'm2', { type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'ls' } }), user(b, result('t2', 'first')), user(b, result('t2', 'second'))])
  const c = '00000000-0000-4000-8000-00000000000c'
  const far = Array.from({ length: 30 }, (_, i) => user(c, `filler ${i}`))
  write(c, [user(c, 'a reply continued far away'), reply(c, 'm3', { type: 'text', text: 'start' }), ...far, reply(c, 'm3', { type: 'tool_use', id: 't3', name: 'Grep', input: { pattern: 'p' } }, { input_tokens: 7, output_tokens: 9 })])
  const d = '00000000-0000-4000-8000-00000000000d'
  write(d, [user(d, 'many bad lines'), ...Array.from({ length: 30 }, (_, i) => `{"type":"user","broken ${i}`), reply(d, 'm4', { type: 'text', text: 'still here' })])
  return home
}

function homes(): string[] {
  const out = [join(ROOT, 'fixtures/real/claude-code/home')]
  const hw = join(ROOT, 'fixtures/real/claude-code/handwritten')
  for (const d of readdirSync(hw).sort()) out.push(join(hw, d, 'home'))
  const cases = join(ROOT, 'fixtures/cases/claude-code')
  for (const d of readdirSync(cases).sort()) out.push(join(cases, d))
  return out
}

async function refsOf(home: string): Promise<StoreRef[]> {
  const { refs } = await claudeCode.discover(await layoutForHome({ home }), ctx)
  const seen = new Set<string>()
  return refs.filter((r) => !seen.has(r.sessionId) && seen.add(r.sessionId)).map((r) => ({ ...r, home }))
}

function stamps(ref: StoreRef): FileStamp[] {
  return ref.files.map((path) => ({ path, size: statSync(path).size, mtimeMs: statSync(path).mtimeMs }))
}

/** Every stored row of every session, keyed by session, without the row ids. */
function dump(db: Database.Database): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const s of db.prepare('SELECT * FROM sessions ORDER BY home, agent, session_id').all() as Record<string, unknown>[]) {
    const { sid, gen: _g, ...row } = s
    const messages = db.prepare('SELECT seq, node_id, role, created_at, model, tool_names, sig, text, mid IN (SELECT mid FROM fts_pending) AS pending FROM messages WHERE sid = ? ORDER BY seq').all(sid)
    const usage = db.prepare('SELECT seq, created_at, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, thinking_tokens, cost FROM usage WHERE sid = ? ORDER BY seq').all(sid)
    const files = db.prepare('SELECT path, size, mtime_ms FROM files WHERE sid = ? ORDER BY path').all(sid)
    // The skeleton parsed whole: the streaming path stores it in parts, the whole read in one.
    const skeleton = new CatalogStore(db).skeletonOf(sid as number)
    out[`${String(s.home)}|${String(s.session_id)}`] = { row, messages, usage, files, skeleton }
  }
  return out
}

/** Search hits (session, seq) for words, after the full-text phase. */
async function hits(store: CatalogStore, words: string[]): Promise<string[][]> {
  await indexText(store, () => undefined)
  const q = store.db.prepare('SELECT s.session_id AS id, m.seq AS seq FROM fts JOIN messages m ON m.mid = fts.rowid JOIN sessions s ON s.sid = m.sid WHERE fts MATCH ? ORDER BY 1, 2')
  return words.map((w) => (q.all(`"${w}"`) as { id: string; seq: number }[]).map((r) => `${r.id}#${r.seq}`))
}

/** Placeholder rows (a streaming write in progress, or left by a crash). */
function placeholders(store: CatalogStore): number {
  return (store.db.prepare('SELECT count(*) AS n FROM sessions WHERE home LIKE ?').get(`${PENDING_HOME}%`) as { n: number }).n
}

type Way = (store: CatalogStore, ref: StoreRef) => Promise<void>
const whole: Way = async (store, ref) => void store.writeSession(extractSession(await claudeCode.read(ref, ctx), ref), stamps(ref))
const streamed: Way = async (store, ref) => (await indexStream(claudeCode, ref, ctx, store, () => stamps(ref)))()
function streamedWith(window: StreamWindow, batch?: BatchSize, spy?: (store: CatalogStore, ref: StoreRef, seq: number) => void): Way {
  return async (store, ref) => {
    const indexer = new SessionIndexer(new MessageWriter(store, { home: ref.home, agent: ref.agent, sessionId: ref.sessionId }, batch))
    const out: NodeStream = spy ? { maxDiagnostics: indexer.maxDiagnostics, restart: () => indexer.restart(), node: (n, seq) => (indexer.node(n, seq), spy(store, ref, seq)) } : indexer
    indexer.finish(await readSessionStream(ref, ctx, out, window), ref, stamps(ref))
  }
}

async function build(way: Way, paths: string[]): Promise<CatalogStore> {
  const store = new CatalogStore(openCatalog(':memory:'))
  for (const home of paths) for (const ref of await refsOf(home)) await way(store, ref)
  return store
}

const WORDS = ['the', 'ledger', 'error', 'test', 'file', 'read', 'output', 'filler', 'second', 'zanzibar']

describe('streaming index', () => {
  it('stores what the whole-read path stores, for every Claude Code fixture home and odd transcripts', async () => {
    const paths = [...homes(), oddHome()]
    const expected = await build(whole, paths)
    const want = dump(expected.db)
    expect(Object.keys(want).length).toBeGreaterThan(60)
    const wantHits = await hits(expected, WORDS)
    expect(wantHits.flat().length).toBeGreaterThan(50)
    for (const way of [streamed, streamedWith(NOTHING), streamedWith(NOTHING, { rows: 1, chars: 1 })]) {
      const got = await build(way, paths)
      expect(dump(got.db)).toEqual(want)
      expect(await hits(got, WORDS)).toEqual(wantHits)
      expect(placeholders(got)).toBe(0)
    }
  }, 120_000)

  it('keeps the odd cases exact: pairing fixed at the end, a far continuation merged, diagnostics capped', async () => {
    const home = oddHome()
    const got = dump((await build(streamedWith(NOTHING), [home])).db) as Record<string, { row: Record<string, unknown>; messages: { seq: number; tool_names: string; text: string }[] }>
    const at = (id: string) => got[`${home}|00000000-0000-4000-8000-00000000000${id}`]!
    expect(at('a').messages.map((m) => m.tool_names)).toEqual(['', ' Read ', ' Read '])
    expect(at('b').messages.map((m) => m.tool_names)).toEqual(['', ' Bash ', '', ' Bash '])
    const far = at('c').messages.find((m) => m.text.startsWith('start'))!
    expect(far.tool_names).toBe(' Grep ')
    expect(at('c').row.input_tokens).toBe(7)
    expect(at('d').row.diagnostic_count).toBe(30)
    expect(JSON.parse(at('d').row.diagnostics as string)).toHaveLength(20)
  })

  it('makes a second pass only when a reply comes back after its node was handed over', async () => {
    const home = oddHome()
    const ref = (await refsOf(home)).find((r) => r.sessionId.endsWith('00c'))!
    const passes = async (window: StreamWindow) => {
      let restarts = 0
      const seqs: number[] = []
      const out: NodeStream = { maxDiagnostics: 20, restart: () => void restarts++, node: (_n, seq) => void seqs.push(seq) }
      const r = await readSessionStream(ref, ctx, out, window)
      return { restarts, nodeCount: r.nodeCount, last: seqs.slice(-r.nodeCount) }
    }
    const normal = await passes(DEFAULT_WINDOW)
    expect(normal.restarts).toBe(0)
    expect(normal.nodeCount).toBe(32)
    expect(normal.last).toEqual(Array.from({ length: 32 }, (_, i) => i))
    // The reply's two records are 31 lines apart: a window of 10 lines' bytes sees it late once.
    const small = await passes({ bytes: 10 * 60, nodes: 10 })
    expect(small.restarts).toBe(1)
    expect(small.last).toEqual(normal.last)
  })

  it('hides a new session until its last transaction, and a crash mid-write leaves nothing visible', async () => {
    const home = join(ROOT, 'fixtures/real/claude-code/home')
    const ref = (await refsOf(home)).sort((a, b) => b.size - a.size)[0]!
    const seenPending: string[] = []
    const spy = (store: CatalogStore, r: StoreRef, seq: number): void => {
      if (seq !== 3) return
      const row = store.db.prepare('SELECT home FROM sessions WHERE session_id = ?').get(r.sessionId) as { home: string } | undefined
      seenPending.push(row?.home ?? '(none)')
      expect(store.listSessions([home]).map((s) => s.sessionId)).not.toContain(r.sessionId)
    }
    const store = new CatalogStore(openCatalog(':memory:'))
    const crash = (s: CatalogStore, r: StoreRef, seq: number): void => {
      if (seq === 5) throw new Error('simulated crash')
      spy(s, r, seq)
    }
    await expect(streamedWith(NOTHING, { rows: 1, chars: 1 }, crash)(store, ref)).rejects.toThrow('simulated crash')
    expect(seenPending).toEqual([PENDING_HOME + home])
    expect(store.listSessions([home])).toEqual([])
    expect(placeholders(store)).toBe(1)
    await streamedWith(NOTHING, { rows: 1, chars: 1 })(store, ref)
    expect(placeholders(store)).toBe(0)
    const expected = new CatalogStore(openCatalog(':memory:'))
    await whole(expected, ref)
    expect(dump(store.db)).toEqual(dump(expected.db))
  })

  it('indexes an appended transcript again like writeSession: earlier rows kept, the tail replaced', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-stream-again-'))
    temps.push(dir)
    const home = join(dir, 'home')
    cpSync(join(ROOT, 'fixtures/real/claude-code/home'), home, { recursive: true })
    const ways = [whole, streamed, streamedWith(DEFAULT_WINDOW, { rows: 2, chars: 1e9 })]
    const stores = await Promise.all(ways.map((w) => build(w, [home])))
    const id = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
    const mids = (s: CatalogStore) => (s.db.prepare('SELECT m.mid FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.session_id = ? ORDER BY seq').all(id) as { mid: number }[]).map((r) => r.mid)
    const before = stores.map(mids)
    const file = join(home, '.claude/projects/-home-ana-src-ledger-api', `${id}.jsonl`)
    appendFileSync(file, JSON.stringify({ parentUuid: null, type: 'user', message: { role: 'user', content: 'appended question' }, uuid: 'f0000000-0000-4000-8000-000000000009', timestamp: '2026-12-01T10:00:00.000Z', sessionId: id }) + '\n')
    const ref = (await refsOf(home)).find((r) => r.sessionId === id)!
    for (const [i, way] of ways.entries()) await way(stores[i]!, ref)
    const want = dump(stores[0]!.db)
    for (const [i, s] of stores.entries()) {
      expect(dump(s.db)).toEqual(want)
      expect(mids(s).slice(0, before[i]!.length), `way ${i}`).toEqual(before[i])
      expect(mids(s).length).toBe(before[i]!.length + 1)
    }
  })
})
