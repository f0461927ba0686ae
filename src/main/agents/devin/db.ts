/**
 * Read-only access to Devin's `sessions.db` with schema probing.
 *
 * Store facts (`shared/formats/cursor-devin-atif-acp.md` C2 "Schema", C3, C4; seed 002 "Devin
 * CLI"): tables `sessions`, `message_nodes`, `prompt_history`, `tool_call_state`,
 * `subagent_heads`, `refinery_schema_history`, `app_state`. Columns accreted over 17 refinery
 * migrations, so every table's columns are probed with `PRAGMA table_info` and only present ones
 * are selected; a missing table reads as no rows.
 *
 * The database is opened on a temporary copy (db + `-wal` + `-shm`, {@link openSqliteReadOnly}):
 * nothing is ever created next to the source. One copy serves discovery and every session read
 * of the same store while the source's size and mtime are unchanged; it is closed after
 * {@link IDLE_MS} without use, and on process exit.
 */
import type Database from 'better-sqlite3'
import { sqliteCopyCache, type openSqliteReadOnly } from '../../util/sqlite'

/** A `sessions` row (columns absent from an older schema stay undefined). Times: seconds or ms. */
export interface SessionRow {
  id: string
  working_directory?: string | null
  backend_type?: string | null
  model?: string | null
  agent_mode?: string | null
  created_at?: number | null
  last_activity_at?: number | null
  title?: string | null
  main_chain_id?: number | null
  shell_last_seen_index?: number | null
  cogs_json?: string | null
  workspace_dirs?: string | null
  hidden?: number | null
  metadata?: string | null
}

/** A `message_nodes` row. `chat_message`/`metadata` are raw cells (JSON text, BLOB, or `'null'`). */
export interface NodeRow {
  row_id?: number | null
  node_id: number
  parent_node_id?: number | null
  chat_message: unknown
  created_at?: number | null
  metadata?: unknown
  /** Pre-forest schemas had a `thinking` column (migration 2 `add_thinking_column`). */
  thinking?: unknown
}

/** A `tool_call_state` row: ACP `ToolCall` / latest `ToolCallUpdate` JSON text (either may be NULL). */
export interface ToolStateRow {
  tool_call_id: string
  tool_call_json?: unknown
  tool_call_update_json?: unknown
}

/** A `subagent_heads` row: the head node of a sub-agent chain inside the session's forest. */
export interface HeadRow {
  agent_id: string
  chain_node_id: number
  /** Unix seconds. */
  updated_at?: number | null
}

/** A `prompt_history` row (input-recall log). */
export interface PromptRow {
  id?: number | null
  content: unknown
  timestamp?: number | null
  is_shell?: number | null
}

/** ms a cached copy stays open without use. */
export const IDLE_MS = 3000

const copies = sqliteCopyCache(IDLE_MS)

/** Close every cached copy (tests call it to prove temp copies are removed). */
export function closeDevinDbs(): void {
  copies.closeAll()
}

/**
 * Run `fn` on a read-only copy of `path`. Throws what {@link openSqliteReadOnly} throws (missing
 * file, not a database); errors thrown by `fn` propagate.
 */
export function withDevinDb<T>(path: string, fn: (db: Database.Database) => T): T {
  return copies.withDb(path, fn)
}

/** Column names of `table` (empty when the table does not exist). */
export function columns(db: Database.Database, table: string): Set<string> {
  try {
    return new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name))
  } catch {
    return new Set()
  }
}

/** `SELECT` list of the wanted columns that exist in `present`. */
function pick(present: Set<string>, wanted: readonly string[]): string {
  return wanted.filter((c) => present.has(c)).map((c) => `"${c}"`).join(', ')
}

const SESSION_COLUMNS = [
  'id', 'working_directory', 'backend_type', 'model', 'agent_mode', 'created_at', 'last_activity_at', 'title',
  'main_chain_id', 'shell_last_seen_index', 'cogs_json', 'workspace_dirs', 'hidden', 'metadata',
] as const

/** Every `sessions` row (oldest first by `created_at`, then id). Throws when the table is absent. */
export function sessionRows(db: Database.Database): SessionRow[] {
  const present = columns(db, 'sessions')
  if (!present.has('id')) throw new Error('the database has no sessions table')
  const order = present.has('created_at') ? 'created_at, id' : 'id'
  return db.prepare(`SELECT ${pick(present, SESSION_COLUMNS)} FROM sessions ORDER BY ${order}`).all() as SessionRow[]
}

