/**
 * Fixture generators for the Cursor IDE reader (tests only). No real Cursor store exists in this
 * repository, so these write real SQLite files (better-sqlite3) laid out as homes, with the shapes
 * shared/formats/cursor-devin-atif-acp.md documents (§A1 paths, §A2 tables, §A5 JSON, §A7 recipe,
 * §F edge cases). See FIXTURES.md. Every value is invented and fixed, so the IR is deterministic.
 */
import Database from 'better-sqlite3'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { HomeOs } from '../../../src/shared/ir'

/** A value to store: an object/array (JSON text), a raw string, a Buffer (BLOB) or null (SQL NULL). */
export type KvValue = unknown

/** `<home>/…/Cursor/User` for a home of `os` (§A1). */
export function cursorUserDir(home: string, os: HomeOs = 'linux'): string {
  if (os === 'darwin') return join(home, 'Library', 'Application Support', 'Cursor', 'User')
  if (os === 'win32') return join(home, 'AppData', 'Roaming', 'Cursor', 'User')
  return join(home, '.config', 'Cursor', 'User')
}

/** Create a `state.vscdb` with the two KV tables (§A2), in WAL mode like Cursor's (`{"useWAL":true}`). */
export function createStateDb(path: string, wal = true): Database.Database {
  mkdirSync(join(path, '..'), { recursive: true })
  const db = new Database(path)
  if (wal) db.pragma('journal_mode = WAL')
  db.exec('CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)')
  db.exec('CREATE TABLE IF NOT EXISTS cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)')
  return db
}

/** Store `value` under `key`: objects as JSON text, strings verbatim, Buffers as BLOB, null as NULL. */
export function put(db: Database.Database, table: 'ItemTable' | 'cursorDiskKV', key: string, value: KvValue): void {
  const v = value === null || typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value)
  db.prepare(`INSERT INTO ${table} (key, value) VALUES (?, ?)`).run(key, v)
}

/** Close a fixture database, checkpointing its WAL into the main file (so the file stands alone). */
export function closeDb(db: Database.Database): void {
  if (db.pragma('journal_mode', { simple: true }) === 'wal') db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
}

/** A bubble's Lexical `richText` for one paragraph of text (§A5.3). */
export function lexical(text: string): string {
  return JSON.stringify({ root: { children: [{ children: [{ type: 'text', text }], type: 'paragraph' }], type: 'root' } })
}

/** Write `workspaceStorage/<id>/workspace.json` (and return the folder). */
export function writeWorkspace(userDir: string, id: string, json: Record<string, unknown> | string | undefined): string {
  const dir = join(userDir, 'workspaceStorage', id)
  mkdirSync(dir, { recursive: true })
  if (json !== undefined) writeFileSync(join(dir, 'workspace.json'), typeof json === 'string' ? json : JSON.stringify(json))
  return dir
}

/** A fresh temporary home folder; `cleanup` removes it. */
export function tempHome(prefix = 'sepia-cursor-'): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), prefix))
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) }
}

/** Headers list (§A5.2.1) for bubble ids with their types (1 user, 2 assistant). */
export function headers(list: [string, 1 | 2, Record<string, unknown>?][]): Record<string, unknown>[] {
  return list.map(([bubbleId, type, extra]) => ({ bubbleId, type, ...extra }))
}

/** Insert `bubbleId:<composer>:<bubble>` rows. */
export function putBubbles(db: Database.Database, composerId: string, bubbles: Record<string, unknown>[]): void {
  for (const b of bubbles) put(db, 'cursorDiskKV', `bubbleId:${composerId}:${b.bubbleId as string}`, { _v: 3, ...b })
}
