/**
 * The SQLite store of OpenCode (`<xdg data>/opencode/opencode.db`, channel builds
 * `opencode-<channel>.db`) and Kilo Code CLI (`<xdg data>/kilo/kilo.db`).
 *
 * Tables read (fixtures/real/{opencode,kilo}/home; packages/opencode/src/session/session.sql.ts):
 * - `session`: one row per session; columns `id`, `project_id`, `parent_id` (sub-agent sessions
 *   made by the `task` tool), `directory`, `title`, `version`, `agent`, `model` (JSON text),
 *   `time_created`/`time_updated` (ms), session totals `cost`/`tokens_*` (0 when never summed).
 * - `message`: `id`, `session_id`, `time_created`, `data` (JSON without the ids).
 * - `part`: `id`, `message_id`, `session_id`, `time_created`, `data` (JSON without the ids).
 * - `project`: `id`, `worktree`.
 * Columns are probed, never assumed (schemas drift between versions); the `event` log and the V2
 * `session_message` projection are not read (the latter is only counted when a session has no
 * `message` rows).
 */
import type Database from 'better-sqlite3'
import { columnNames, tableNames, withStoreDb } from './db'
import type { Problem, StoredMessage, StoredPart, StoredSession } from './store'
import { type Json, byId, byTimeThenId, obj, parseJson, str, timeOf, toMs } from './values'
import { plural } from '../../../shared/plural'

/** A session as discovery lists it. */
export interface DbSessionEntry {
  id: string
  parentId?: string
  updatedAt?: number
}

/** Session ids (and parents) in the database. Throws when the file is not a readable database. */
export function listDbSessions(path: string): { sessions: DbSessionEntry[]; problem?: string } {
  return withStoreDb(path, (db) => {
    if (!tableNames(db).has('session')) return { sessions: [], problem: 'the database has no "session" table' }
    const cols = columnNames(db, 'session')
    if (!cols.has('id')) return { sessions: [], problem: 'the "session" table has no "id" column' }
    const select = ['id', cols.has('parent_id') ? 'parent_id' : 'NULL AS parent_id', cols.has('time_updated') ? 'time_updated' : 'NULL AS time_updated']
    const rows = db.prepare(`SELECT ${select.join(', ')} FROM session`).all() as Json[]
    const sessions: DbSessionEntry[] = []
    for (const r of rows) {
      const id = str(r.id) ?? (typeof r.id === 'number' ? String(r.id) : undefined)
      if (!id) continue
      const e: DbSessionEntry = { id }
      const parent = str(r.parent_id)
      if (parent) e.parentId = parent
      const at = toMs(r.time_updated)
      if (at !== undefined) e.updatedAt = at
      sessions.push(e)
    }
    return { sessions }
  })
}

/** A row's `data` JSON merged under its id columns; undefined (and a problem) when `data` is bad. */
function rowData(row: Json, table: string, path: string, problems: Problem[]): Json | undefined {
  const { data, ...columns } = row
  if (data === undefined) return columns
  const parsed = typeof data === 'string' ? parseJson(data) : data
  const o = obj(parsed)
  if (o) return o
  const why = typeof data === 'string' ? (parsed === undefined ? 'is not valid JSON' : 'is not a JSON object') : 'is empty'
  problems.push({ severity: 'error', path, message: `table ${table}, row ${String(row.id)}: "data" ${why}; the ${table} is skipped` })
  return undefined
}

