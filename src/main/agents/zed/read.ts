/**
 * Read one Zed agent thread (a `threads` row) into the IR. Format facts from Zed's source,
 * github:zed-industries/zed:
 * - `crates/agent/src/db.rs` (0642ec7e49e2d2c06f55db8c5bb2d4eca0f5223b) `DbThread::from_json`:
 *   `version` `"0.3.0"` is the current `DbThread { title, messages, updated_at, detailed_summary,
 *   cumulative_token_usage, request_token_usage (by user message id), model {provider, model},
 *   profile, imported, subagent_context {parent_thread_id, ...}, thinking_enabled, ... }`; every
 *   other version, or none, is an agent-1 thread and goes through `upgrade_from_agent_1`.
 * - `crates/agent/src/thread.rs` `Message` (serde's external tagging): `{"User": {id, content}}`,
 *   `{"Agent": {content, tool_results, reasoning_details}}` or the string `"Resume"` (Zed sends
 *   "Continue where you left off" for it). `UserMessageContent`: `{"Text": s}`,
 *   `{"Mention": {uri, content}}`, `{"Image": {source (base64), size}}`. `AgentMessageContent`:
 *   `{"Text": s}`, `{"Thinking": {text, signature}}`, `{"RedactedThinking": s}`,
 *   `{"ToolUse": {id, name, raw_input, input, is_input_complete, thought_signature}}`.
 *   `tool_results` maps a tool use id to `{tool_use_id, tool_name, is_error, content, output}`;
 *   `content` is `{"Text": s}`, `{"Image": ...}` or a plain string (language_model's lenient
 *   deserializer).
 * - `crates/agent/src/legacy_thread.rs` (4410b97021c7c3c6bb81d744c55ddd8866cffa7f)
 *   `SerializedThread::from_json`: `"0.2.0"` `{summary, updated_at, messages: [{id, role
 *   (user|assistant|system), segments: [{type: text|thinking|RedactedThinking}], tool_uses [{id,
 *   name, input}], tool_results [{tool_use_id, is_error, content, output}], context}],
 *   cumulative_token_usage, request_token_usage (by message index), detailed_summary_state,
 *   model, profile}`; `"0.1.0"` had each assistant's tool results in the next user message
 *   (`SerializedThreadV0_1_0::upgrade` moves them back); no version is `LegacySerializedThread`
 *   (messages with one `text`). A user message with no segments shows its `context` (as Zed
 *   does). Zed drops `system` messages when upgrading; Sepia keeps them, marked `isMeta`.
 * - `TokenUsage`: `{input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens}`.
 * Messages carry no times; the row's `created_at`/`updated_at` (RFC 3339) date the session.
 * A row whose data does not decompress or parse is an error diagnostic on an empty session.
 */
import { SepiaError } from '../../../shared/api'
import type { ContentBlock, MessageNode, Session, ToolCall, Usage } from '../../../shared/ir'
import { addDiagnostic, finishSession, newSession, skipRecord } from '../../ir/build'
import { toolKind } from '../../ir/toolkind'
import type { ReadContext, StoreRef } from '../types'
import { folderPaths, threadJson, threadRow, withZedDb, zedMs, type ZedThreadRow } from './db'

/** The `DbThread` version this reader models as current (`DbThread::VERSION`). */
export const CURRENT_VERSION = '0.3.0'
/** Agent-1 versions `SerializedThread::from_json` accepts (plus no version at all). */
export const LEGACY_VERSIONS = ['0.2.0', '0.1.0'] as const

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** ACP kinds of Zed's built-in tool names (`crates/agent/src/tools`); others go through the shared table. */
const ZED_KINDS: Record<string, ToolCall['kind']> = {
  read_file: 'read', list_directory: 'read', find_path: 'search', grep: 'search', edit_file: 'edit', create_directory: 'edit',
  copy_path: 'edit', move_path: 'move', delete_path: 'delete', terminal: 'execute', fetch: 'fetch', web_search: 'fetch',
  thinking: 'think', diagnostics: 'read', now: 'other', open: 'other', save_file: 'edit', restore_file_from_disk: 'edit',
}
const kindOf = (name: string): ToolCall['kind'] => ZED_KINDS[name] ?? toolKind(name)

