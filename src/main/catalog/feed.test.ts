/**
 * The streamed first pass of a cold index (issue 15): the workers start on each agent's new
 * sessions as soon as its discovery ends, while main discovers the other stores.
 *
 * - `SizeSplitter` gives a list's refs as `splitBySize` does when all come in one part, and
 *   balances parts; `RefQueue` yields every ref pushed, in order, waiting for more until the last.
 * - Discovery sees the catalog as it was when the refresh began: a project-folder store (Crush)
 *   discovered after the workers wrote another agent's sessions is not told their projects.
 * - A worker that dies in its first pass (at its job, or at a later part) loses nothing: what
 *   it was given is read on main, and the catalog holds what an inline read holds, table by table.
 */
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { openHomes } from '../../../tests/helpers/open-homes'
import { tempDirs } from '../../../tests/helpers/temp'
import { AGENTS, agentById } from '../agents/registry'
import type { AgentDefinition, ReadContext, StoreRef } from '../agents/types'
import { findAppRoot } from '../context'
import { LibraryService } from '../library'
import { RefQueue } from './indexer'
import { SizeSplitter, splitBySize } from './pool'
import { Refresher } from './refresh'
import { openCatalog } from './schema'
import { CatalogStore } from './store'

/** Which started worker (0-based, per test) dies, and at which message it does. */
const dying: { index: number; on: 'index' | 'refs' | undefined; started: number } = { index: -1, on: undefined, started: 0 }
vi.mock('./pool', async (importOriginal) => {
  const real = await importOriginal<typeof import('./pool')>()
  return {
    ...real,
    startWorker: (): Worker | undefined => {
      const k = dying.started++
      if (k !== dying.index) return real.startWorker()
      // Takes messages and ends the thread at the first one of that type, having read nothing.
      const code = `require('node:worker_threads').parentPort.on('message', (m) => { if (m.type === ${JSON.stringify(dying.on)}) process.exit(7) })`
      return new Worker(code, { eval: true })
    },
  }
})

const ROOT = findAppRoot()
const ctx: ReadContext = { now: () => 1_800_000_000_000 }
const temp = tempDirs()
beforeEach(() => {
  dying.index = -1
  dying.on = undefined
  dying.started = 0
})

/** The catalog's rows, keyed by session instead of the ids and change counters that follow write order. */
function dump(db: LibraryService['db']): Record<string, unknown[]> {
  const sessions = db.prepare('SELECT * FROM sessions ORDER BY home, agent, session_id').all() as Record<string, unknown>[]
  const key = new Map(sessions.map((s) => [s['sid'], `${s['home']}|${s['agent']}|${s['session_id']}`]))
  const strip = (rows: Record<string, unknown>[], drop: string[]): unknown[] =>
    rows
      .map((r) => {
        const o: Record<string, unknown> = { ...r, session: key.get(r['sid']) }
        for (const d of drop) delete o[d]
        return JSON.stringify(o)
      })
      .sort()
  return {
    sessions: strip(sessions, ['sid', 'gen']),
    messages: strip(db.prepare('SELECT * FROM messages').all() as Record<string, unknown>[], ['sid', 'mid']),
    usage: strip(db.prepare('SELECT * FROM usage').all() as Record<string, unknown>[], ['sid', 'mid']),
    skeletons: strip(db.prepare('SELECT * FROM skeletons').all() as Record<string, unknown>[], ['sid']),
    files: strip(db.prepare('SELECT * FROM files').all() as Record<string, unknown>[], ['sid']),
  }
}

const ref = (id: string, size: number): StoreRef => ({ agent: 'claude-code', sessionId: id, format: 'x', files: [`/${id}`], size, mtimeMs: 0, home: '/h' })

