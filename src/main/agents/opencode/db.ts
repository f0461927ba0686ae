/**
 * Shared read-only copies of OpenCode-family databases (`opencode.db`, `kilo.db`).
 *
 * The real databases are in WAL mode (fixtures/real/opencode/README.md "Files"), so they are never
 * opened in place: `openSqliteReadOnly` (src/main/util/sqlite.ts) copies the database and its
 * `-wal`/`-shm` to a temporary folder. One database holds every session of the agent, so the copy
 * is made once and reused by discovery and by each session's read while the source is unchanged
 * (same size and mtime of the database and its `-wal`); it is deleted after {@link IDLE_MS} of
 * disuse, by {@link closeStoreDbs}, or when the process exits.
 */
import type Database from 'better-sqlite3'
import { statSync } from 'node:fs'
import { type ReadOnlySqlite, openSqliteReadOnly } from '../../util/sqlite'

/** How long an unused copy is kept, in ms. */
export const IDLE_MS = 5000

interface Entry {
  fingerprint: string
  handle: ReadOnlySqlite
  timer?: NodeJS.Timeout
}

const open = new Map<string, Entry>()
let exitHook = false

/** Size and mtime of the database and its `-wal`: changes whenever the agent writes. */
function fingerprint(path: string): string {
  const parts: string[] = []
  for (const p of [path, `${path}-wal`]) {
    try {
      const s = statSync(p)
      parts.push(`${s.size}:${s.mtimeMs}`)
    } catch {
      parts.push('-')
    }
  }
  return parts.join('|')
}

function close(path: string): void {
  const e = open.get(path)
  if (!e) return
  open.delete(path)
  if (e.timer) clearTimeout(e.timer)
  e.handle.close()
}

/**
 * Run `fn` on a read-only copy of the database at `path`. Throws what opening throws (missing,
 * unreadable or not a database) and what `fn` throws; the copy stays cached either way.
 */
export function withStoreDb<T>(path: string, fn: (db: Database.Database) => T): T {
  const fp = fingerprint(path)
  let e = open.get(path)
  if (e && e.fingerprint !== fp) {
    close(path)
    e = undefined
  }
  if (!e) {
    e = { fingerprint: fp, handle: openSqliteReadOnly(path) }
    open.set(path, e)
    if (!exitHook) {
      exitHook = true
      process.once('exit', closeStoreDbs)
    }
  }
  if (e.timer) clearTimeout(e.timer)
  const entry = e
  try {
    return fn(entry.handle.db)
  } finally {
    entry.timer = setTimeout(() => close(path), IDLE_MS)
    entry.timer.unref()
  }
}

/** Close every cached copy and delete its temporary folder (tests, app shutdown). */
export function closeStoreDbs(): void {
  for (const path of [...open.keys()]) close(path)
}

/** Names of the tables in `db`. */
export function tableNames(db: Database.Database): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
  return new Set(rows.map((r) => r.name))
}

/** Column names of `table` (empty when the table does not exist). */
export function columnNames(db: Database.Database, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info("${table.replace(/"/g, '""')}")`).all() as { name: string }[]
  return new Set(rows.map((r) => r.name))
}
