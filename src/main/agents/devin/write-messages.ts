/**
 * A prepared session's nodes as Devin `sessions.db` rows: the `message_nodes` chain, the
 * `tool_call_state` rows and the `prompt_history` rows. Pure (no I/O); `write.ts` inserts them.
 *
 * Shapes (`shared/formats/cursor-devin-atif-acp.md` C4 "`chat_message` JSON", C5, E; seed 002
 * "`chat_message` blob shape"):
 * - `chat_message` = `{message_id, role, content (string), tool_calls?, tool_call_id?, thinking?,
 *   metadata?}`; user rows carry `metadata.is_user_input: true` (rows without it are injected
 *   context, C4); assistant `tool_calls[]` = `{id, name, arguments, index, kind: "function"}`;
 *   a tool row carries `tool_call_id` and `extensions["chisel/tool_result_meta"] = {success, kind}`;
 *   `metadata.created_at` is RFC 3339;
 * - thinking `{thinking, signature}` only when the node keeps a signature (prepare.ts keeps it only
 *   for a Devin-sealed block; seed 002 "Devin writes thinking{thinking, signature}");
 * - images and files: ACP ContentBlocks in `extensions["chisel/acp-content-blocks"]` (seed 002
 *   "Attachments"), `content` keeps the text;
 * - usage: `metadata.metrics` (`input_tokens` excludes cache reads; C4);
 * - node `metadata` column: `{summarized_from, num_tokens_preceding, is_system_prefix}` (C4), all
 *   null: no node is a summary or a system prefix;
 * - every call gets an ACP ToolCall (`status: "pending"`, as at generation) in the assistant's
 *   `chisel/tool_call_content` and in `tool_call_state.tool_call_json`, and its final
 *   ToolCallUpdate (`completed` / `failed`) in `tool_call_update_json` (C5: the only reliable
 *   record of the outcome); `_meta` holds `cognition.ai/cwd` and `cognition.ai/inferenceToolName`.
 * - an assistant node keeps its parts' order (`partOrder`, issue 14): a `chat_message` is
 *   OpenAI-shaped (`content`, then `tool_calls`; C4), so [text, call, text] becomes an assistant row
 *   {text, [call]}, the call's tool row, then an assistant row {text} (`splitAssistantTurns`): a
 *   model turn after a tool result, as any other.
 * Each node is written once: Devin's rendered/unrendered twins (seed 002 "Format surprises") are
 * never produced (prepare.ts folded any the source had).
 */
import type { ContentBlock, MessageNode, ToolCall, ToolKind } from '../../../shared/ir'
import { splitAssistantTurns } from '../../convert-shared/part-order'
import { toolKind } from '../../ir/toolkind'

type Json = Record<string, unknown>

/** Row values of one `message_nodes` row (`session_id` is added by the writer). */
export interface NodeRowValues {
  node_id: number
  parent_node_id: number | null
  chat_message: string
  /** Unix seconds. */
  created_at: number
  metadata: string
}

/** Everything the rows need besides the nodes. */
export interface RowContext {
  cwd: string
  /** ms since epoch, used for nodes without a time (the previous node's time, else this). */
  startMs: number
  /** A fresh UUID per message (`message_id`). */
  newId(): string
}

/** The rows of one session. */
export interface DevinRows {
  nodes: NodeRowValues[]
  toolStates: { tool_call_id: string; tool_call_json: string; tool_call_update_json: string }[]
  prompts: { content: string; timestamp: number; is_shell: number }[]
  /** Node id of the last row (the chain head, `sessions.main_chain_id`), or null when empty. */
  head: number | null
  /** Time of the last node, ms. */
  lastMs: number
}

const NODE_META = JSON.stringify({ summarized_from: null, num_tokens_preceding: null, is_system_prefix: null })

/** ACP ToolKind of a Devin tool name (`exec` → execute, `grep`/`glob` → search...). */
export function devinKind(name: string): ToolKind {
  return toolKind(name)
}

/** ACP ContentBlocks for `chisel/acp-content-blocks` (ACP `image`, `resource`; E). */
function acpBlocks(blocks: ContentBlock[]): Json[] {
  const out: Json[] = []
  for (const b of blocks) {
    if (b.type === 'text') out.push({ type: 'text', text: b.text })
    else if (b.type === 'image') {
      const img: Json = { type: 'image', mimeType: b.mediaType ?? 'image/png' }
      if (b.data !== undefined) img.data = b.data
      if (b.uri !== undefined) img.uri = b.uri
      out.push(img)
    } else if (b.type === 'file') {
      const res: Json = { uri: b.path ?? 'attachment' }
      if (b.mediaType !== undefined) res.mimeType = b.mediaType
      if (b.text !== undefined) res.text = b.text
      out.push({ type: 'resource', resource: res })
    } else if (b.text) out.push({ type: 'text', text: b.text })
  }
  return out
}

const pathArg = (a: Json): string | undefined => (typeof a.file_path === 'string' ? a.file_path : typeof a.path === 'string' ? a.path : undefined)
const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

/** The ACP ToolCall of one call (C5, E), as generated: status pending. */
export function acpToolCall(call: ToolCall, cwd: string): Json {
  const args = (call.arguments && typeof call.arguments === 'object' && !Array.isArray(call.arguments) ? call.arguments : {}) as Json
  const path = pathArg(args)
  const kind = devinKind(call.name)
  const title =
    call.name === 'exec' && typeof args.command === 'string'
      ? `Ran ${clip(args.command)}`
      : call.name === 'edit' && path
        ? `Edit ${path}`
        : call.name === 'write' && path
          ? `Wrote ${path}`
          : call.name === 'read' && path
            ? `Read ${path}`
            : call.name
  const out: Json = { toolCallId: call.id, title, kind, status: 'pending', rawInput: args }
  if (path !== undefined) out.locations = [{ path }]
  out._meta = { 'cognition.ai/cwd': cwd, 'cognition.ai/inferenceToolName': call.name }
  return out
}