/** JSON-decoded text columns of a session row (`model`, `revert`, `permission`, ...). */
function sessionInfo(row: Json): Json {
  const info: Json = {}
  for (const [k, v] of Object.entries(row)) {
    if (v === null) continue
    const decoded = typeof v === 'string' && /^[[{]/.test(v) ? parseJson(v) : undefined
    info[k] = decoded ?? v
  }
  return info
}

function loadMessages(db: Database.Database, path: string, sessionId: string, problems: Problem[], skipped: Set<string>): StoredMessage[] {
  const cols = columnNames(db, 'message')
  if (!cols.has('id') || !cols.has('session_id')) {
    problems.push({ severity: 'error', path, message: 'the "message" table is missing or has no id/session_id column; no messages read' })
    return []
  }
  const order = cols.has('time_created') ? 'time_created, id' : 'id'
  const rows = db.prepare(`SELECT * FROM message WHERE session_id = ? ORDER BY ${order}`).all(sessionId) as Json[]
  const out: StoredMessage[] = []
  for (const row of rows) {
    const data = rowData(row, 'message', path, problems)
    if (!data) {
      skipped.add(String(row.id))
      continue
    }
    const m: StoredMessage = { id: String(row.id), data, path, isRow: true, parts: [] }
    const at = toMs(row.time_created)
    if (at !== undefined) m.rowCreatedAt = at
    out.push(m)
  }
  return byTimeThenId(out, (m) => timeOf(m.data, 'created') ?? m.rowCreatedAt)
}

function loadParts(db: Database.Database, path: string, sessionId: string, messages: StoredMessage[], problems: Problem[], skipped: Set<string>): void {
  const cols = columnNames(db, 'part')
  if (!cols.has('id') || !cols.has('message_id')) {
    if (messages.length) problems.push({ severity: 'warning', path, message: 'the "part" table is missing or has no id/message_id column; messages are shown without their parts' })
    return
  }
  const where = cols.has('session_id') ? 'session_id = ?' : 'message_id IN (SELECT id FROM message WHERE session_id = ?)'
  const rows = db.prepare(`SELECT * FROM part WHERE ${where} ORDER BY message_id, id`).all(sessionId) as Json[]
  const byMessage = new Map(messages.map((m) => [m.id, m]))
  const orphans: string[] = []
  let ofSkipped = 0
  for (const row of rows) {
    const messageId = String(row.message_id)
    if (skipped.has(messageId)) {
      ofSkipped++
      continue
    }
    const data = rowData(row, 'part', path, problems)
    if (!data) continue
    const m = byMessage.get(messageId)
    if (!m) {
      orphans.push(String(row.id))
      continue
    }
    const p: StoredPart = { id: String(row.id), messageId, data }
    const at = toMs(row.time_created)
    if (at !== undefined) p.rowCreatedAt = at
    m.parts.push(p)
  }
  for (const m of messages) m.parts = byId(m.parts)
  if (ofSkipped) problems.push({ severity: 'info', path, message: `table part: ${plural(ofSkipped, 'row belongs', 'rows belong')} to skipped message rows and ${ofSkipped === 1 ? 'is' : 'are'} skipped too` })
  if (orphans.length) {
    problems.push({ severity: 'warning', path, message: `table part: ${plural(orphans.length, 'row names', 'rows name')} a message that is not in this session (${orphans.slice(0, 3).join(', ')}); skipped` })
  }
}

/** Load one session from the database; undefined when the session row is gone. Throws on I/O. */
export function loadDbSession(path: string, sessionId: string): StoredSession | undefined {
  return withStoreDb(path, (db) => {
    const tables = tableNames(db)
    if (!tables.has('session')) return undefined
    const row = db.prepare('SELECT * FROM session WHERE id = ?').get(sessionId) as Json | undefined
    if (!row) return undefined
    const problems: Problem[] = []
    const info = sessionInfo(row)
    const s: StoredSession = { id: sessionId, info, messages: [], files: [path], problems, extra: {} }
    const projectId = str(row.project_id)
    if (projectId && tables.has('project') && columnNames(db, 'project').has('worktree')) {
      const p = db.prepare('SELECT worktree FROM project WHERE id = ?').get(projectId) as Json | undefined
      const wt = str(p?.worktree)
      if (wt) s.projectWorktree = wt
    }
    const skipped = new Set<string>()
    if (tables.has('message')) s.messages = loadMessages(db, path, sessionId, problems, skipped)
    else problems.push({ severity: 'error', path, message: 'the database has no "message" table; no messages read' })
    if (tables.has('part')) loadParts(db, path, sessionId, s.messages, problems, skipped)
    if (s.messages.length === 0 && tables.has('session_message') && columnNames(db, 'session_message').has('session_id')) {
      const n = (db.prepare('SELECT count(*) AS n FROM session_message WHERE session_id = ?').get(sessionId) as Json).n
      if (typeof n === 'number' && n > 0) {
        s.extra.sessionMessageRows = n
        problems.push({ severity: 'info', path, message: `table session_message holds ${plural(n, 'row')} for this session (OpenCode's V2 projection), which Sepia does not read yet` })
      }
    }
    return s
  })
}