/** `TokenUsage` to IR usage; undefined when absent or all zero. */
function usageOf(v: unknown): Usage | undefined {
  const u = obj(v)
  if (!u) return undefined
  const out: Usage = {}
  const n = (k: string): number | undefined => (typeof u[k] === 'number' ? (u[k] as number) : undefined)
  if (n('input_tokens')) out.inputTokens = n('input_tokens')
  if (n('output_tokens')) out.outputTokens = n('output_tokens')
  if (n('cache_read_input_tokens')) out.cacheReadTokens = n('cache_read_input_tokens')
  if (n('cache_creation_input_tokens')) out.cacheWriteTokens = n('cache_creation_input_tokens')
  return Object.keys(out).length ? out : undefined
}

/** Text of a tool result `content` (`{"Text": s}`, `{type: "text", text}`, a string); images give a block. */
function resultContent(v: unknown): { text: string; blocks?: ContentBlock[] } {
  if (typeof v === 'string') return { text: v }
  const o = obj(v)
  if (o && typeof o.Text === 'string') return { text: o.Text }
  if (o && o.type === 'text' && typeof o.text === 'string') return { text: o.text }
  const img = obj(o?.Image) ?? (o?.type === 'image' ? o : undefined)
  if (img) return { text: '', blocks: [{ type: 'image', ...(str(img.source) ? { data: str(img.source) } : {}) }] }
  return { text: v === undefined || v === null ? '' : JSON.stringify(v) }
}

/** A path named by a `MentionUri` value (`{"File": {abs_path}}`, `{"Symbol": {abs_path, ...}}`, ...). */
function mentionPath(uri: unknown): string | undefined {
  if (typeof uri === 'string') return uri
  const o = obj(uri)
  if (!o) return undefined
  if (str(o.abs_path)) return str(o.abs_path)
  for (const v of Object.values(o)) {
    const inner = obj(v)
    if (inner && str(inner.abs_path)) return str(inner.abs_path)
    if (inner && str(inner.path)) return str(inner.path)
    if (inner && str(inner.url)) return str(inner.url)
  }
  return undefined
}

/** A tool node answering `callId`. */
function toolNode(nodeId: string, callId: string, name: string | undefined, isError: boolean, content: unknown, output: unknown): MessageNode {
  const c = resultContent(content)
  const n: MessageNode = { nodeId, role: 'tool', content: c.text, toolCallId: callId }
  if (name) n.toolName = name
  if (isError) n.isError = true
  if (c.blocks) n.blocks = [...(c.text ? [{ type: 'text' as const, text: c.text }] : []), ...c.blocks]
  if (output !== undefined && output !== null) n.metadata = { output }
  return n
}

