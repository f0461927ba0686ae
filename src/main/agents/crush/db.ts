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
import { readFileSync } from 'node:fs'
import { sqliteCopyCache, type openSqliteReadOnly } from '../../util/sqlite'

/** How long (ms) an unused copy stays open. */
export const IDLE_MS = 2000

const copies = sqliteCopyCache(IDLE_MS)

/** Close every cached copy (their temporary folders are removed). */
export function closeCrushDbs(): void {
  copies.closeAll()
}

/**
 * Run `fn` on a read-only copy of `path`. Throws what {@link openSqliteReadOnly} throws (missing
 * file, not a database); errors thrown by `fn` propagate.
 */
export function withCrushDb<T>(path: string, fn: (db: Database.Database) => T): T {
  return copies.withDb(path, fn)
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

/** Ids of the sessions whose `parent_session_id` is `sessionId` (sub-agents), oldest first. */
export function childSessionIds(db: Database.Database, sessionId: string): string[] {
  return (db.prepare('SELECT id FROM sessions WHERE parent_session_id = ? ORDER BY created_at, rowid').all(sessionId) as { id: string }[]).map((r) => r.id)
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

/**
 * Check a `-wal` file's frames the way SQLite does when it opens it (sqlite.org/fileformat2.html
 * "WAL File Format": 32-byte header with magic 0x377f0682/3, page size, salts and a checksum;
 * frames of a 24-byte header and one page, each checksum cumulative over the header and every
 * frame before it). SQLite silently stops at the first frame whose salt or checksum is wrong, so
 * rows written after it are not seen; this says whether that happens here.
 * Returns `{ frames, valid }` (frames of the current log, and those up to the first bad one), or
 * undefined when the file is too short to hold a header. Reads the whole file (WALs are bounded by
 * Crush's checkpoints, a few MB).
 */
export function walFrames(walPath: string): { frames: number; valid: number } | undefined {
  let buf: Buffer
  try {
    buf = readFileSync(walPath)
  } catch {
    return undefined
  }
  if (buf.length < 32) return undefined
  const magic = buf.readUInt32BE(0)
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return { frames: Math.floor((buf.length - 32) / 24), valid: 0 }
  const big = magic === 0x377f0683
  const word = (o: number): number => (big ? buf.readUInt32BE(o) : buf.readUInt32LE(o))
  const pageSize = buf.readUInt32BE(8) === 1 ? 65536 : buf.readUInt32BE(8)
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return { frames: 0, valid: 0 }
  let s1 = 0
  let s2 = 0
  const sum = (from: number, to: number): void => {
    for (let o = from; o < to; o += 8) {
      s1 = (s1 + word(o) + s2) >>> 0
      s2 = (s2 + word(o + 4) + s1) >>> 0
    }
  }
  sum(0, 24)
  const headerOk = s1 === buf.readUInt32BE(24) && s2 === buf.readUInt32BE(28)
  const frameSize = 24 + pageSize
  const frames = Math.floor((buf.length - 32) / frameSize)
  if (!headerOk) return { frames, valid: 0 }
  const salt1 = buf.readUInt32BE(16)
  const salt2 = buf.readUInt32BE(20)
  let valid = 0
  for (let f = 0; f < frames; f++) {
    const o = 32 + f * frameSize
    // Frames with other salts are left from before the WAL was last restarted: the end of the
    // log, not damage (reported only when no frame at all matches the header).
    if (buf.readUInt32BE(o + 8) !== salt1 || buf.readUInt32BE(o + 12) !== salt2) return { frames: valid === 0 ? frames : valid, valid }
    sum(o, o + 8)
    sum(o + 24, o + frameSize)
    if (s1 !== buf.readUInt32BE(o + 16) || s2 !== buf.readUInt32BE(o + 20)) break
    valid++
  }
  return { frames, valid }
}
