/**
 * The lighter first pass of a cold index (`rows.ts`, issue 15): the library is listed from the
 * session rows alone, then the message rows are written from the spill files. Once indexing ends
 * the catalog holds exactly what a one-pass index holds (every table, compared row by row), the
 * listing is already whole when it appears, and a stop between the passes (or a worker dying
 * after its first pass) loses nothing.
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { CATALOG_HOMES, openHomes } from '../../../tests/helpers/open-homes'
import { tempDirs } from '../../../tests/helpers/temp'
import { AGENTS } from '../agents/registry'
import type { ReadContext } from '../agents/types'
import { LibraryService } from '../library'
import { searchCatalog } from '../search/search'
import { indexRefs, indexText } from './indexer'
import { RowSpill, writeSpilledRows } from './rows'

// Seen from this thread: what the refresh itself reads and writes after a worker died (the
// workers load their own copies of these modules; the calls go through unchanged).
vi.mock('./indexer', async (load) => {
  const m = await load<typeof import('./indexer')>()
  return { ...m, indexRefs: vi.fn(m.indexRefs) }
})
vi.mock('./rows', async (load) => {
  const m = await load<typeof import('./rows')>()
  return { ...m, writeSpilledRows: vi.fn(m.writeSpilledRows) }
})
import { openCatalog } from './schema'
import { CatalogStore, ROWS_PENDING } from './store'

const HOMES = [...CATALOG_HOMES]
const ctx: ReadContext = { now: () => 1_800_000_000_000 }
const temp = tempDirs()

/** Every table's rows, without the ids and change counters that depend on write order. */
function dump(lib: LibraryService | CatalogStore): Record<string, unknown[]> {
  const db = lib.db
  const sessions = db.prepare('SELECT * FROM sessions ORDER BY home, agent, session_id').all() as Record<string, unknown>[]
  const key = new Map(sessions.map((s) => [s['sid'], `${s['home']}|${s['agent']}|${s['session_id']}`]))
  const strip = (rows: Record<string, unknown>[], drop: string[]): unknown[] =>
    rows.map((r) => {
      const o: Record<string, unknown> = { ...r, session: key.get(r['sid']) }
      for (const d of drop) delete o[d]
      return o
    })
  const sorted = (rows: unknown[]): unknown[] => rows.map((r) => JSON.stringify(r)).sort()
  // The full-text index itself (contentless: its terms, read through fts5vocab), per message.
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_terms USING fts5vocab(search, 'fts', 'instance')`)
  const terms = db.prepare('SELECT m.sid, m.seq, v.term, v.offset FROM temp.fts_terms v JOIN messages m ON m.mid = v.doc').all() as Record<string, unknown>[]
  return {
    fts: sorted(strip(terms, ['sid'])),
    ftsPending: db.prepare('SELECT count(*) FROM fts_pending').pluck().all(),
    sessions: strip(sessions, ['sid', 'gen']),
    messages: sorted(strip(db.prepare('SELECT * FROM messages').all() as Record<string, unknown>[], ['sid', 'mid'])),
    usage: sorted(strip(db.prepare('SELECT * FROM usage').all() as Record<string, unknown>[], ['sid', 'mid'])),
    skeletons: sorted(strip(db.prepare('SELECT * FROM skeletons').all() as Record<string, unknown>[], ['sid'])),
    files: sorted(strip(db.prepare('SELECT * FROM files').all() as Record<string, unknown>[], ['sid'])),
  }
}

const QUERIES = ['session', 'error', 'commit', 'test', 'function', 'readme', 'npm', 'git history', 'package.json', 'zanzibar']

describe('lighter first pass (two passes on workers)', () => {
  it('lists the whole library early, then holds what a one-pass index holds', async () => {
    const homes = await openHomes(HOMES)
    const onePass = new LibraryService(homes, AGENTS, ctx, { workers: 0 })
    const dir = temp('sepia-2p-')
    const twoPass = new LibraryService(homes, AGENTS, ctx, { catalogPath: join(dir, 'catalog.sqlite'), workers: 2, workerThreshold: 0 })
    const a = await onePass.load()
    await onePass.whenIdle()
    const b = await twoPass.load()
    // Listed when every session row is written, before the message rows: counts, titles, usage whole.
    expect(b.sessions).toEqual(a.sessions)
    expect(b.sessions.length).toBeGreaterThan(20)
    expect(b.sessions.some((s) => s.usage !== undefined)).toBe(true)
    // It was listed between the passes: the status it carries is the rows' and search's phase.
    expect(b.index?.phase).toBe('search')
    await twoPass.whenIdle()
    expect(twoPass.status().phase).toBe('idle')
    expect(dump(twoPass)).toEqual(dump(onePass))
    expect(dump(twoPass)['fts']!.length).toBeGreaterThan(1000)
    expect((twoPass.db.prepare('SELECT count(*) AS n FROM sessions WHERE substr(stamp, 1, ?) = ?').get(ROWS_PENDING.length, ROWS_PENDING) as { n: number }).n).toBe(0)
    expect(twoPass.store.searchPending()).toBe(0)
    // The same hits (message ids follow write order, which differs: hits are compared as sets).
    let compared = 0
    for (const q of QUERIES) {
      const x = searchCatalog(onePass.db, onePass.homePaths, q, {}, 0)
      const y = searchCatalog(twoPass.db, twoPass.homePaths, q, {}, 0)
      const hits = (r: typeof x): string[] => r.hits.map((h) => JSON.stringify([h.agent, h.sessionId, h.nodeId, h.snippet])).sort()
      expect(y.more, q).toBe(x.more)
      if (x.more) continue
      expect(hits(y), q).toEqual(hits(x))
      compared += x.hits.length
    }
    expect(compared).toBeGreaterThan(10)
    // The spill files are gone.
    expect(readdirSync(dir).filter((f) => f.includes('.rows-'))).toEqual([])
    // Nothing left to do: a second refresh reads nothing.
    expect((await twoPass.refresh()).read).toBe(0)
    await onePass.close()
    await twoPass.close()
  }, 120_000)

  it('a worker that dies after saying listed loses nothing: this thread writes the rest of its spill file and reads again what was only in its memory', async () => {
    const homes = await openHomes(HOMES)
    const onePass = new LibraryService(homes, AGENTS, ctx, { workers: 0 })
    await onePass.load()
    await onePass.whenIdle()
    const dir = temp('sepia-2p-died-')
    // The first job's worker ends when told to write its rows (worker.ts); with 5,000 characters
    // of row text kept in memory, its first sessions are only in its memory, the others in its file.
    process.env['SEPIA_TEST_DIE_IN_ROWS'] = '5000'
    const listed = (await onePass.load()).sessions
    const died = new LibraryService(homes, AGENTS, ctx, { catalogPath: join(dir, 'catalog.sqlite'), workers: 2, workerThreshold: 0 })
    try {
      vi.mocked(indexRefs).mockClear()
      vi.mocked(writeSpilledRows).mockClear()
      expect((await died.load()).sessions).toEqual(listed)
      await died.whenIdle()
    } finally {
      delete process.env['SEPIA_TEST_DIE_IN_ROWS']
    }
    // The dead worker's spill file was written here (the rows that were only in its memory are
    // not in it)...
    const fromFile = vi.mocked(writeSpilledRows).mock.calls.map((c, i) => [c[1], vi.mocked(writeSpilledRows).mock.results[i]!.value as Promise<number>] as const)
    expect(fromFile.map(([path]) => path)).toEqual([expect.stringMatching(/^.*catalog\.sqlite\.rows-\d+-\d+-0\.jsonl$/)])
    expect(await fromFile[0]![1]).toBeGreaterThan(0)
    // ...and the sessions that were only in its memory were read again here, the one-pass way.
    const again = vi.mocked(indexRefs).mock.calls.map((c) => (c[0] as readonly unknown[]).length)
    expect(again).toHaveLength(1)
    expect(again[0]).toBeGreaterThan(0)
    expect(again[0]).toBeLessThan(listed.length)
    // The same catalog as a one-pass index: every table, row by row, and the same search hits.
    expect(died.status().phase).toBe('idle')
    expect(dump(died)).toEqual(dump(onePass))
    expect(died.store.countPendingRows()).toBe(0)
    expect(died.store.searchPending()).toBe(0)
    for (const q of QUERIES) {
      const x = searchCatalog(onePass.db, onePass.homePaths, q, {}, 0)
      const y = searchCatalog(died.db, died.homePaths, q, {}, 0)
      const hits = (r: typeof x): string[] => r.hits.map((h) => JSON.stringify([h.agent, h.sessionId, h.nodeId, h.snippet])).sort()
      expect(y.more, q).toBe(x.more)
      expect(hits(y), q).toEqual(hits(x))
    }
    expect(readdirSync(dir).filter((f) => f.includes('.rows-'))).toEqual([])
    expect((await died.refresh()).read).toBe(0)
    await onePass.close()
    await died.close()
  }, 120_000)

  // Rows kept in memory, all in the file, and some of each (the file takes over past the budget).
  it.each([
    ['in memory', undefined, false],
    ['in the file', 0, true],
    ['in memory, then in the file', 20_000, true],
  ])('writes the rows of a spill (%s) exactly as the one-pass index', async (_name, memoryChars, inFile) => {
    const homes = await openHomes(HOMES)
    const refs = (await Promise.all(homes.flatMap((h) => AGENTS.map(async (a) => (await a.discover(h.layout, ctx)).refs.map((r) => ({ ...r, home: h.layout.home })))))).flat()
    const byId = new Map(AGENTS.map((a) => [a.id as string, a]))
    const one = new CatalogStore(openCatalog(':memory:'))
    await indexRefs(refs, (id) => byId.get(id)!, one, ctx, () => undefined)
    // ...and its search phase, as the two-pass index gets below.
    await indexText(one, () => undefined)
    expect(one.ftsPending()).toBe(0)
    const two = new CatalogStore(openCatalog(':memory:'))
    const path = join(temp('sepia-spill-'), 'rows.jsonl')
    const spill = new RowSpill(path, memoryChars)
    await indexRefs(refs, (id) => byId.get(id)!, two, ctx, () => undefined, spill)
    spill.close()
    expect(spill.spilled).toBe(inFile)
    // The spill holds unmasked text: the user's only.
    if (inFile && process.platform !== 'win32') expect(statSync(path).mode & 0o077).toBe(0)
    if (memoryChars === 20_000) expect(spill.memory.length).toBeGreaterThan(0)
    // Between the passes: every session row is there, pending, with no message rows of its own.
    expect(two.countPendingRows()).toBe((two.db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n)
    expect((two.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n).toBe(0)
    const written = await writeSpilledRows(two, spill)
    expect(written).toBe(refs.length)
    expect(two.countPendingRows()).toBe(0)
    await indexText(two, () => undefined)
    expect(dump(two)).toEqual(dump(one))
    // A second run of the same spill file writes nothing (the rows are no longer pending).
    expect(await writeSpilledRows(two, path)).toBe(0)
    expect(dump(two)).toEqual(dump(one))
  }, 120_000)

  it('leaves sessions whose rows were never written for the next refresh to read again', async () => {
    const homes = await openHomes([HOMES[0]!])
    const dir = temp('sepia-2p-stop-')
    const dbPath = join(dir, 'catalog.sqlite')
    const refs = (await Promise.all(AGENTS.map(async (a) => (await a.discover(homes[0]!.layout, ctx)).refs.map((r) => ({ ...r, home: homes[0]!.layout.home }))))).flat()
    const byId = new Map(AGENTS.map((a) => [a.id as string, a]))
    // A first pass whose process stopped before the second: the spill is never written.
    const stopped = new CatalogStore(openCatalog(dbPath))
    const spill = new RowSpill(join(dir, 'lost.jsonl'), 0)
    await indexRefs(refs, (id) => byId.get(id)!, stopped, ctx, () => undefined, spill)
    spill.close()
    stopped.db.close()
    const lib = new LibraryService(homes, AGENTS, ctx, { catalogPath: dbPath, workers: 0 })
    expect(lib.store.countPendingRows()).toBe(refs.length)
    const result = await lib.refresh()
    expect(result.read).toBe(refs.length)
    await lib.whenIdle()
    expect(lib.store.countPendingRows()).toBe(0)
    const one = new LibraryService(homes, AGENTS, ctx, { workers: 0 })
    await one.load()
    await one.whenIdle()
    expect(dump(lib)).toEqual(dump(one))
    await lib.close()
    await one.close()
  }, 120_000)
})
