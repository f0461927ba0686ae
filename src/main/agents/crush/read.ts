/**
 * Read one Crush session (`sessions` row + its `messages`) into the IR. Format facts from Crush's
 * source (github:charmbracelet/crush `internal/db/migrations`, `internal/db/sql/messages.sql`,
 * `internal/message/message.go` marshalParts, `internal/message/content.go`):
 * - `messages.role` is `user`, `assistant`, `tool` or `system`; each row becomes one node of that
 *   role, except that a `tool` row holding several `tool_result` parts becomes one node per part.
 * - `messages.parts` is JSON `[{ type, data }]`: `text {text}`, `reasoning {thinking, signature,
 *   thought_signature}`, `image_url {url, detail}`, `binary {Path, MIMEType, Data}` (base64),
 *   `tool_call {id, name, input (JSON text), finished}`, `tool_result {tool_call_id, name,
 *   content, metadata (JSON text), is_error}`, `finish {reason, time, message, details}`,
 *   `shell_command {command, output, exit_code}`. Other types are kept as `unknown` blocks.
 * - A `finish` with reason `error` adds an `api-error` node after the message (its `message`
 *   and `details`), `canceled` an `interrupted` node, `permission_denied` a notice.
 * - A message with `is_summary_message = 1` (the summary `/summarize` or auto-summarize writes,
 *   an assistant row that `sessions.summary_message_id` names; `internal/agent/agent.go`
 *   Summarize) is a `compaction` node: Crush sends the model only that message (as a user turn)
 *   and what follows it.
 * - A user row holding only `shell_command` parts (a `!` command typed in the TUI,
 *   `internal/shell/persist_message.go`) is only its `command` nodes.
 * - A sub-agent's session id is `<message id>$$<tool call id>` of the `agent` call that spawned
 *   it, with `parent_session_id` set (`internal/session/session.go` CreateAgentToolSessionID,
 *   `internal/agent/coordinator.go`): the call gets `subagentSessionId`, the child
 *   `parentToolCallId`, the parent `childSessionIds`.
 * - Times are Unix seconds (`strftime('%s', 'now')`), read as ms ({@link crushMs}).
 * - `sessions.cost` (USD) is the session's total: Crush adds each response's cost to it (and a
 *   sub-agent's total to its parent's: `internal/llm/agent/agent-tool.go` `parentSession.Cost +=
 *   updatedSession.Cost`, now `internal/agent/coordinator.go` updateParentSessionCost; so a parent's
 *   `usage.cost` here is its cost minus its sub-agents' `cost`, and `metadata.costWithSubagents`
 *   the stored figure). `sessions.prompt_tokens`/`completion_tokens` are NOT
 *   totals: every response overwrites them with that one request's counts (github:charmbracelet/crush
 *   `internal/llm/agent/agent.go` TrackUsage at 9d68f99e, Aug 2025: `sess.Cost += cost`,
 *   `sess.CompletionTokens = usage.OutputTokens + usage.CacheReadTokens`, `sess.PromptTokens =
 *   usage.InputTokens + usage.CacheCreationTokens`; still so at 37f36e93, 2026-08,
 *   `internal/agent/agent.go` updateSessionTokenCounters, now `OutputTokens` and `InputTokens +
 *   CacheReadTokens`; title generation and summaries overwrite them too). No message row records
 *   usage (`parts` hold none; the schema has no usage column). So the session's token totals are
 *   unknown: `session.usage` and the last assistant node hold only the cost, and the two columns
 *   are kept as `metadata.lastRequestTokens` ({@link CrushLastRequestTokens}).
 * `parts` that is not JSON is a warning diagnostic naming the database and the row; the rest loads.
 */
import { SepiaError } from '../../../shared/api'
import type { ContentBlock, MessageNode, Session, ToolCall, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, sessionUsageOnLastAssistant, skipRecord } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import type { ReadContext, StoreRef } from '../types'
import { type CrushMessageRow, type CrushSessionRow, childSessionIds, crushMs, fileRows, messageRows, withCrushDb } from './db'

