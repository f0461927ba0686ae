/**
 * Zed's agent thread store `threads/threads.db` (SQLite) under Zed's data dir. Facts from Zed's
 * source, github:zed-industries/zed `crates/agent/src/db.rs` (commit 0642ec7e49e2d2c06f55db8c5bb2d4eca0f5223b),
 * `ThreadsDatabase::new` / `save_thread_sync` / `list_threads` / `deserialize_thread`:
 * - one table `threads (id TEXT PRIMARY KEY, summary TEXT, updated_at TEXT, data_type TEXT,
 *   data BLOB)`, later `parent_id`, `folder_paths`, `folder_paths_order`, `created_at` (all TEXT,
 *   added by `ALTER TABLE`; older stores lack them, so rows are read with `SELECT *`);
 * - `updated_at`/`created_at` are RFC 3339 strings (`to_rfc3339`);
 * - `data_type` is `json` (the JSON text as a blob) or `zstd` (zstd-compressed JSON, level 3; the
 *   only type Zed writes today); any other value is an error in Zed too;
 * - `folder_paths` is `PathList::serialize`: the paths joined by newlines, `folder_paths_order`
 *   their original order as comma-separated indices.
 * Read on a temporary copy with its `-wal`/`-shm` ({@link sqliteCopyCache}); nothing is written
 * beside the source.
 */
import type Database from 'better-sqlite3'
import { lazyRequire } from '../../util/lazy-require'

const fzstd = lazyRequire<typeof import('fzstd')>('fzstd')
import { sqliteCopyCache } from '../../util/sqlite'

/** How long (ms) an unused copy stays open. */
export const IDLE_MS = 2000

const copies = sqliteCopyCache(IDLE_MS)

/** Run `fn` on a read-only copy of `path`. Throws what `openSqliteReadOnly` throws; errors of `fn` propagate. */
export function withZedDb<T>(path: string, fn: (db: Database.Database) => T): T {
  return copies.withDb(path, fn)
}

/** Close every cached copy (their temporary folders are removed). */
export function closeZedDbs(): void {
  copies.closeAll()
}

/** One `threads` row; columns after `data` are optional (added by later Zed versions). */
export interface ZedThreadRow {
  rowid: number
  id: string
  summary: string
  /** RFC 3339. */
  updated_at: string
  data_type: string
  data: Buffer
  parent_id?: string | null
  folder_paths?: string | null
  folder_paths_order?: string | null
  /** RFC 3339. */
  created_at?: string | null
}

/** The listing columns of every row (no `data`), newest first as Zed lists them. Throws when there is no `threads` table. */
export function threadList(db: Database.Database): Omit<ZedThreadRow, 'data'>[] {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'threads'").get()
  if (!table) throw new Error('the database has no threads table (not a Zed threads.db)')
  const cols = new Set((db.prepare('PRAGMA table_info(threads)').all() as { name: string }[]).map((c) => c.name))
  const want = ['id', 'summary', 'updated_at', 'data_type', 'parent_id', 'folder_paths', 'folder_paths_order', 'created_at'].filter((c) => cols.has(c))
  return db.prepare(`SELECT rowid, ${want.join(', ')} FROM threads ORDER BY updated_at DESC, rowid`).all() as Omit<ZedThreadRow, 'data'>[]
}

/** One row with its data, or undefined. */
export function threadRow(db: Database.Database, id: string): ZedThreadRow | undefined {
  return db.prepare('SELECT rowid, * FROM threads WHERE id = ? LIMIT 1').get(id) as ZedThreadRow | undefined
}

/**
 * The JSON text of a row's `data` (`deserialize_thread`): `zstd` is decompressed with fzstd,
 * `json` is taken as UTF-8. Throws for another `data_type` or data that does not decompress.
 */
export function threadJson(dataType: unknown, data: unknown): string {
  if (typeof data !== 'string' && !(data instanceof Uint8Array)) throw new Error(`data is ${data === null ? 'NULL' : typeof data}, not a blob`)
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  if (dataType === 'zstd') return Buffer.from(fzstd().decompress(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))).toString('utf8')
  if (dataType === 'json') return Buffer.from(bytes).toString('utf8')
  throw new Error(`unknown data_type ${JSON.stringify(typeof dataType === 'string' ? dataType : String(dataType))} (Zed writes json or zstd)`)
}

/** The folder paths of a row in their original order (`PathList::deserialize`). */
export function folderPaths(paths: unknown, order: unknown): string[] {
  if (typeof paths !== 'string' || !paths) return []
  const list = paths.split('\n').filter((p) => p !== '')
  const idx = (typeof order === 'string' ? order : '').split(',').map((s) => Number(s.trim()))
  if (idx.length !== list.length || idx.some((i) => !Number.isInteger(i) || i < 0 || i >= list.length)) return list
  const out: string[] = new Array<string>(list.length)
  // order[i] is the original position of the i-th sorted path.
  list.forEach((p, i) => {
    out[idx[i]!] = p
  })
  return out.every((x) => x !== undefined) ? out : list
}

/** RFC 3339 text to ms since epoch; undefined when absent or unparsable. */
export function zedMs(v: unknown): number | undefined {
  if (typeof v !== 'string' || v === '') return undefined
  const t = Date.parse(v)
  return Number.isFinite(t) ? t : undefined
}
