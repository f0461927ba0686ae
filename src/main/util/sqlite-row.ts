/**
 * Adding one row to an agent's SQLite index (Cline `db/sessions.db`, Devin `sessions.db`), the safe way:
 * - an existing database is first copied with SQLite's online backup (which includes what is still
 *   in its `-wal`) to `<db>.sepia-backup-<time>` beside it;
 * - the row (and any `more` rows, e.g. Devin's messages) is inserted in one transaction, with only
 *   the columns each table has (older or newer schemas keep working); a fault rolls the transaction
 *   back and removes the backup;
 * - a missing database is created from the agent's own schema in a temporary file, then renamed.
 * Inside a write job (`util/write-journal.ts`) the row's key, the backup and the temporary file are
 * recorded first: after a kill the next start looks for the row; when it is not there the backup
 * (then a copy of an unchanged database) is removed, when it is the backup is kept
 * (`util/write-recovery.ts`).
 * Used by the writers (Cline, Codex, Devin, OpenCode), `archive/putback.ts` and `move/`; in `util/`
 * (it was `convert/sqlite-row.ts`) so that the writers do not import `convert/` for it.
 */
import Database from 'better-sqlite3'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { noteWrite, pausePoint } from './write-journal'

/** What to add. */
export interface AddRow {
  dbPath: string
  /** `CREATE TABLE ...` statements used when the database does not exist. */
  schema: readonly string[]
  table: string
  row: Record<string, unknown>
  /** ms since epoch, for the backup's name. */
  now: number
  fault?: (step: string) => void
  /**
   * More rows added in the same transaction after `row`, in order (Devin: a `sessions` row, then its
   * `message_nodes`, `tool_call_state`, `prompt_history` rows). Same column filtering as `row`.
   */
  more?: readonly ExtraRow[]
  /** The column that identifies `row` (recorded for recovery); default `id`, else `session_id`, when `row` has one. */
  key?: string
}

/** One more row of {@link AddRow.more}. */
export interface ExtraRow {
  table: string
  row: Record<string, unknown>
  /** Skip the row when the database has no such table (an older schema); else a missing table throws. */
  optional?: boolean
}

/** What was done. */
export interface AddedRow {
  /** The backup copy, when the database existed. */
  backup?: string
  /** True when the database was created. */
  created: boolean
}

/** A timestamp for file names: `20261130T070300Z`. */
export function fileStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
}

function insert(db: Database.Database, table: string, row: Record<string, unknown>, fault?: (step: string) => void, more: readonly ExtraRow[] = []): void {
  const tables = new Map<string, Set<string>>()
  const columnsOf = (t: string): Set<string> => {
    let c = tables.get(t)
    if (!c) tables.set(t, (c = new Set((db.prepare(`PRAGMA table_info("${t}")`).all() as { name: string }[]).map((x) => x.name))))
    return c
  }
  const one = (t: string, r: Record<string, unknown>, optional: boolean): void => {
    const columns = columnsOf(t)
    if (columns.size === 0) {
      if (optional) return
      throw new Error(`the database has no "${t}" table`)
    }
    const keys = Object.keys(r).filter((k) => columns.has(k))
    const sql = `INSERT INTO "${t}" (${keys.map((k) => `"${k}"`).join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`
    const values = keys.map((k) => {
      const v = r[k]
      return typeof v === 'boolean' ? (v ? 1 : 0) : v === undefined ? null : v
    })
    db.prepare(sql).run(...values)
  }
  db.transaction(() => {
    one(table, row, false)
    for (const m of more) one(m.table, m.row, m.optional === true)
    pausePoint('sqlite-insert')
    fault?.('db-insert')
  })()
}