/** The final ACP ToolCallUpdate of one call: its outcome, and the diff of an edit or write (E). */
export function acpToolUpdate(call: ToolCall, failed: boolean): Json {
  const out: Json = { toolCallId: call.id, status: failed ? 'failed' : 'completed' }
  const a = (call.arguments ?? {}) as Json
  const path = pathArg(a)
  if (!failed && path && call.name === 'edit' && typeof a.new_string === 'string') {
    out.content = [{ type: 'diff', path, oldText: typeof a.old_string === 'string' ? a.old_string : null, newText: a.new_string }]
  } else if (!failed && path && call.name === 'write' && typeof a.content === 'string') {
    out.content = [{ type: 'diff', path, oldText: null, newText: a.content }]
  }
  out._meta = { 'cognition.ai/inferenceToolName': call.name }
  return out
}

/** Devin `metrics` from IR usage (C4 names), or undefined. */
function metricsOf(n: MessageNode): Json | undefined {
  const u = n.usage
  if (!u) return undefined
  const m: Json = {}
  if (u.inputTokens !== undefined) m.input_tokens = u.inputTokens
  if (u.outputTokens !== undefined) m.output_tokens = u.outputTokens
  if (u.cacheReadTokens !== undefined) m.cache_read_tokens = u.cacheReadTokens
  if (u.cacheWriteTokens !== undefined) m.cache_creation_tokens = u.cacheWriteTokens
  if (u.thinkingTokens !== undefined) m.reasoning_tokens = u.thinkingTokens
  return Object.keys(m).length ? m : undefined
}

/** The `chat_message` JSON of one node (see the module comment). */
export function chatMessage(n: MessageNode, messageId: string, atIso: string, cwd: string, calls: Map<string, ToolCall>): Json {
  const msg: Json = { message_id: messageId, role: n.role, content: n.content }
  const metadata: Json = { created_at: atIso }
  const extensions: Json = {}
  if (n.blocks?.some((b) => b.type !== 'text')) extensions['chisel/acp-content-blocks'] = acpBlocks(n.blocks)
  if (n.role === 'user') metadata.is_user_input = true
  if (n.role === 'assistant') {
    if (n.thinkingSignature !== undefined && n.metadata?.redactedThinking !== true) msg.thinking = { thinking: n.thinking ?? '', signature: n.thinkingSignature }
    if (n.toolCalls?.length) {
      msg.tool_calls = n.toolCalls.map((c, index) => ({ id: c.id, name: c.name, arguments: c.arguments ?? {}, index, kind: 'function' }))
      extensions['chisel/tool_call_content'] = Object.fromEntries(n.toolCalls.map((c) => [c.id, acpToolCall(c, cwd)]))
    }
    metadata.finish_reason = n.toolCalls?.length ? 'tool_calls' : 'stop' // Devin's values (seed 002: "tool_calls|stop")
    if (n.model !== undefined) metadata.generation_model = n.model
    if (n.requestId !== undefined) metadata.request_id = n.requestId
    const metrics = metricsOf(n)
    if (metrics) metadata.metrics = metrics
  }
  if (n.role === 'tool') {
    msg.tool_call_id = n.toolCallId ?? ''
    const call = n.toolCallId === undefined ? undefined : calls.get(n.toolCallId)
    extensions['chisel/tool_result_meta'] = { success: n.isError !== true, kind: devinKind(call?.name ?? n.toolName ?? '') }
  }
  if (Object.keys(extensions).length) metadata.extensions = extensions
  msg.metadata = metadata
  return msg
}

/** Build every row of `nodes` (a prepared, linear session; see the module comment). */
export function devinRows(prepared: MessageNode[], ctx: RowContext): DevinRows {
  // One row per model turn: `chat_message` holds `content`, then `tool_calls`, so text after a call
  // starts the next assistant row, after the results (see the module comment).
  const nodes = splitAssistantTurns(prepared)
  const out: DevinRows = { nodes: [], toolStates: [], prompts: [], head: null, lastMs: ctx.startMs }
  const calls = new Map<string, ToolCall>()
  const results = new Map<string, boolean>()
  for (const n of nodes) if (n.role === 'tool' && n.toolCallId !== undefined) results.set(n.toolCallId, n.isError === true)
  let at = ctx.startMs
  let parent: number | null = null
  nodes.forEach((n, i) => {
    at = Math.max(at, n.createdAt ?? at)
    const nodeId = i + 1
    for (const c of n.toolCalls ?? []) calls.set(c.id, c)
    const seconds = Math.floor(at / 1000)
    const msg = chatMessage(n, ctx.newId(), new Date(at).toISOString(), ctx.cwd, calls)
    out.nodes.push({ node_id: nodeId, parent_node_id: parent, chat_message: JSON.stringify(msg), created_at: seconds, metadata: NODE_META })
    if (n.role === 'user' && n.content.trim() !== '') out.prompts.push({ content: n.content, timestamp: seconds, is_shell: 0 })
    for (const c of n.toolCalls ?? []) {
      out.toolStates.push({
        tool_call_id: c.id,
        tool_call_json: JSON.stringify(acpToolCall(c, ctx.cwd)),
        tool_call_update_json: JSON.stringify(acpToolUpdate(c, results.get(c.id) === true)),
      })
    }
    parent = nodeId
  })
  out.head = parent
  out.lastMs = at
  return out
}
