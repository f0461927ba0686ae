/**
 * Read-only access to an agent's SQLite store (Cline `db/sessions.db`, ...).
 *
 * Why a copy: opening a database in place, even with `readonly: true`, can create `-wal`/`-shm`
 * files next to it (a WAL-mode database needs a shared-memory index), and a store the agent is
 * writing may be locked. Sepia never writes beside a source store (DESIGN.md "Sources are
 * read-only"), so the database and its `-wal`/`-shm` companions, when present, are copied into a
 * fresh temporary folder and the copy is opened. SQLite folds the copied WAL into what the reader
 * sees, so uncheckpointed rows are visible too. `close()` removes the copy.
 */
import Database from 'better-sqlite3'
import { constants, copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { assertRegularFile } from './regular-file'

/** An open read-only copy of a database and how to dispose of it. */
export interface ReadOnlySqlite {
  /** better-sqlite3 connection on the temporary copy (read-only). */
  db: Database.Database
  /** Close the connection and delete the temporary copy. Safe to call twice. */
  close(): void
}

/**
 * Copy `path` (plus `path-wal` and `path-shm` when they exist) to a temporary folder and open the
 * copy read-only. Throws the file system or SQLite error when the file is missing, unreadable or
 * not a database (callers turn it into a diagnostic); the temporary folder is removed on failure.
 */
export function openSqliteReadOnly(path: string): ReadOnlySqlite {
  ensureExitCleanup()
  // A FIFO or device in place of the database must not hang or flood the copy (issue 16).
  assertRegularFile(path)
  const dir = mkdtempSync(join(tmpdir(), 'sepia-sqlite-'))
  const copy = join(dir, basename(path))
  let db: Database.Database | undefined
  try {
    // A copy-on-write clone where the file system offers one (btrfs, APFS, XFS): instant for 2 GB stores.
    copyFileSync(path, copy, constants.COPYFILE_FICLONE)
    for (const suffix of ['-wal', '-shm']) {
      if (existsSync(path + suffix) && isRegular(path + suffix)) copyFileSync(path + suffix, copy + suffix, constants.COPYFILE_FICLONE)
    }
    db = new Database(copy, { readonly: true, fileMustExist: true })
    // Touch the schema so a file that is not a database fails here, not at the first query.
    db.prepare('SELECT count(*) FROM sqlite_master').get()
  } catch (err) {
    try {
      db?.close()
    } catch {
      // ignore
    }
    rmSync(dir, { recursive: true, force: true })
    throw err
  }
  const opened = db
  let closed = false
  const handle: ReadOnlySqlite = {
    db: opened,
    close() {
      if (closed) return
      closed = true
      live.delete(handle)
      try {
        opened.close()
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
  live.add(handle)
  return handle
}

/** Copies still open; removed at process exit so no temporary copy outlives the app. */
const live = new Set<ReadOnlySqlite>()
let cleanupRegistered = false
function ensureExitCleanup(): void {
  if (cleanupRegistered) return
  cleanupRegistered = true
  process.once('exit', () => {
    for (const h of [...live]) {
      try {
        h.close()
      } catch {
        // best effort at exit
      }
    }
  })
}

/** True when `p` is a regular file (a special file beside a database is left out of the copy). */
function isRegular(p: string): boolean {
  try {
    assertRegularFile(p)
    return true
  } catch {
    return false
  }
}

/**
 * Read-only copies ({@link openSqliteReadOnly}) kept open per database path while in use: a copy
 * is made again when the size or mtime (ms since epoch) of the db or its `-wal` changed, and
 * closed (its temporary folder removed) after `idleMs` without use, or when the process exits.
 * For readers that query one store many times (Devin CLI, Crush).
 */
export interface SqliteCopyCache {
  /** Run `fn` on the copy of `path`. Throws what {@link openSqliteReadOnly} throws; errors of `fn` propagate. */
  withDb<T>(path: string, fn: (db: Database.Database) => T): T
  /** Close every cached copy. */
  closeAll(): void
}

/** A {@link SqliteCopyCache} whose copies close after `idleMs` (ms) unused. */
export function sqliteCopyCache(idleMs: number): SqliteCopyCache {
  const cache = new Map<string, { sig: string; handle: ReadOnlySqlite; timer?: NodeJS.Timeout }>()
  const signature = (path: string): string =>
    ['', '-wal']
      .map((s) => {
        try {
          const st = statSync(path + s)
          return `${st.size}:${st.mtimeMs}`
        } catch {
          return '-'
        }
      })
      .join('|')
  const drop = (path: string): void => {
    const e = cache.get(path)
    if (!e) return
    cache.delete(path)
    if (e.timer) clearTimeout(e.timer)
    e.handle.close()
  }
  const closeAll = (): void => {
    for (const path of [...cache.keys()]) drop(path)
  }
  process.once('exit', closeAll)
  return {
    withDb<T>(path: string, fn: (db: Database.Database) => T): T {
      const sig = signature(path)
      let e = cache.get(path)
      if (e && e.sig !== sig) {
        drop(path)
        e = undefined
      }
      if (!e) {
        e = { sig, handle: openSqliteReadOnly(path) }
        cache.set(path, e)
      }
      if (e.timer) clearTimeout(e.timer)
      e.timer = setTimeout(() => drop(path), idleMs)
      e.timer.unref()
      return fn(e.handle.db)
    },
    closeAll,
  }
}