/** One `sessions` row by id, or undefined. */
export function sessionRow(db: Database.Database, id: string): SessionRow | undefined {
  const present = columns(db, 'sessions')
  if (!present.has('id')) return undefined
  return db.prepare(`SELECT ${pick(present, SESSION_COLUMNS)} FROM sessions WHERE id = ?`).get(id) as SessionRow | undefined
}

/** What {@link nodeRows} found: rows, or why the table could not be read. */
export interface NodeRows {
  rows: NodeRow[]
  /** Set when `message_nodes` is missing or lacks its key columns. */
  missing?: string
}

/** Every `message_nodes` row of a session, ordered by `node_id`. */
export function nodeRows(db: Database.Database, sessionId: string): NodeRows {
  const present = columns(db, 'message_nodes')
  if (!present.has('node_id') || !present.has('session_id') || !present.has('chat_message')) {
    return { rows: [], missing: present.size === 0 ? 'no message_nodes table' : 'message_nodes lacks node_id/chat_message' }
  }
  const cols = pick(present, ['row_id', 'node_id', 'parent_node_id', 'chat_message', 'created_at', 'metadata', 'thinking'])
  const rows = db.prepare(`SELECT ${cols} FROM message_nodes WHERE session_id = ? ORDER BY node_id`).all(sessionId) as NodeRow[]
  return { rows }
}

/** `tool_call_state` rows of a session (none when the table is absent, before migration 14). */
export function toolStateRows(db: Database.Database, sessionId: string): ToolStateRow[] {
  const present = columns(db, 'tool_call_state')
  if (!present.has('tool_call_id') || !present.has('session_id')) return []
  const cols = pick(present, ['tool_call_id', 'tool_call_json', 'tool_call_update_json'])
  return db.prepare(`SELECT ${cols} FROM tool_call_state WHERE session_id = ? ORDER BY tool_call_id`).all(sessionId) as ToolStateRow[]
}

/** `subagent_heads` rows of a session (none when the table is absent, before migration 17). */
export function headRows(db: Database.Database, sessionId: string): HeadRow[] {
  const present = columns(db, 'subagent_heads')
  if (!present.has('agent_id') || !present.has('chain_node_id') || !present.has('session_id')) return []
  const cols = pick(present, ['agent_id', 'chain_node_id', 'updated_at'])
  return db.prepare(`SELECT ${cols} FROM subagent_heads WHERE session_id = ? ORDER BY agent_id`).all(sessionId) as HeadRow[]
}

/** `prompt_history` rows of a session, the order Devin reads them (`timestamp`, then rowid). */
export function promptRows(db: Database.Database, sessionId: string): PromptRow[] {
  const present = columns(db, 'prompt_history')
  if (!present.has('content') || !present.has('session_id')) return []
  const order = present.has('timestamp') ? 'timestamp, rowid' : 'rowid'
  const cols = pick(present, ['id', 'content', 'timestamp', 'is_shell'])
  return db.prepare(`SELECT ${cols} FROM prompt_history WHERE session_id = ? ORDER BY ${order}`).all(sessionId) as PromptRow[]
}

/** Highest applied refinery migration (17 at CLI 3000.11.3), or undefined without the table. */
export function schemaVersion(db: Database.Database): number | undefined {
  if (!columns(db, 'refinery_schema_history').has('version')) return undefined
  const r = db.prepare('SELECT MAX(version) AS v FROM refinery_schema_history').get() as { v: number | null } | undefined
  return r?.v ?? undefined
}

/** Node ids of a session (topology only, from plain columns: a corrupt `chat_message` cannot hide one). */
export function nodeIds(db: Database.Database, sessionId: string): Set<number> {
  const present = columns(db, 'message_nodes')
  if (!present.has('node_id') || !present.has('session_id')) return new Set()
  const rows = db.prepare('SELECT node_id FROM message_nodes WHERE session_id = ?').all(sessionId) as { node_id: number }[]
  return new Set(rows.map((r) => Number(r.node_id)))
}