describe('streamed first pass', () => {
  it('splits one part as splitBySize does, and later parts onto the lighter list', () => {
    const refs = [5, 300, 7, 1, 90, 90, 3, 40].map((n, i) => ref(`r${i}`, n))
    expect(new SizeSplitter(2).split(refs)).toEqual(splitBySize(refs, 2))
    const s = new SizeSplitter(2)
    const first = s.split([ref('big', 300), ref('a', 10)])
    expect(first.map((l) => l.map((r) => r.sessionId))).toEqual([['big'], ['a']])
    const next = s.split([ref('b', 50), ref('c', 60), ref('d', 400)])
    expect(next.map((l) => l.map((r) => r.sessionId))).toEqual([['c', 'b'], ['d']])
  })

  it('queues refs pushed in parts and ends after the last', async () => {
    const q = new RefQueue()
    q.push([ref('a', 1)], false)
    const got: string[] = []
    const done = (async () => {
      for await (const r of q) got.push(r.sessionId)
    })()
    await new Promise((r) => setTimeout(r, 5))
    expect(got).toEqual(['a'])
    expect(q.dry).toBe(true)
    q.push([ref('b', 1), ref('c', 1)], false)
    await new Promise((r) => setTimeout(r, 5))
    q.push([], true)
    expect(q.dry).toBe(false)
    await done
    expect(got).toEqual(['a', 'b', 'c'])
  })

  it('discovery sees the projects the catalog named when the refresh began, not those the workers wrote since', async () => {
    const home = join(ROOT, 'fixtures/real/claude-code/home')
    const [open] = await openHomes([home])
    const dbPath = join(temp('sepia-feed-'), 'catalog.sqlite')
    const store = new CatalogStore(openCatalog(dbPath))
    const crush = agentById('crush')
    const told: { projects?: readonly string[]; waited: boolean } = { waited: false }
    // Crush's discovery ends last: it waits until the workers wrote Claude Code's sessions.
    const late: AgentDefinition = {
      ...crush,
      discover: async (layout, c) => {
        for (let i = 0; i < 400 && !store.hasSessions(); i++) await new Promise((r) => setTimeout(r, 25))
        told.waited = store.hasSessions()
        told.projects = c.projectFolders?.(layout.home)
        return crush.discover(layout, c)
      },
    }
    const refresher = new Refresher(store, [agentById('claude-code'), late], ctx, { dbPath, workers: 2, workerThreshold: 0 })
    const r = await refresher.refresh([open!])
    expect(told.waited).toBe(true)
    expect(told.projects).toEqual([])
    // ...while the catalog named projects by then (a discovery told them could look there).
    expect(store.projectsOf(home).length).toBeGreaterThan(0)
    expect(r.read).toBeGreaterThan(0)
    await refresher.whenIdle()
    store.db.close()
  }, 60_000)

  it.each([
    ['its job', 'index'],
    ['a later part', 'refs'],
  ] as const)('a worker that dies at %s: what it was given is read on main, the catalog is the inline one', async (_name, on) => {
    const homes = await openHomes(['claude-code', 'cline', 'codex', 'gemini'].map((n) => join(ROOT, 'fixtures/real', n, 'home')))
    const inline = new LibraryService(homes, AGENTS, ctx, { workers: 0 })
    const a = await inline.load()
    await inline.whenIdle()
    dying.index = 1
    dying.on = on
    const threaded = new LibraryService(homes, AGENTS, ctx, { catalogPath: join(temp('sepia-feed-'), 'catalog.sqlite'), workers: 2, workerThreshold: 0 })
    const b = await threaded.load()
    // The two indexing workers, and the text worker that follows the rows pass (refresh.ts `followText`).
    expect(dying.started).toBe(3)
    expect(b.sessions).toEqual(a.sessions)
    expect(b.sessions.length).toBeGreaterThan(10)
    const st = threaded.status()
    expect(st.done).toBe(st.total)
    await threaded.whenIdle()
    expect(dump(threaded.db)).toEqual(dump(inline.db))
    expect(threaded.store.countPendingRows()).toBe(0)
    expect((await threaded.refresh()).read).toBe(0)
    await inline.close()
    await threaded.close()
  }, 120_000)
})