/**
 * `session.metadata.lastRequestTokens` of a Crush session: `sessions.prompt_tokens` and
 * `completion_tokens` as stored, which are the counts of the last request Crush recorded, not the
 * session's totals (see the module doc), with `note` saying so in plain words.
 */
export interface CrushLastRequestTokens {
  promptTokens?: number
  completionTokens?: number
  note: string
}

/** The words of {@link CrushLastRequestTokens.note}. */
export const LAST_REQUEST_NOTE = 'Crush keeps only the last request’s token counts, not a total for the session; its cost is a total.'

/** Moved to ./format.ts so discovery and the census load without this reader; kept here for its importers. */
export { KNOWN_PART_TYPES } from './format'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

/** ACP kinds of Crush tool names (`internal/agent/tools`); other names go through the shared table. */
const CRUSH_KINDS: Record<string, ToolCall['kind']> = { view: 'read', fetch: 'fetch', download: 'fetch', sourcegraph: 'search', diagnostics: 'read', todos: 'think' }
const kindOf = (name: string): ToolCall['kind'] => CRUSH_KINDS[name.toLowerCase()] ?? toolKind(name)

/** Parse a JSON text field, or return it unchanged when it is not JSON. */
function jsonOr(text: string | undefined): unknown {
  if (text === undefined || text === '') return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * An error finish's text with the provider's own words first, since views show an event's first
 * line: Crush stores `message: "API Error"` and `details: 'POST "<url>": 400 Bad Request {json}'`
 * (public-real dbos-api-error), so the first line becomes `400 Bad Request: Your organization must
 * be verified…`, then message and details as stored. Undefined when the details hold no such JSON.
 */
function errorLine(message: string | undefined, details: string | undefined): string | undefined {
  if (!details) return undefined
  const at = details.indexOf('{')
  if (at < 0) return undefined
  let said: string | undefined
  try {
    const j = JSON.parse(details.slice(at)) as Record<string, unknown>
    const inner = typeof j.error === 'object' && j.error !== null ? (j.error as Record<string, unknown>).message : undefined
    said = typeof j.message === 'string' ? j.message : typeof inner === 'string' ? inner : undefined
  } catch {
    return undefined
  }
  if (!said?.trim()) return undefined
  const status = /\b(\d{3} [A-Za-z][A-Za-z ]*?)\s*$/.exec(details.slice(0, at))?.[1]
  return [`${status ? `${status}: ` : ''}${said.trim()}`, message, details].filter((x) => x).join('\n')
}

/**
 * Read the session `ref` names. Rejects with `READ_FAILED` when the database cannot be opened or
 * no longer holds the session; bad rows become diagnostics.
 */
export async function readCrushSession(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no crush.db' })
  let row: CrushSessionRow | undefined
  let messages: CrushMessageRow[] = []
  let files: { path: string; version: number }[] = []
  let children: string[] = []
  let childCost = 0
  try {
    withCrushDb(path, (db) => {
      row = db.prepare('SELECT * FROM sessions WHERE id = ?').get(ref.sessionId) as CrushSessionRow | undefined
      messages = messageRows(db, ref.sessionId)
      files = fileRows(db, ref.sessionId)
      children = childSessionIds(db, ref.sessionId)
      if (children.length) childCost = (db.prepare('SELECT sum(cost) AS c FROM sessions WHERE parent_session_id = ?').get(ref.sessionId) as { c: number | null }).c ?? 0
    })
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
  }
  if (!row) throw new SepiaError({ code: 'READ_FAILED', message: `${path} holds no session ${ref.sessionId}`, path })
  const session = newSession('crush', ref.sessionId, ref.format, ref.files, ref.home)
  if (typeof ref.hints?.projectDir === 'string') session.workingDirectory = ref.hints.projectDir
  if (row.title) session.title = row.title
  if (row.parent_session_id) {
    session.parentSessionId = row.parent_session_id
    const cut = ref.sessionId.indexOf('$$')
    if (cut > 0 && cut + 2 < ref.sessionId.length) session.parentToolCallId = ref.sessionId.slice(cut + 2)
  }
  if (children.length) session.childSessionIds = children
  const childSet = new Set(children)
  const created = crushMs(row.created_at)
  const updated = crushMs(row.updated_at)
  if (created !== undefined) session.createdAt = created
  if (updated !== undefined) session.lastActivityAt = updated
  // Only the cost accumulates; the token columns hold one request's counts (see the module doc).
  const usage: Usage = {}
  if (typeof row.cost === 'number') {
    // A parent's cost already holds its sub-agents' (added when each finished): count it once.
    usage.cost = childCost > 0 ? Math.max(0, row.cost - childCost) : row.cost
    if (childCost > 0) session.metadata.costWithSubagents = row.cost
  }
  if (Object.keys(usage).length) session.usage = usage
  if (typeof row.prompt_tokens === 'number' || typeof row.completion_tokens === 'number') {
    const last: CrushLastRequestTokens = { note: LAST_REQUEST_NOTE }
    if (typeof row.prompt_tokens === 'number') last.promptTokens = row.prompt_tokens
    if (typeof row.completion_tokens === 'number') last.completionTokens = row.completion_tokens
    session.metadata.lastRequestTokens = last
  }
  if (typeof row.message_count === 'number') session.metadata.messageCount = row.message_count
  if (row.summary_message_id) session.metadata.summaryMessageId = row.summary_message_id
  if (row.todos) session.metadata.todos = jsonOr(row.todos)
  if (typeof ref.hints?.dataDir === 'string') session.metadata.dataDir = ref.hints.dataDir
  if (files.length) session.metadata.fileVersions = files.length
  if (files.length) session.metadata.filesTouched = [...new Set(files.map((f) => f.path))]

  const push = (n: MessageNode): MessageNode => {
    const prev = session.nodes[session.nodes.length - 1]
    if (prev) n.parentNodeId = prev.nodeId
    session.nodes.push(n)
    return n
  }
  for (const m of messages) {
    let parts: unknown[]
    try {
      const v = JSON.parse(m.parts) as unknown
      if (!Array.isArray(v)) throw new Error('not an array')
      parts = v
    } catch (e) {
      skipRecord(session, { severity: 'warning', path, line: m.rowid, message: `messages row ${m.id} (rowid ${m.rowid}): parts is not a JSON array (${(e as Error).message}); the message is empty here` })
      parts = []
    }
    const at = crushMs(m.created_at)
    const role: MessageNode['role'] = m.role === 'user' || m.role === 'assistant' || m.role === 'tool' || m.role === 'system' ? m.role : 'system'
    if (role !== m.role) addDiagnostic(session, { severity: 'info', path, line: m.rowid, message: `messages row ${m.id}: unknown role "${m.role}", shown as system` })
    const base: MessageNode = { nodeId: m.id, role, content: '', ...(at !== undefined ? { createdAt: at } : {}) }
    if (m.model) base.model = m.model
    const metadata: Json = {}
    if (m.provider) metadata.provider = m.provider
    if (m.is_summary_message === 1) metadata.summary = true
    const finishedAt = crushMs(m.finished_at)
    if (finishedAt !== undefined) metadata.finishedAt = finishedAt
    const texts: string[] = []
    const blocks: ContentBlock[] = []
    const calls: ToolCall[] = []
    const results: MessageNode[] = []
    const after: MessageNode[] = []
    let thinking: string | undefined
    let signature: string | undefined
    parts.forEach((raw, i) => {
      const part = obj(raw)
      const type = str(part?.type) ?? '(no type)'
      const d = obj(part?.data) ?? {}
      switch (type) {
        case 'text': {
          const t = str(d.text) ?? ''
          texts.push(t)
          blocks.push({ type: 'text', text: t })
          return
        }
        case 'reasoning': {
          const t = str(d.thinking)
          if (t) thinking = thinking ? `${thinking}\n\n${t}` : t
          const sig = str(d.signature) || str(d.thought_signature)
          if (sig) signature = sig
          return
        }
        case 'image_url':
          blocks.push({ type: 'image', ...(str(d.url) ? { uri: str(d.url) } : {}) })
          return
        case 'binary': {
          const mime = str(d.MIMEType) ?? str(d.mime_type)
          const data = str(d.Data) ?? str(d.data)
          const p = str(d.Path) ?? str(d.path)
          if (mime?.startsWith('image/')) blocks.push({ type: 'image', mediaType: mime, ...(data ? { data } : {}), ...(p ? { uri: p } : {}) })
          else blocks.push({ type: 'file', ...(p ? { path: p } : {}), ...(mime ? { mediaType: mime } : {}) })
          return
        }
        case 'tool_call': {
          const id = str(d.id) ?? `${m.id}:call${i}`
          const name = str(d.name) ?? '(unnamed)'
          const call: ToolCall = { id, name, kind: kindOf(name), arguments: jsonOr(str(d.input)) ?? {} }
          if (d.finished === false) call.status = 'in_progress'
          if (d.provider_executed === true) call.metadata = { providerExecuted: true }
          if (childSet.has(`${m.id}$$${id}`)) call.subagentSessionId = `${m.id}$$${id}`
          calls.push(call)
          return
        }
        case 'tool_result': {
          const callId = str(d.tool_call_id)
          const n: MessageNode = { nodeId: results.length ? `${m.id}:${i}` : m.id, role: 'tool', content: str(d.content) ?? '', ...(at !== undefined ? { createdAt: at } : {}) }
          if (callId) n.toolCallId = callId
          if (str(d.name)) n.toolName = str(d.name)
          if (d.is_error === true) n.isError = true
          const md = jsonOr(str(d.metadata))
          if (md !== undefined && md !== '') n.metadata = { crushMetadata: md }
          if (str(d.mime_type) && str(d.data)) n.blocks = [{ type: 'text', text: n.content }, { type: 'image', mediaType: str(d.mime_type), data: str(d.data) }]
          results.push(n)
          return
        }
        case 'finish': {
          const reason = str(d.reason)
          if (reason) base.finishReason = reason
          const t = crushMs(d.time)
          const msg = [str(d.message), str(d.details)].filter((x) => x).join('\n')
          const marker = (event: MessageNode['event'], content: string): void => {
            after.push({ nodeId: `${m.id}:finish`, role: 'system', event, content, ...(t !== undefined ? { createdAt: t } : {}), metadata: { finishReason: reason } })
          }
          if (reason === 'error') marker('api-error', errorLine(str(d.message), str(d.details)) ?? (msg || 'The request failed'))
          else if (reason === 'canceled') marker('interrupted', msg || 'Canceled')
          else if (reason === 'permission_denied') marker('notice', msg || 'Permission denied')
          return
        }
        case 'shell_command': {
          const cmd = str(d.command) ?? ''
          after.push({ nodeId: `${m.id}:shell${i}`, role: 'system', event: 'command', content: `!${cmd}${str(d.output) ? ` → ${str(d.output)!.split('\n')[0]}` : ''}`, metadata: { command: cmd, output: d.output, exitCode: d.exit_code } })
          return
        }
        default:
          addDiagnostic(session, { severity: 'info', path, line: m.rowid, message: `messages row ${m.id}: part type "${type}" is not read; kept as an unknown block` })
          blocks.push({ type: 'unknown', originalType: type, raw })
      }
    })
    const shellOnly = role === 'user' && parts.length > 0 && parts.every((x) => str(obj(x)?.type) === 'shell_command')
    if (m.is_summary_message === 1) {
      base.role = 'system'
      base.event = 'compaction'
    }
    if (shellOnly) {
      // only the command nodes below
    } else if (role === 'tool' && results.length) {
      for (const r of results) {
        if (m.provider) r.metadata = { ...r.metadata, provider: m.provider }
        push(r)
      }
    } else {
      base.content = texts.join('\n\n')
      if (blocks.some((b) => b.type !== 'text')) base.blocks = blocks
      if (calls.length) base.toolCalls = calls
      if (thinking) base.thinking = thinking
      if (signature) base.thinkingSignature = signature
      if (Object.keys(metadata).length) base.metadata = metadata
      push(base)
      for (const r of results) push(r)
    }
    for (const a of after) push(a)
  }
  sessionUsageOnLastAssistant(session)
  return finishSession(session)
}