/** Nodes of a current (0.3.0) thread's `messages`. `usageByUser` maps a user message id to its request usage. */
function currentNodes(session: Session, path: string, row: ZedThreadRow, messages: unknown[], usageByUser: Json): MessageNode[] {
  const out: MessageNode[] = []
  let lastUser: string | undefined
  const pendingUsage = new Map<string, Usage>()
  let lastAgentOfTurn: MessageNode | undefined
  const flushUsage = (): void => {
    if (lastUser && lastAgentOfTurn && pendingUsage.has(lastUser)) lastAgentOfTurn.usage = pendingUsage.get(lastUser)
  }
  messages.forEach((m, ix) => {
    const id = `${row.id}:${ix}`
    if (m === 'Resume') {
      out.push({ nodeId: id, role: 'user', content: 'Continue where you left off', isMeta: true, metadata: { zedResume: true } })
      return
    }
    const user = obj(obj(m)?.User)
    const agent = obj(obj(m)?.Agent)
    if (user) {
      flushUsage()
      lastAgentOfTurn = undefined
      const texts: string[] = []
      const blocks: ContentBlock[] = []
      for (const part of arr(user.content)) {
        const p = obj(part)
        if (p && typeof p.Text === 'string') {
          texts.push(p.Text)
          blocks.push({ type: 'text', text: p.Text })
        } else if (p && obj(p.Mention)) {
          const mention = obj(p.Mention)!
          const mp = mentionPath(mention.uri)
          blocks.push({ type: 'file', ...(mp ? { path: mp } : {}), ...(str(mention.content) ? { text: str(mention.content) } : {}) })
        } else if (p && obj(p.Image)) {
          const img = obj(p.Image)!
          blocks.push({ type: 'image', ...(str(img.source) ? { data: str(img.source) } : {}) })
        } else {
          addDiagnostic(session, { severity: 'info', path, line: row.rowid, message: `thread ${row.id} message ${ix}: user content ${JSON.stringify(part)?.slice(0, 60)} is not read; kept as an unknown block` })
          blocks.push({ type: 'unknown', originalType: p ? Object.keys(p)[0] ?? 'unknown' : typeof part, raw: part })
        }
      }
      const n: MessageNode = { nodeId: str(user.id) ?? id, role: 'user', content: texts.join('\n\n') }
      if (blocks.some((b) => b.type !== 'text')) n.blocks = blocks
      out.push(n)
      lastUser = str(user.id)
      const u = lastUser ? usageOf(usageByUser[lastUser]) : undefined
      if (lastUser && u) pendingUsage.set(lastUser, u)
      return
    }
    if (agent) {
      const texts: string[] = []
      const blocks: ContentBlock[] = []
      const calls: ToolCall[] = []
      const thinking: string[] = []
      let signature: string | undefined
      for (const part of arr(agent.content)) {
        const p = obj(part)
        if (p && typeof p.Text === 'string') {
          texts.push(p.Text)
          blocks.push({ type: 'text', text: p.Text })
        } else if (p && obj(p.Thinking)) {
          const t = obj(p.Thinking)!
          if (str(t.text)) thinking.push(str(t.text)!)
          if (str(t.signature)) signature = str(t.signature)
        } else if (p && typeof p.RedactedThinking === 'string') {
          blocks.push({ type: 'unknown', originalType: 'RedactedThinking', raw: { RedactedThinking: p.RedactedThinking } })
        } else if (p && obj(p.ToolUse)) {
          const t = obj(p.ToolUse)!
          const name = str(t.name) ?? '(unnamed)'
          const call: ToolCall = { id: str(t.id) ?? `${id}:call${calls.length}`, name, kind: kindOf(name), arguments: t.input ?? {} }
          if (t.is_input_complete === false) call.status = 'in_progress'
          if (str(t.thought_signature)) call.metadata = { thoughtSignature: str(t.thought_signature) }
          calls.push(call)
        } else if (p && obj(p.Image)) {
          blocks.push({ type: 'image', ...(str(obj(p.Image)!.source) ? { data: str(obj(p.Image)!.source) } : {}) })
        } else {
          addDiagnostic(session, { severity: 'info', path, line: row.rowid, message: `thread ${row.id} message ${ix}: agent content ${JSON.stringify(part)?.slice(0, 60)} is not read; kept as an unknown block` })
          blocks.push({ type: 'unknown', originalType: p ? Object.keys(p)[0] ?? 'unknown' : typeof part, raw: part })
        }
      }
      const n: MessageNode = { nodeId: id, role: 'assistant', content: texts.join('\n\n') }
      if (blocks.some((b) => b.type !== 'text')) n.blocks = blocks
      if (calls.length) n.toolCalls = calls
      if (thinking.length) n.thinking = thinking.join('\n\n')
      if (signature) n.thinkingSignature = signature
      if (agent.reasoning_details !== undefined && agent.reasoning_details !== null) n.metadata = { reasoningDetails: agent.reasoning_details }
      out.push(n)
      lastAgentOfTurn = n
      const results = obj(agent.tool_results) ?? {}
      let k = 0
      for (const [key, r] of Object.entries(results)) {
        const res = obj(r) ?? {}
        out.push(toolNode(`${id}:r${k++}`, str(res.tool_use_id) ?? key, str(res.tool_name), res.is_error === true, res.content, res.output))
      }
      return
    }
    skipRecord(session, { severity: 'warning', path, line: row.rowid, message: `thread ${row.id} message ${ix} is neither User, Agent nor Resume; not read` })
  })
  flushUsage()
  return out
}

/** `SerializedThreadV0_1_0::upgrade`: a user message holding tool results gives them to the assistant before it. */
function upgradeV010(messages: unknown[]): Json[] {
  const out: Json[] = []
  for (const raw of messages) {
    const m = obj(raw)
    if (!m) continue
    const last = out[out.length - 1]
    if (m.role === 'user' && arr(m.tool_results).length && last) {
      out[out.length - 1] = { ...last, tool_results: m.tool_results }
      continue
    }
    out.push(m)
  }
  return out
}

