/**
 * Load everything one Devin session needs from `sessions.db` in a single pass over a read-only
 * copy, and parse the JSON cells. Bad cells become diagnostics naming the table and row (the
 * store has no lines); the rest loads. Facts: `shared/formats/cursor-devin-atif-acp.md` C2-C5,
 * edge cases 31-37.
 */
import type { Diagnostic } from '../../../shared/ir'
import {
  headRows, type HeadRow, nodeRows, type NodeRow, promptRows, type PromptRow, schemaVersion, sessionRow,
  type SessionRow, toolStateRows, withDevinDb,
} from './db'
import { type Json, obj, parseJsonCell } from './json'

/** One `message_nodes` row with its cells parsed. */
export interface ParsedRow {
  id: number
  parent: number | null
  row: NodeRow
  /** The chat message; undefined when the cell is not a JSON object (a diagnostic was made). */
  msg?: Json
  /** The node `metadata` column; undefined for NULL, `'null'` or unreadable (the latter reported). */
  meta?: Json
}

/** ACP objects of one `tool_call_state` row. */
export interface ToolState {
  call?: Json
  update?: Json
}

/** What {@link loadSession} read. */
export interface Loaded {
  row?: SessionRow
  rows: ParsedRow[]
  tools: Map<string, ToolState>
  heads: HeadRow[]
  prompts: PromptRow[]
  schema?: number
  /** Problems, each naming the table and row id; `path` is the database. */
  problems: Omit<Diagnostic, 'sessionId' | 'agent'>[]
}

/** Where a row is, for diagnostics: `message_nodes row_id 7 (node_id 3)`. */
function where(r: NodeRow): string {
  return r.row_id === undefined || r.row_id === null ? `message_nodes node_id ${r.node_id}` : `message_nodes row_id ${r.row_id} (node_id ${r.node_id})`
}

/**
 * Read session `sessionId` from the database at `dbPath`. Throws only when the database cannot be
 * opened (missing file, not SQLite); table-level problems are in `problems`.
 */
export function loadSession(dbPath: string, sessionId: string): Loaded {
  const raw = withDevinDb(dbPath, (db) => ({
    row: sessionRow(db, sessionId),
    nodes: nodeRows(db, sessionId),
    states: toolStateRows(db, sessionId),
    heads: headRows(db, sessionId),
    prompts: promptRows(db, sessionId),
    schema: schemaVersion(db),
  }))
  const problems: Loaded['problems'] = []
  const path = dbPath
  if (!raw.row) problems.push({ severity: 'warning', path, message: `sessions has no row with id "${sessionId}"; only its message_nodes rows are read` })
  if (raw.nodes.missing) problems.push({ severity: 'warning', path, message: `${raw.nodes.missing} (schema older than the message forest?); no messages read` })

  const rows: ParsedRow[] = raw.nodes.rows.map((r) => {
    const out: ParsedRow = { id: Number(r.node_id), parent: r.parent_node_id === null || r.parent_node_id === undefined ? null : Number(r.parent_node_id), row: r }
    const msg = parseJsonCell(r.chat_message)
    if (!msg.ok) problems.push({ severity: 'error', path, message: `${where(r)}: chat_message is not valid JSON (${msg.error}); message skipped, the chain continues past it` })
    else if (!obj(msg.value)) problems.push({ severity: 'error', path, message: `${where(r)}: chat_message is ${JSON.stringify(msg.value)}, not a JSON object; message skipped, the chain continues past it` })
    else out.msg = obj(msg.value)
    const meta = parseJsonCell(r.metadata)
    if (!meta.ok) problems.push({ severity: 'warning', path, message: `${where(r)}: metadata is not valid JSON (${meta.error}); ignored` })
    else if (obj(meta.value)) out.meta = obj(meta.value)
    return out
  })

  const tools = new Map<string, ToolState>()
  for (const s of raw.states) {
    const state: ToolState = {}
    for (const [col, key] of [['tool_call_json', 'call'], ['tool_call_update_json', 'update']] as const) {
      const p = parseJsonCell(s[col])
      if (!p.ok) problems.push({ severity: 'warning', path, message: `tool_call_state tool_call_id ${s.tool_call_id}: ${col} is not valid JSON (${p.error}); ignored` })
      else if (obj(p.value)) state[key] = obj(p.value)
    }
    tools.set(String(s.tool_call_id), state)
  }
  const out: Loaded = { rows, tools, heads: raw.heads, prompts: raw.prompts, problems }
  if (raw.row) out.row = raw.row
  if (raw.schema !== undefined) out.schema = raw.schema
  return out
}
