/**
 * The full-text index in its own file (`search.sqlite`, issue 15): a process killed between a
 * text step's two commits (index, then catalog), a missing index, an index of another catalog and
 * a file that is not a database all end, once indexing finishes, with every message found once
 * and no deleted message found. Hit counts come from the planted texts themselves, not from Sepia.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDirs } from '../../../tests/helpers/temp'
import type { MessageRow } from './extract'
import { markSearchDamaged, openCatalog, SEARCH_FILE } from './schema'
import { CatalogStore } from './store'

const temp = tempDirs()
const WORD = 'quokkaplanted'
const ROOT = join(__dirname, '..', '..', '..')

/** Deterministic texts: message `i` of session `sid` has the planted word when `(sid * 31 + i) % 7 === 0`. */
function textOf(sid: number, i: number): string {
  return (sid * 31 + i) % 7 === 0 ? `step ${i} of ${sid}: the ${WORD} ran` : `step ${i} of ${sid}: nothing here, common words only`
}

function rowsOf(sid: number, n: number): MessageRow[] {
  return Array.from({ length: n }, (_, i) => ({ seq: i, nodeId: `n${i}`, role: 'assistant' as const, toolNames: '', sig: `s${i}`, text: textOf(sid, i) }))
}

/** The planted texts that are still in the catalog (session `sid` → its rows from `from` on deleted). */
function expectedHits(sessions: Map<number, number>): number {
  let n = 0
  for (const [sid, count] of sessions) for (let i = 0; i < count; i++) if (textOf(sid, i).split(/[^a-z0-9]+/).includes(WORD)) n++
  return n
}

function write(store: CatalogStore, sid: number, n: number): void {
  store.db.transaction(() => store.insertMessages(sid, rowsOf(sid, n)))()
}

/** Keep the first `keep` rows of session `sid`. */
function truncate(store: CatalogStore, sid: number, keep: number): void {
  store.db.transaction(() => {
    const mids = store.db.prepare('SELECT mid FROM messages WHERE sid = ? AND seq >= ?').pluck().all(sid, keep) as number[]
    store.deleteMessages(mids)
  })()
}

function fill(store: CatalogStore): void {
  while (store.ftsStep(37) > 0) {
    /* next step */
  }
}

/** Index rowids matching the planted word joined to their messages (as the searches do), and all of them. */
function found(store: CatalogStore): { joined: number[]; raw: number[] } {
  const joined = store.db.prepare('SELECT f.rowid FROM fts f JOIN messages m ON m.mid = f.rowid WHERE fts MATCH ? ORDER BY 1').pluck().all(WORD) as number[]
  const raw = store.db.prepare('SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY 1').pluck().all(WORD) as number[]
  return { joined, raw }
}

function expectWhole(store: CatalogStore, sessions: Map<number, number>): void {
  const { joined, raw } = found(store)
  expect(joined.length).toBe(expectedHits(sessions))
  expect(new Set(joined).size).toBe(joined.length)
  // No entry of a deleted message is left: the queued deletes were applied.
  expect(raw).toEqual(joined)
  // Every message row with text is in the index exactly once (a word every text has).
  const all = store.db.prepare("SELECT rowid FROM fts WHERE fts MATCH 'step' ORDER BY 1").pluck().all() as number[]
  const mids = store.db.prepare('SELECT mid FROM messages ORDER BY 1').pluck().all() as number[]
  expect(all).toEqual(mids)
  expect(store.ftsPending()).toBe(0)
  expect(store.db.prepare('SELECT count(*) FROM fts_pending').pluck().get()).toBe(0)
  expect(store.db.prepare('SELECT count(*) FROM fts_deleted').pluck().get()).toBe(0)
  store.db.exec("INSERT INTO fts(fts, rank) VALUES ('integrity-check', 0)")
}