/** Nodes of an agent-1 thread (`SerializedThread` 0.2.0 after the upgrades of the module doc). */
function legacyNodes(session: Session, path: string, row: ZedThreadRow, messages: Json[], requestUsage: unknown[]): MessageNode[] {
  const out: MessageNode[] = []
  messages.forEach((m, ix) => {
    const id = `${row.id}:${ix}`
    // LegacySerializedThread: one `text` instead of segments.
    const segments = Array.isArray(m.segments) ? m.segments : typeof m.text === 'string' ? [{ type: 'text', text: m.text }] : []
    const role = m.role
    if (role !== 'user' && role !== 'assistant' && role !== 'system') {
      skipRecord(session, { severity: 'warning', path, line: row.rowid, message: `thread ${row.id} message ${ix}: unknown role ${JSON.stringify(role)}; not read` })
      return
    }
    const texts: string[] = []
    const blocks: ContentBlock[] = []
    const thinking: string[] = []
    let signature: string | undefined
    for (const s of segments) {
      const seg = obj(s) ?? {}
      if (seg.type === 'text' && typeof seg.text === 'string') {
        texts.push(seg.text)
        blocks.push({ type: 'text', text: seg.text })
      } else if (seg.type === 'thinking' && typeof seg.text === 'string') {
        // A user "thinking" segment becomes text (upgrade_from_agent_1).
        if (role === 'assistant') {
          thinking.push(seg.text)
          if (str(seg.signature)) signature = str(seg.signature)
        } else {
          texts.push(seg.text)
          blocks.push({ type: 'text', text: seg.text })
        }
      } else if (seg.type === 'RedactedThinking') {
        if (role === 'assistant') blocks.push({ type: 'unknown', originalType: 'RedactedThinking', raw: seg })
      } else {
        addDiagnostic(session, { severity: 'info', path, line: row.rowid, message: `thread ${row.id} message ${ix}: segment type ${JSON.stringify(seg.type)} is not read; kept as an unknown block` })
        blocks.push({ type: 'unknown', originalType: String(seg.type), raw: s })
      }
    }
    if (role === 'user' && !texts.length && str(m.context)) {
      texts.push(str(m.context)!)
      blocks.push({ type: 'text', text: str(m.context)! })
    }
    const n: MessageNode = { nodeId: id, role, content: texts.join('\n\n') }
    if (role === 'system' || m.is_hidden === true) n.isMeta = true
    if (blocks.some((b) => b.type !== 'text')) n.blocks = blocks
    if (typeof m.id === 'number') n.metadata = { zedMessageId: m.id }
    if (role === 'assistant') {
      if (thinking.length) n.thinking = thinking.join('\n\n')
      if (signature) n.thinkingSignature = signature
      const calls = arr(m.tool_uses).map((t, k): ToolCall => {
        const tu = obj(t) ?? {}
        const name = str(tu.name) ?? '(unnamed)'
        return { id: str(tu.id) ?? `${id}:call${k}`, name, kind: kindOf(name), arguments: tu.input ?? {} }
      })
      if (calls.length) n.toolCalls = calls
      const u = usageOf(requestUsage[ix])
      if (u) n.usage = u
    }
    out.push(n)
    if (role === 'assistant') {
      const names = new Map((n.toolCalls ?? []).map((c) => [c.id, c.name]))
      arr(m.tool_results).forEach((r, k) => {
        const res = obj(r) ?? {}
        const callId = str(res.tool_use_id) ?? `${id}:call${k}`
        out.push(toolNode(`${id}:r${k}`, callId, names.get(callId), res.is_error === true, res.content, res.output))
      })
    }
  })
  return out
}

/**
 * Read the thread `ref` names. Rejects with `READ_FAILED` when the database cannot be opened or
 * no longer holds the thread; bad data becomes diagnostics.
 */