/** Add `row` (see the module comment). Throws the SQLite or file system error; nothing is left half-done. */
export async function addRowWithBackup(req: AddRow): Promise<AddedRow> {
  const column = req.key ?? ('id' in req.row ? 'id' : 'session_id' in req.row ? 'session_id' : undefined)
  const value = column !== undefined ? req.row[column] : undefined
  const rowEntry = (backup?: string) => {
    if (column === undefined || (typeof value !== 'string' && typeof value !== 'number')) {
      if (backup) noteWrite({ type: 'backup', path: backup, of: req.dbPath }) // no key to look for: the backup is kept unless identical
      return
    }
    noteWrite({ type: 'sqlite-row', db: req.dbPath, table: req.table, column, value, ...(backup ? { backup } : {}) })
  }
  if (!existsSync(req.dbPath)) {
    for (let d = dirname(req.dbPath); !existsSync(d) && dirname(d) !== d; d = dirname(d)) noteWrite({ type: 'dir', path: d })
    await mkdir(dirname(req.dbPath), { recursive: true })
    const temp = `${req.dbPath}.sepia-tmp-${randomBytes(4).toString('hex')}`
    rowEntry()
    noteWrite({ type: 'temp', path: temp, sqlite: true })
    try {
      const db = new Database(temp)
      try {
        for (const stmt of req.schema) db.exec(stmt)
        insert(db, req.table, req.row, req.fault, req.more)
      } finally {
        db.close()
      }
      pausePoint('sqlite-created')
      req.fault?.('db-created')
      if (existsSync(req.dbPath)) throw new Error(`${req.dbPath} appeared while writing`)
      await rename(temp, req.dbPath)
    } catch (e) {
      await rm(temp, { force: true })
      throw e
    }
    return { created: true }
  }
  let backup = `${req.dbPath}.sepia-backup-${fileStamp(req.now)}`
  for (let k = 2; existsSync(backup); k++) backup = `${req.dbPath}.sepia-backup-${fileStamp(req.now)}-${k}`
  rowEntry(backup)
  const db = new Database(req.dbPath, { fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    await db.backup(backup)
    pausePoint('sqlite-backup')
    req.fault?.('db-backup')
    insert(db, req.table, req.row, req.fault, req.more)
    pausePoint('sqlite-added')
  } catch (e) {
    db.close()
    await rm(backup, { force: true })
    throw e
  }
  db.close()
  return { backup, created: false }
}

/** Rows to delete: every row of `table` whose `column` is one of `values`. */
export interface RowDelete {
  table: string
  column: string
  values: readonly (string | number)[]
  /** Skip when the database has no such table. */
  optional?: boolean
}

/**
 * Delete rows from an existing database, the safe way (a move's "remove the original", the undo of
 * an install): first an online backup copy to `<db>.sepia-backup-<time>` beside it, then every
 * delete in one transaction. Resolves the backup's path and the rows deleted. Throws the SQLite or
 * file system error (the transaction rolled back, the backup removed).
 */
export async function deleteRowsWithBackup(req: { dbPath: string; deletes: readonly RowDelete[]; now: number }): Promise<{ backup: string; deleted: number }> {
  let backup = `${req.dbPath}.sepia-backup-${fileStamp(req.now)}`
  for (let k = 2; existsSync(backup); k++) backup = `${req.dbPath}.sepia-backup-${fileStamp(req.now)}-${k}`
  const db = new Database(req.dbPath, { fileMustExist: true })
  let deleted = 0
  try {
    db.pragma('busy_timeout = 5000')
    await db.backup(backup)
    const has = (t: string) => (db.prepare(`PRAGMA table_info("${t}")`).all() as unknown[]).length > 0
    db.transaction(() => {
      for (const d of req.deletes) {
        if (d.values.length === 0) continue
        if (!has(d.table)) {
          if (d.optional) continue
          throw new Error(`the database has no "${d.table}" table`)
        }
        deleted += db.prepare(`DELETE FROM "${d.table}" WHERE "${d.column}" IN (${d.values.map(() => '?').join(', ')})`).run(...d.values).changes
      }
    })()
  } catch (e) {
    db.close()
    await rm(backup, { force: true })
    throw e
  }
  db.close()
  return { backup, deleted }
}
