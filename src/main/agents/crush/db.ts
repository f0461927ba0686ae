/**
 * Crush's SQLite store (`<data dir>/crush.db`, default data dir `.crush` in the project): tables
 * `sessions`, `messages`, `files` (and `read_files` from 2026), from Crush's goose migrations
 * (github:charmbracelet/crush `internal/db/migrations/*.sql`). Columns came in over time
 * (`messages.provider` 20250627, `is_summary_message` 20250810, `sessions.todos` 20250812), so
 * rows are read with `SELECT *` and absent columns stay absent.
 *
 * The database is read on a temporary copy of the file and its `-wal`/`-shm`
 * ({@link openSqliteReadOnly}): a store whose rows sit only in its `-wal` (never checkpointed) is
 * read whole, and nothing is written beside the source. One copy per path is kept while it is in
 * use (keyed by size and mtime of db and `-wal`), closed after {@link IDLE_MS} idle.
 */
import type Database from 'better-sqlite3'
import { statSync } from 'node:fs'
import { openSqliteReadOnly, type ReadOnlySqlite } from '../../util/sqlite'

/** How long (ms) an unused copy stays open. */
export const IDLE_MS = 2000

interface Entry {
  sig: string
  handle: ReadOnlySqlite
  timer?: NodeJS.Timeout
}
const cache = new Map<string, Entry>()

/** Size and mtime of the db and its `-wal` (what decides whether a cached copy is stale). */
function signature(path: string): string {
  const part = (p: string): string => {
    try {
      const s = statSync(p)
      return `${s.size}:${s.mtimeMs}`
    } catch {
      return '-'
    }
  }
  return `${part(path)}|${part(`${path}-wal`)}`
}

function drop(path: string): void {
  const e = cache.get(path)
  if (!e) return
  cache.delete(path)
  if (e.timer) clearTimeout(e.timer)
  e.handle.close()
}

/** Close every cached copy (their temporary folders are removed). */
export function closeCrushDbs(): void {
  for (const path of [...cache.keys()]) drop(path)
}
process.once('exit', closeCrushDbs)

/**
 * Run `fn` on a read-only copy of `path`. Throws what {@link openSqliteReadOnly} throws (missing
 * file, not a database); errors thrown by `fn` propagate.
 */
export function withCrushDb<T>(path: string, fn: (db: Database.Database) => T): T {
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
  e.timer = setTimeout(() => drop(path), IDLE_MS)
  e.timer.unref()
  return fn(e.handle.db)
}

/** True when `table` exists. */
export function hasTable(db: Database.Database, table: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined
}

/** A `sessions` row (columns of every schema generation; later ones optional). */
export interface CrushSessionRow {
  id: string
  parent_session_id?: string | null
  title?: string
  message_count?: number
  prompt_tokens?: number
  completion_tokens?: number
  /** US dollars. */
  cost?: number
  /** Unix seconds (Crush writes `strftime('%s', 'now')` despite the migration's "milliseconds" comment). */
  updated_at?: number
  created_at?: number
  summary_message_id?: string | null
  todos?: string | null
}

/** A `messages` row; `parts` is the JSON array `[{ type, data }]` (`internal/message/message.go` marshalParts). */
export interface CrushMessageRow {
  rowid: number
  id: string
  session_id: string
  role: string
  parts: string
  model?: string | null
  provider?: string | null
  created_at?: number
  updated_at?: number
  finished_at?: number | null
  is_summary_message?: number
}

/** Every session row, oldest first. Throws when the database has no `sessions` table. */
export function sessionRows(db: Database.Database): CrushSessionRow[] {
  if (!hasTable(db, 'sessions')) throw new Error('the database has no sessions table (not a Crush store, or its data is in a -wal that was not copied)')
  return db.prepare('SELECT * FROM sessions ORDER BY created_at, rowid').all() as CrushSessionRow[]
}

/** The messages of one session in Crush's order (`ListMessagesBySession`: `created_at`, then insertion). */
export function messageRows(db: Database.Database, sessionId: string): CrushMessageRow[] {
  if (!hasTable(db, 'messages')) return []
  return db.prepare('SELECT rowid AS rowid, * FROM messages WHERE session_id = ? ORDER BY created_at, rowid').all(sessionId) as CrushMessageRow[]
}

/** `files` rows of one session (path and version; contents are not loaded). */
export function fileRows(db: Database.Database, sessionId: string): { path: string; version: number }[] {
  if (!hasTable(db, 'files')) return []
  return db.prepare('SELECT path, version FROM files WHERE session_id = ? ORDER BY created_at, rowid').all(sessionId) as { path: string; version: number }[]
}

/** Crush times are Unix seconds; a value past 1e11 is already ms (kept as is). */
export function crushMs(v: unknown): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) return undefined
  return v < 1e11 ? v * 1000 : v
}
