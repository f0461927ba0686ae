/**
 * Read one Goose session into the IR, from either store generation (see discover.ts):
 *
 * SQLite `sessions.db` (block/goose crates/goose/src/session/session_manager.rs @01643006,
 * schema version 5): `sessions(id, name, description, user_set_name, session_type, working_dir,
 * created_at, updated_at, extension_data, total_tokens, input_tokens, output_tokens,
 * accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens, schedule_id,
 * recipe_json, user_recipe_values_json)` and `messages(id, session_id, role, content_json,
 * created_timestamp, timestamp, tokens, metadata_json)`; messages in `timestamp` order as Goose
 * reads them (`get_conversation`), row id breaking ties. `created_at`/`updated_at` are UTC
 * `YYYY-MM-DD HH:MM:SS` (SQLite `CURRENT_TIMESTAMP`) or RFC 3339. Columns added by later
 * migrations (`name`, `user_set_name`, `session_type`, `metadata_json`) may be missing.
 *
 * Legacy JSONL (crates/goose/src/session/storage.rs @01a262b2): line 1 is `SessionMetadata`
 * `{working_dir, description, schedule_id, message_count, total_tokens, input_tokens,
 * output_tokens, accumulated_*}`, every other line one `Message` (Goose also accepts a file whose
 * first line is already a message).
 *
 * Usage: the `accumulated_*` token counts (whole session) when present, else the last-turn
 * `input_tokens`/`output_tokens`, as `Session.usage`. Goose records no per-message model.
 * `session_type` `hidden` and `sub_agent` are sessions Goose leaves out of its own list
 * (`list_sessions`): read with `metadata.hidden = true`.
 */
import { readFile } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import type { Session, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, jsonLineObject, newSession, skipRecord } from '../../ir/build'
import { openSqliteReadOnly } from '../../util/sqlite'
import type { ReadContext, StoreRef } from '../types'
import { messageNodes, num, obj, str } from './content'
import { FORMAT_JSONL } from './discover'

type Json = Record<string, unknown>

/** SQLite `TIMESTAMP` text (UTC, `YYYY-MM-DD HH:MM:SS[.fff]`) or RFC 3339 → ms since epoch. */
export function sqliteTimeToMs(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(value) ? `${value.replace(' ', 'T')}${/[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? '' : 'Z'}` : value
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? undefined : ms
}

/** Session usage from the token columns / metadata fields (see the module comment). */
function usageOf(r: Json): Usage | undefined {
  const acc = { input: num(r.accumulated_input_tokens), output: num(r.accumulated_output_tokens) }
  const last = { input: num(r.input_tokens), output: num(r.output_tokens) }
  const pick = acc.input !== undefined || acc.output !== undefined ? acc : last
  if (pick.input === undefined && pick.output === undefined) return undefined
  return { ...(pick.input !== undefined && { inputTokens: pick.input }), ...(pick.output !== undefined && { outputTokens: pick.output }) }
}

/** Token columns kept verbatim in `Session.metadata.tokens` (Goose's own names). */
function tokenColumns(r: Json): Json | undefined {
  const out: Json = {}
  for (const k of ['total_tokens', 'input_tokens', 'output_tokens', 'accumulated_total_tokens', 'accumulated_input_tokens', 'accumulated_output_tokens']) if (num(r[k]) !== undefined) out[k] = r[k]
  return Object.keys(out).length ? out : undefined
}

/** Append one parsed Goose message to the session, chained after the last node. */
function appendMessage(session: Session, m: Json, base: string, path: string, where: { line?: number; row?: number }): void {
  const last = session.nodes[session.nodes.length - 1]?.nodeId
  const { nodes, unknownTypes } = messageNodes(m, base, last)
  session.nodes.push(...nodes)
  for (const t of new Set(unknownTypes)) {
    addDiagnostic(session, { severity: 'info', path, ...(where.line !== undefined && { line: where.line }), message: `${where.row !== undefined ? `messages row ${where.row}: ` : ''}content type "${t}" is not read; skipped` })
  }
}

async function readJsonl(ref: StoreRef, session: Session): Promise<void> {
  const path = ref.files[0]!
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
  }
  text.split('\n').forEach((raw, i) => {
    const line = i + 1
    const v = jsonLineObject(session, path, raw, line)
    if (!v) return
    if (line === 1 && !Array.isArray(v.content) && v.role === undefined) {
      if (str(v.working_dir)) session.workingDirectory = str(v.working_dir)
      if (str(v.description)) session.title = str(v.description)
      if (str(v.schedule_id)) session.metadata.scheduleId = str(v.schedule_id)
      if (num(v.message_count) !== undefined) session.metadata.messageCount = v.message_count
      const u = usageOf(v)
      if (u) session.usage = u
      const t = tokenColumns(v)
      if (t) session.metadata.tokens = t
      return
    }
    if (v.role !== 'user' && v.role !== 'assistant') {
      addDiagnostic(session, { severity: 'warning', path, line, message: `message role ${JSON.stringify(v.role)} is neither user nor assistant; skipped` })
      return
    }
    appendMessage(session, v, `line-${line}`, path, { line })
  })
}