export async function readZedThread(ref: StoreRef, _ctx: ReadContext): Promise<Session> {
  const path = ref.files[0]
  if (path === undefined) throw new SepiaError({ code: 'READ_FAILED', message: 'store ref lists no threads.db' })
  let row: ZedThreadRow | undefined
  try {
    row = withZedDb(path, (db) => threadRow(db, ref.sessionId))
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `cannot read ${path}: ${(e as Error).message}`, path })
  }
  if (!row) throw new SepiaError({ code: 'READ_FAILED', message: `${path} holds no thread ${ref.sessionId}`, path })
  const session = newSession('zed', ref.sessionId, ref.format, ref.files, ref.home)
  if (typeof row.summary === 'string' && row.summary) session.title = row.summary
  if (typeof row.parent_id === 'string' && row.parent_id) session.parentSessionId = row.parent_id
  const folders = folderPaths(row.folder_paths, row.folder_paths_order)
  if (folders[0]) session.workingDirectory = folders[0]
  if (folders.length > 1) session.metadata.folders = folders
  const created = zedMs(row.created_at)
  const updated = zedMs(row.updated_at)
  // A row from before the created_at column has none; Zed fills it with updated_at when it adds the column.
  if (created !== undefined || updated !== undefined) session.createdAt = created ?? updated
  if (updated !== undefined) session.lastActivityAt = updated
  if (typeof row.data_type === 'string') session.metadata.dataType = row.data_type

  let thread: Json
  try {
    const v = JSON.parse(threadJson(row.data_type, row.data)) as unknown
    if (!obj(v)) throw new Error('not a JSON object')
    thread = v as Json
  } catch (e) {
    addDiagnostic(session, { severity: 'error', path, line: row.rowid, message: `thread ${row.id} (rowid ${row.rowid}, data_type ${String(row.data_type)}): ${(e as Error).message}; its messages are not shown` })
    return finishSession(session)
  }
  const version = str(thread.version)
  if (version) session.metadata.zedThreadVersion = version
  const model = obj(thread.model)
  if (str(model?.model)) session.model = str(model!.model)
  if (str(model?.provider)) session.metadata.provider = str(model!.provider)
  if (str(thread.profile)) session.metadata.profile = str(thread.profile)
  const usage = usageOf(thread.cumulative_token_usage)
  if (usage) session.usage = usage
  if (!session.title) session.title = str(thread.title) ?? str(thread.summary)
  if (!session.title) delete session.title

  if (version === CURRENT_VERSION || (version !== undefined && !(LEGACY_VERSIONS as readonly string[]).includes(version) && arr(thread.messages).some((m) => m === 'Resume' || obj(m)?.User || obj(m)?.Agent))) {
    if (version !== CURRENT_VERSION) addDiagnostic(session, { severity: 'info', path, line: row.rowid, message: `thread ${row.id}: version "${version}" is newer than the ${CURRENT_VERSION} this reader knows; read as ${CURRENT_VERSION}` })
    const parent = str(obj(thread.subagent_context)?.parent_thread_id)
    if (parent && !session.parentSessionId) session.parentSessionId = parent
    if (str(thread.detailed_summary)) session.metadata.detailedSummary = str(thread.detailed_summary)
    if (thread.imported === true) session.metadata.imported = true
    if (thread.thinking_enabled === true) session.metadata.thinkingEnabled = true
    for (const n of chain(currentNodes(session, path, row, arr(thread.messages), obj(thread.request_token_usage) ?? {}))) session.nodes.push(n)
  } else {
    if (version !== undefined && !(LEGACY_VERSIONS as readonly string[]).includes(version)) {
      addDiagnostic(session, { severity: 'warning', path, line: row.rowid, message: `thread ${row.id}: unrecognized serialized thread version "${version}" (Zed refuses it too); read as ${LEGACY_VERSIONS[0]}` })
    }
    const raw = arr(thread.messages)
    const messages = version === '0.1.0' ? upgradeV010(raw) : raw.map((m) => obj(m) ?? {})
    const detailed = obj(obj(thread.detailed_summary_state)?.Generated)
    if (str(detailed?.text)) session.metadata.detailedSummary = str(detailed!.text)
    for (const n of chain(legacyNodes(session, path, row, messages, arr(thread.request_token_usage)))) session.nodes.push(n)
  }
  return finishSession(session)
}

/** Link nodes into one linear thread (each follows the one before). */
function chain(nodes: MessageNode[]): MessageNode[] {
  nodes.forEach((n, i) => {
    if (i > 0) n.parentNodeId = nodes[i - 1]!.nodeId
  })
  return nodes
}
