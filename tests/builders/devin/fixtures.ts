/**
 * Test-only fixture GENERATOR for the Devin reader: writes a real `sessions.db` (better-sqlite3)
 * and ATIF transcripts into temporary homes. No real Devin store exists on the build machines,
 * so every table, column and JSON shape here is built from the documented shapes, never copied
 * from a live store (see FIXTURES.md):
 * - schema: `shared/formats/cursor-devin-atif-acp.md` C2 (refinery schema 17, CLI 3000.11.3) and
 *   an older schema without the later columns/tables (C2 "can each be missing on older stores");
 * - chat_message / node metadata / tool_call_state: C4, C5 and E (ACP ToolCall / ToolCallUpdate);
 * - ATIF: D (v1.7 root, steps, final_metrics; legacy `metadata.metrics` steps).
 * The scenarios themselves (sessions, values) are in `fixtures-sessions.ts`. All values are
 * invented and fixed, so generation is deterministic.
 */
import Database from 'better-sqlite3'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { MIGRATIONS, SCHEMA_17 } from '../../../src/main/agents/devin/schema'

export { MIGRATIONS, SCHEMA_17 } from '../../../src/main/agents/devin/schema'

/**
 * An older store (around migration 6, before `main_chain_id`, `hidden`, `title`, session
 * `metadata`, node `metadata`, `tool_call_state`, `subagent_heads`; `permission_mode` not yet
 * renamed to `agent_mode`). Edge case 31: "Older DBs lack main_chain_id → head = max node_id".
 */
export const SCHEMA_OLD = `
CREATE TABLE refinery_schema_history(version int4 PRIMARY KEY, name VARCHAR(255), applied_on VARCHAR(255), checksum VARCHAR(255));
CREATE TABLE sessions (id TEXT PRIMARY KEY, working_directory TEXT NOT NULL, backend_type TEXT NOT NULL,
  model TEXT NOT NULL, permission_mode TEXT NOT NULL, created_at INTEGER NOT NULL, last_activity_at INTEGER NOT NULL);
CREATE TABLE prompt_history (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL,
  timestamp INTEGER NOT NULL, session_id TEXT NOT NULL);
CREATE TABLE message_nodes (row_id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
  node_id INTEGER NOT NULL, parent_node_id INTEGER, chat_message TEXT NOT NULL, created_at INTEGER NOT NULL,
  UNIQUE(session_id, node_id));
`

/** A `sessions` row to insert (columns the schema lacks are skipped). */
export type SessionFixture = Record<string, string | number | null>

/** A `message_nodes` row: `chat` is serialised unless it is already a string (corrupt cases). */
export interface NodeFixture {
  node: number
  parent: number | null
  chat: Record<string, unknown> | string
  /** Row `created_at`: unix seconds (or ms, for the seconds-vs-ms case). */
  at: number
  /** Node metadata column: object, a literal string (`'null'`, corrupt), or absent (NULL). */
  meta?: Record<string, unknown> | string
}

/** Everything one session contributes to the database. */
export interface SessionData {
  row: SessionFixture
  nodes: NodeFixture[]
  toolStates?: { id: string; call?: Record<string, unknown> | null; update?: Record<string, unknown> | null }[]
  heads?: { agent: string; node: number; at: number }[]
  prompts?: { content: string; at: number; shell?: boolean }[]
}

/** Options of {@link writeSessionsDb}. */
export interface DbOptions {
  schema: 'v17' | 'old'
  /** Leave the rows in `-wal` (WAL mode, no checkpoint) and copy db + wal + shm while open. */
  walOnly?: boolean
}

/** Insert a row with the columns the table has. */
function insert(db: Database.Database, table: string, row: Record<string, unknown>): void {
  const cols = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name))
  const keys = Object.keys(row).filter((k) => cols.has(k))
  db.prepare(`INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(...keys.map((k) => row[k]))
}

/** Fill the tables of an open database. */
function fill(db: Database.Database, schema: DbOptions['schema'], sessions: SessionData[]): void {
  const versions = schema === 'v17' ? MIGRATIONS.length : 6
  for (let v = 1; v <= versions; v++) insert(db, 'refinery_schema_history', { version: v, name: MIGRATIONS[v - 1], applied_on: '2026-03-01T09:00:00Z', checksum: String(1000 + v) })
  if (schema === 'v17') insert(db, 'app_state', { key: 'schema_compat_version', value: '0' })
  for (const s of sessions) {
    insert(db, 'sessions', schema === 'old' ? { ...s.row, permission_mode: s.row.agent_mode } : s.row)
    for (const n of s.nodes) {
      const meta = n.meta === undefined ? null : typeof n.meta === 'string' ? n.meta : JSON.stringify(n.meta)
      const chat = typeof n.chat === 'string' ? n.chat : JSON.stringify(n.chat)
      insert(db, 'message_nodes', { session_id: s.row.id, node_id: n.node, parent_node_id: n.parent, chat_message: chat, created_at: n.at, metadata: meta })
    }
    for (const t of s.toolStates ?? []) {
      const json = (v: Record<string, unknown> | null | undefined) => (v ? JSON.stringify(v) : null)
      insert(db, 'tool_call_state', { session_id: s.row.id, tool_call_id: t.id, tool_call_json: json(t.call), tool_call_update_json: json(t.update) })
    }
    for (const h of s.heads ?? []) insert(db, 'subagent_heads', { session_id: s.row.id, agent_id: h.agent, chain_node_id: h.node, updated_at: h.at })
    for (const p of s.prompts ?? []) insert(db, 'prompt_history', { content: p.content, timestamp: p.at, session_id: s.row.id, is_shell: p.shell ? 1 : 0 })
  }
}

/**
 * Write `sessions.db` at `path` (parents created). With `walOnly`, the database is built in a
 * scratch file in WAL mode with auto-checkpoint off, and db + `-wal` + `-shm` are copied to `path`
 * while the writer is still open: the copy's main file holds only the schema header and the rows
 * live in the WAL (C1: "while the CLI runs, data is in -wal").
 */
export function writeSessionsDb(path: string, sessions: SessionData[], opts: DbOptions): void {
  mkdirSync(dirname(path), { recursive: true })
  const scratch = opts.walOnly ? mkdtempSync(join(tmpdir(), 'sepia-devin-fixture-')) : undefined
  const target = scratch ? join(scratch, 'sessions.db') : path
  const db = new Database(target)
  try {
    if (opts.walOnly) {
      db.pragma('journal_mode = WAL')
      db.pragma('wal_autocheckpoint = 0')
    }
    db.exec(opts.schema === 'v17' ? SCHEMA_17 : SCHEMA_OLD)
    if (opts.walOnly) db.pragma('wal_checkpoint(TRUNCATE)')
    db.transaction(() => fill(db, opts.schema, sessions))()
    if (opts.walOnly) {
      for (const s of ['', '-wal', '-shm']) if (existsSync(target + s)) copyFileSync(target + s, path + s)
    }
  } finally {
    db.close()
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true })
}

/** Write a JSON file (parents created); `raw` text is written as is (empty or cut-short cases). */
export function writeTranscript(path: string, value: unknown, raw?: string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, raw ?? JSON.stringify(value, null, 2))
}

/** The Devin store folder of a Linux-layout home (`~/.local/share/devin/cli`, C1). */
export function storeDir(home: string): string {
  return join(home, '.local', 'share', 'devin', 'cli')
}