function readSqlite(ref: StoreRef, session: Session): void {
  const path = ref.files[0]!
  let h
  try {
    h = openSqliteReadOnly(path)
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot open ${path}: ${(e as Error).message}`, path })
  }
  try {
    const row = h.db.prepare('SELECT * FROM sessions WHERE id = ?').get(ref.sessionId) as Json | undefined
    if (!row) {
      addDiagnostic(session, { severity: 'error', path, message: `session ${ref.sessionId} is no longer in the sessions table` })
      return
    }
    if (str(row.working_dir)) session.workingDirectory = str(row.working_dir)
    const title = str(row.name) || str(row.description)
    if (title) session.title = title
    const created = sqliteTimeToMs(row.created_at)
    if (created !== undefined) session.createdAt = created
    const updated = sqliteTimeToMs(row.updated_at)
    if (updated !== undefined) session.lastActivityAt = updated
    const type = str(row.session_type)
    if (type) session.metadata.sessionType = type
    if (type === 'hidden' || type === 'sub_agent') session.metadata.hidden = true
    if (str(row.schedule_id)) session.metadata.scheduleId = str(row.schedule_id)
    if (row.user_set_name !== undefined && row.user_set_name !== null) session.metadata.userSetName = row.user_set_name === 1 || row.user_set_name === true
    if (str(row.recipe_json)) session.metadata.recipe = parseOr(str(row.recipe_json)!)
    const ext = str(row.extension_data) ? parseOr(str(row.extension_data)!) : undefined
    if (obj(ext) && Object.keys(obj(ext)!).length) session.metadata.extensionData = ext
    const u = usageOf(row)
    if (u) session.usage = u
    const t = tokenColumns(row)
    if (t) session.metadata.tokens = t
    const hasMeta = (h.db.prepare("SELECT COUNT(*) AS n FROM pragma_table_info('messages') WHERE name = 'metadata_json'").get() as { n: number }).n > 0
    const msgs = h.db.prepare(`SELECT id, role, content_json, created_timestamp, tokens${hasMeta ? ', metadata_json' : ''} FROM messages WHERE session_id = ? ORDER BY timestamp, id`).all(ref.sessionId) as Json[]
    for (const r of msgs) {
      const rowId = num(r.id) ?? 0
      const where = `messages row ${rowId}`
      if (r.role !== 'user' && r.role !== 'assistant') {
        addDiagnostic(session, { severity: 'warning', path, message: `${where}: role ${JSON.stringify(r.role)} is neither user nor assistant; skipped (Goose skips it too)` })
        continue
      }
      let content: unknown
      try {
        content = JSON.parse(String(r.content_json))
      } catch {
        skipRecord(session, { severity: 'warning', path, message: `${where}: content_json is not JSON; skipped` })
        continue
      }
      if (!Array.isArray(content)) {
        skipRecord(session, { severity: 'warning', path, message: `${where}: content_json is not a list of content items; skipped` })
        continue
      }
      const metadata = typeof r.metadata_json === 'string' ? obj(parseOr(r.metadata_json)) : undefined
      const m: Json = { role: r.role, created: num(r.created_timestamp), content, ...(metadata && { metadata }) }
      const before = session.nodes.length
      appendMessage(session, m, `row-${rowId}`, path, { row: rowId })
      const tokens = num(r.tokens)
      const first = session.nodes[before]
      if (tokens !== undefined && first) first.metadata = { ...first.metadata, tokens }
    }
  } catch (e) {
    addDiagnostic(session, { severity: 'error', path, message: `cannot read session ${ref.sessionId}: ${(e as Error).message}` })
  } finally {
    h.close()
  }
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/**
 * Read the session `ref` names. Rejects with `READ_FAILED` only when its file cannot be opened
 * at all; bad lines and rows become diagnostics naming the file and the line or row.
 */
export async function readGooseSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  if (ref.files[0] === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no file' })
  const session = newSession('goose', ref.sessionId, ref.format, ref.files, ref.home)
  if (ref.format === FORMAT_JSONL) await readJsonl(ref, session)
  else readSqlite(ref, session)
  return finishSession(session)
}
