/**
 * Cached read-only copies of Cursor's SQLite stores.
 *
 * Cursor's `state.vscdb` is live and in WAL mode (`state.vscdb.options.json` = `{"useWAL":true}`)
 * and real global stores reach 1–2.3 GB (shared/formats/cursor-devin-atif-acp.md §A1, §F17).
 * Sepia never opens a source store in place (DESIGN.md "Sources are read-only"): the database and
 * its `-wal`/`-shm` are copied together to a temporary folder (`openSqliteReadOnly`) and the copy
 * is opened read-only, so no `-wal`/`-shm` ever appears next to the source and a writer holding a
 * transaction does not block the read.
 *
 * Because every composer of a home lives in the one global database, a copy is shared: it is kept
 * while the source's files keep the same size and mtime, and removed after {@link IDLE_MS} without
 * use (and at process exit). A copy whose source changed while it was being copied is retried (the
 * db and its WAL must come from the same moment).
 */
import type Database from 'better-sqlite3'
import { statSync } from 'node:fs'
import { openSqliteReadOnly, type ReadOnlySqlite } from '../../../util/sqlite'

/** A copy is closed after this many ms without use. */
export const IDLE_MS = 15_000
/** Copies attempted when the source keeps changing underneath. */
const ATTEMPTS = 3

interface Entry {
  sig: string
  handle: ReadOnlySqlite
  users: number
  timer?: NodeJS.Timeout
  /** Prepared statements, by SQL text. */
  statements: Map<string, Database.Statement>
  stale: boolean
}

const cache = new Map<string, Entry>()
let exitHook = false

/** Size and mtime of the db and its `-wal`/`-shm` (empty parts for missing files). */
function signature(path: string): string {
  return ['', '-wal', '-shm']
    .map((suffix) => {
      try {
        const s = statSync(path + suffix)
        return `${s.size}:${s.mtimeMs}`
      } catch {
        return '-'
      }
    })
    .join('|')
}

function closeEntry(path: string, e: Entry): void {
  if (e.timer) clearTimeout(e.timer)
  if (cache.get(path) === e) cache.delete(path)
  e.handle.close()
}

/** A read-only view of one store copy; call `release` when done. */
export interface StoreSnapshot {
  db: Database.Database
  /** A statement prepared once per copy (cached by SQL text). */
  prepare(sql: string): Database.Statement
  release(): void
}

/**
 * Open (or reuse) the read-only copy of the SQLite file `path`. Throws the file system or SQLite
 * error when the file cannot be copied or is not a database (callers make it a diagnostic).
 */
export function acquireSnapshot(path: string): StoreSnapshot {
  if (!exitHook) {
    exitHook = true
    process.once('exit', closeAllSnapshots)
  }
  let entry = cache.get(path)
  const sig = signature(path)
  if (entry && entry.sig !== sig) {
    entry.stale = true
    cache.delete(path)
    if (entry.users === 0) closeEntry(path, entry)
    entry = undefined
  }
  if (!entry) {
    let handle: ReadOnlySqlite | undefined
    let before = sig
    for (let attempt = 1; ; attempt++) {
      handle = openSqliteReadOnly(path)
      const after = signature(path)
      if (after === before || attempt >= ATTEMPTS) {
        before = after
        break
      }
      handle.close()
      before = after
    }
    entry = { sig: before, handle, users: 0, statements: new Map(), stale: false }
    cache.set(path, entry)
  }
  const e = entry
  if (e.timer) clearTimeout(e.timer)
  e.timer = undefined
  e.users++
  let released = false
  return {
    db: e.handle.db,
    prepare(sql) {
      let st = e.statements.get(sql)
      if (!st) {
        st = e.handle.db.prepare(sql)
        e.statements.set(sql, st)
      }
      return st
    },
    release() {
      if (released) return
      released = true
      e.users--
      if (e.users > 0) return
      if (e.stale) return closeEntry(path, e)
      e.timer = setTimeout(() => closeEntry(path, e), IDLE_MS)
      e.timer.unref()
    },
  }
}

/** Run `fn` on the snapshot of `path`, releasing it afterwards. */
export function withSnapshot<T>(path: string, fn: (s: StoreSnapshot) => T): T {
  const s = acquireSnapshot(path)
  try {
    return fn(s)
  } finally {
    s.release()
  }
}

/** Close every cached copy and delete its temporary folder (tests, app exit). */
export function closeAllSnapshots(): void {
  for (const [path, e] of [...cache]) closeEntry(path, e)
}