/** A catalog with 6 sessions of 40 rows, some of them indexed, and deletes both of indexed rows and of rows never indexed. */
function seed(path: string): { store: CatalogStore; sessions: Map<number, number> } {
  const store = new CatalogStore(openCatalog(path))
  const sessions = new Map<number, number>()
  for (let sid = 1; sid <= 3; sid++) {
    write(store, sid, 40)
    sessions.set(sid, 40)
  }
  store.ftsStep(50)
  for (let sid = 4; sid <= 6; sid++) {
    write(store, sid, 40)
    sessions.set(sid, 40)
  }
  // Session 1's tail was indexed; session 5's tail never was.
  truncate(store, 1, 25)
  sessions.set(1, 25)
  truncate(store, 5, 10)
  sessions.set(5, 10)
  return { store, sessions }
}

describe('the full-text index in its own file', () => {
  it('survives a process killed between the index commit and the catalog commit', () => {
    const dir = temp('sepia-split-')
    const path = join(dir, 'catalog.sqlite')
    const { store, sessions } = seed(path)
    store.db.close()

    const child = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'tests', 'helpers', 'split-index-child.ts'), path, '60'], {
      cwd: ROOT,
      env: { ...process.env, SEPIA_TEST_DIE_BETWEEN_COMMITS: '2' },
      encoding: 'utf8',
    })
    expect(child.status, child.stderr).toBe(70)

    const again = new CatalogStore(openCatalog(path))
    // The second step's rows are in the index but still queued in the catalog...
    const through = Number(again.db.prepare("SELECT value FROM search.meta WHERE key = 'through_mid'").pluck().get())
    expect(again.db.prepare('SELECT count(*) FROM fts_pending WHERE mid <= ?').pluck().get(through)).toBeGreaterThan(0)
    // ...and not counted as waiting.
    expect(again.ftsPending()).toBe(again.db.prepare('SELECT count(*) FROM fts_pending WHERE mid > ?').pluck().get(through))
    // The next step takes only the rows above the mark (the queued ones it holds are not added again) and drops the rest of the queue.
    const above = again.ftsPending()
    expect(again.ftsStep(1000)).toBe(above)
    expect(again.db.prepare('SELECT count(*) FROM fts_pending').pluck().get()).toBe(0)
    // More writes and deletes after the crash, then the rest.
    write(again, 7, 30)
    sessions.set(7, 30)
    truncate(again, 2, 5)
    sessions.set(2, 5)
    truncate(again, 7, 20)
    sessions.set(7, 20)
    fill(again)
    expectWhole(again, sessions)
    // A mid is never handed out again, even after the newest rows were deleted.
    const top = again.db.prepare('SELECT max(mid) FROM messages').pluck().get() as number
    truncate(again, 7, 0)
    sessions.delete(7)
    write(again, 8, 3)
    sessions.set(8, 3)
    expect(again.db.prepare('SELECT min(mid) FROM messages WHERE sid = 8').pluck().get()).toBeGreaterThan(top + 9)
    fill(again)
    expectWhole(again, sessions)
    again.db.close()
  })

  it('a missing index, or a file that is not a database, is made again from the catalog', () => {
    const dir = temp('sepia-split-')
    const path = join(dir, 'catalog.sqlite')
    const { store, sessions } = seed(path)
    fill(store)
    store.db.close()
    const index = join(dir, SEARCH_FILE)
    for (const f of [index, `${index}-wal`, `${index}-shm`]) rmSync(f, { force: true })
    const again = new CatalogStore(openCatalog(path))
    expect(existsSync(index)).toBe(true)
    expect(again.ftsPending()).toBe(again.db.prepare("SELECT count(*) FROM messages WHERE text <> ''").pluck().get())
    fill(again)
    expectWhole(again, sessions)
    again.db.close()

    writeFileSync(index, 'not a database, but long enough to be read as a header '.repeat(100))
    for (const f of [`${index}-wal`, `${index}-shm`]) rmSync(f, { force: true })
    const third = new CatalogStore(openCatalog(path))
    fill(third)
    expectWhole(third, sessions)
    third.db.close()
  })

  it('an index with a damaged page (its header whole) is noticed by the text step and made again at the next open', () => {
    const dir = temp('sepia-split-')
    const path = join(dir, 'catalog.sqlite')
    const { store, sessions } = seed(path)
    fill(store)
    store.db.close()
    const index = join(dir, SEARCH_FILE)
    // Every page after the first (the header and the schema) overwritten, as a disk error would leave it.
    const bytes = readFileSync(index)
    expect(bytes.length).toBeGreaterThan(2 * 4096)
    for (let i = 4096; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24
    writeFileSync(index, bytes)
    const damaged = new CatalogStore(openCatalog(path))
    write(damaged, 50, 40)
    sessions.set(50, 40)
    // Found at the open (the index's own tables are damaged: made again there) or by a text step (it
    // throws SQLite's error and marks the index damaged): either way the next open's index is whole.
    try {
      fill(damaged)
    } catch (e) {
      expect((e as { code?: string }).code ?? '').toMatch(/^SQLITE_CORRUPT/)
    }
    damaged.db.close()
    const again = new CatalogStore(openCatalog(path))
    fill(again)
    expectWhole(again, sessions)
    again.db.close()
  })

  it('an index a text step marked damaged is made again at the next open and filled from the catalog', () => {
    const dir = temp('sepia-split-')
    const path = join(dir, 'catalog.sqlite')
    const { store, sessions } = seed(path)
    fill(store)
    markSearchDamaged(store.db)
    store.db.close()
    const again = new CatalogStore(openCatalog(path))
    expect(again.ftsPending()).toBe(again.db.prepare("SELECT count(*) FROM messages WHERE text <> ''").pluck().get())
    expect(again.db.prepare("SELECT count(*) FROM meta WHERE key = 'search_damaged'").pluck().get()).toBe(0)
    fill(again)
    expectWhole(again, sessions)
    again.db.close()
  })

  it('an index of another catalog is emptied and every row queued again', () => {
    const a = temp('sepia-split-')
    const b = temp('sepia-split-')
    const one = seed(join(a, 'catalog.sqlite'))
    fill(one.store)
    one.store.db.close()
    // Another catalog whose index holds other rows under the same mids.
    const other = new CatalogStore(openCatalog(join(b, 'catalog.sqlite')))
    other.db.transaction(() => other.insertMessages(1, Array.from({ length: 300 }, (_, i) => ({ seq: i, nodeId: `x${i}`, role: 'user' as const, toolNames: '', sig: 'x', text: `${WORD} elsewhere ${i}` }))))()
    fill(other)
    other.db.close()
    rmSync(join(a, SEARCH_FILE))
    copyFileSync(join(b, SEARCH_FILE), join(a, SEARCH_FILE))
    const again = new CatalogStore(openCatalog(join(a, 'catalog.sqlite')))
    fill(again)
    expectWhole(again, one.sessions)
    again.db.close()
  })

  it('deleting rows the index never held leaves it whole', () => {
    const store = new CatalogStore(openCatalog(':memory:'))
    write(store, 1, 20)
    truncate(store, 1, 5)
    fill(store)
    expectWhole(store, new Map([[1, 5]]))
    // The same deletes applied twice (a crash after the index commit) change nothing.
    store.db.exec('DELETE FROM fts WHERE rowid = 3; DELETE FROM fts WHERE rowid = 3; DELETE FROM fts WHERE rowid = 999')
    write(store, 2, 4)
    fill(store)
    store.db.exec("INSERT INTO fts(fts, rank) VALUES ('integrity-check', 0)")
    expect(found(store).joined.length).toBe(expectedHits(new Map([[1, 5], [2, 4]])) - (textOf(1, 3).includes(WORD) ? 1 : 0))
  })
})
