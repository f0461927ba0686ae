/**
 * One Cursor agent message (a `store.db` leaf or a transcript line's `{role, message:{content}}`)
 * → IR nodes.
 *
 * - `system` → a hidden (`isMeta`) system node.
 * - `user` → the typed prompt with `<user_query>` and a leading `<timestamp>` stripped; injected
 *   context parts (`<user_info>`, `<system_reminder>`, `<rules>`, `<git_status>`,
 *   `<agent_transcripts>`) → a separate hidden node; `providerOptions.cursor.isSummary` → a
 *   `compaction` event (shared/formats/cursor-devin-atif-acp.md §B3, §F25, §F26).
 * - `assistant` → text, reasoning (`thinking`; opaque `signature`/`redacted-reasoning.data` →
 *   `thinkingSignature`, last one wins), tool calls (AI SDK `tool-call`, transcript `tool_use`,
 *   OpenAI `tool_calls[].function`), model/request id from `providerOptions.cursor`.
 * - `tool` → one `tool` node per `tool-result` (or OpenAI `tool_call_id`), paired by id only;
 *   `providerOptions.cursor.highLevelToolCallResult.output` gives duration, exit code, error.
 * - Any other role → a diagnostic for the caller, and an `unknown-event` node when it has text.
 * No message carries a time or token usage in these stores (§B3 "No per-message timestamps").
 */
import type { ContentBlock, MessageNode } from '../../../shared/ir'
import { isInjectedContext, unwrapUserQuery } from '../cursor/common/context'
import { arr, type Json, jsonOrRaw, num, obj, str, text } from '../cursor/common/json'
import { makeToolCall } from '../cursor/common/tools'
import { imageBlock, joinText, partsOf, reasoningSeal, resultText, thinkingText } from './parts'

/** What {@link messageNodes} made of one message. */
export interface Converted {
  nodes: MessageNode[]
  /** A problem to report (unknown role), when any. */
  problem?: string
  /** True when the message held nothing to show (empty prompt/answer). */
  empty?: boolean
}

/** Makes an id for a tool call the store recorded without one (transcripts). */
export type ToolIdMaker = (index: number) => string

function cursorOptions(x: Json | undefined): Json | undefined {
  return obj(obj(x?.providerOptions)?.cursor)
}

function withBlocks(node: MessageNode, blocks: ContentBlock[]): void {
  if (!blocks.length) return
  node.blocks = node.content ? [{ type: 'text', text: node.content }, ...blocks] : blocks
}

function userNodes(id: string, m: Json, parts: Json[]): Converted {
  const context: string[] = []
  const query: string[] = []
  const blocks: ContentBlock[] = []
  const meta: Json = {}
  const addQuery = (t: string) => {
    const q = unwrapUserQuery(t)
    if (q.timestamp !== undefined) meta.timestamp = q.timestamp
    if (q.outside !== undefined) meta.wrapperText = q.outside
    if (q.text.trim() !== '') query.push(q.text)
  }
  for (const p of parts) {
    if (p.type === 'image' || (p.type === 'file' && /^image\//.test(str(p.mimeType) ?? str(p.mediaType) ?? ''))) {
      const b = imageBlock(p)
      if (b) blocks.push(b)
      continue
    }
    const t = str(p.text)
    if (t === undefined) continue
    const at = t.indexOf('<user_query>')
    if (isInjectedContext(t)) {
      if (at > 0) {
        context.push(t.slice(0, at).trim())
        addQuery(t.slice(at))
      } else context.push(t)
    } else addQuery(t)
  }
  const opts = cursorOptions(m)
  const nodes: MessageNode[] = []
  const hasPrompt = query.length > 0 || blocks.length > 0
  if (context.length) nodes.push({ nodeId: hasPrompt ? `${id}:context` : id, role: 'user', content: context.join('\n\n'), isMeta: true })
  if (hasPrompt) {
    const node: MessageNode = { nodeId: id, role: 'user', content: query.join('\n\n') }
    withBlocks(node, blocks)
    const requestId = text(opts?.requestId)
    if (requestId !== undefined) node.requestId = requestId
    if (opts?.isSummary === true) node.event = 'compaction'
    if (Object.keys(meta).length) node.metadata = meta
    nodes.push(node)
  }
  return nodes.length ? { nodes } : { nodes, empty: true }
}

function assistantNode(id: string, m: Json, parts: Json[], toolId: ToolIdMaker): Converted {
  const node: MessageNode = { nodeId: id, role: 'assistant', content: joinText(parts) }
  const thoughts: string[] = []
  const blocks: ContentBlock[] = []
  const calls = node.toolCalls ?? []
  let model = text(cursorOptions(m)?.modelName)
  let requestId = text(cursorOptions(m)?.requestId)
  parts.forEach((p, i) => {
    const type = str(p.type)
    if (type === 'reasoning' || type === 'thinking' || type === 'redacted-reasoning' || type === 'redacted_thinking') {
      const t = thinkingText(p)
      if (t !== undefined && t !== '[REDACTED]') thoughts.push(t)
      const seal = reasoningSeal(p)
      if (seal !== undefined) node.thinkingSignature = seal
      if (type.startsWith('redacted')) node.metadata = { ...node.metadata, thinkingRedacted: true }
    } else if (type === 'tool-call' || type === 'tool_use') {
      const raw = p.args ?? p.input
      const args = typeof raw === 'string' ? jsonOrRaw(raw) : (raw ?? null)
      calls.push(makeToolCall(str(p.toolCallId) ?? str(p.id) ?? toolId(i), str(p.toolName) ?? str(p.name) ?? 'unknown', args))
      model ??= text(cursorOptions(p)?.modelName)
      requestId ??= text(cursorOptions(p)?.requestId)
    } else if (type === 'image') {
      const b = imageBlock(p)
      if (b) blocks.push(b)
    }
  })
  for (const [i, tc] of (arr(m.tool_calls) ?? []).entries()) {
    const t = obj(tc)
    const fn = obj(t?.function)
    const raw = fn?.arguments
    calls.push(makeToolCall(str(t?.id) ?? toolId(parts.length + i), str(fn?.name) ?? 'unknown', typeof raw === 'string' ? jsonOrRaw(raw) : (raw ?? null)))
  }
  if (calls.length) node.toolCalls = calls
  if (thoughts.length) node.thinking = thoughts.join('\n\n')
  withBlocks(node, blocks)
  if (model !== undefined) node.model = model
  if (requestId !== undefined) node.requestId = requestId
  const empty = node.content === '' && !node.toolCalls && !node.thinking && !node.thinkingSignature && !node.blocks
  return empty ? { nodes: [], empty: true } : { nodes: [node] }
}

function toolNodes(id: string, m: Json, parts: Json[]): Converted {
  const nodes: MessageNode[] = []
  for (const p of parts.filter((x) => x.type === 'tool-result')) {
    const callId = str(p.toolCallId) ?? ''
    const r = resultText(p.result ?? p.output ?? p.experimental_content)
    const node: MessageNode = { nodeId: `${id}:${callId}`, role: 'tool', content: r.text, toolCallId: callId }
    const name = str(p.toolName)
    if (name !== undefined) node.toolName = name
    if (p.isError === true || r.isError) node.isError = true
    nodes.push(node)
  }
  const legacyId = str(m.tool_call_id)
  if (legacyId !== undefined) nodes.push({ nodeId: `${id}:${legacyId}`, role: 'tool', content: resultText(m.content).text, toolCallId: legacyId })
  const out = obj(obj(cursorOptions(m)?.highLevelToolCallResult)?.output)
  const only = nodes.length === 1 ? nodes[0] : undefined
  if (out && only) {
    const success = obj(out.success)
    const meta: Json = {}
    const ms = num(success?.executionTime) ?? num(success?.localExecutionTimeMs)
    if (ms !== undefined) meta.durationMs = ms
    const exit = num(success?.exitCode)
    if (exit !== undefined) meta.exitCode = exit
    if (out.isError === true || out.error !== undefined) only.isError = true
    if (Object.keys(meta).length) only.metadata = meta
  }
  return { nodes }
}

/**
 * The nodes of one message `m` (node id `id`, or `id:<suffix>` for extra nodes). `toolId` names
 * tool calls that have no id. Never throws.
 */
export function messageNodes(id: string, m: Json, toolId: ToolIdMaker): Converted {
  const role = str(m.role)
  const parts = partsOf(m.content)
  if (role === 'system') {
    const content = joinText(parts)
    return content ? { nodes: [{ nodeId: id, role: 'system', content, isMeta: true }] } : { nodes: [], empty: true }
  }
  if (role === 'user') return userNodes(id, m, parts)
  if (role === 'assistant') return assistantNode(id, m, parts, toolId)
  if (role === 'tool') return toolNodes(id, m, parts)
  const content = joinText(parts)
  const problem = `message has role "${role ?? '(none)'}", which this reader does not know`
  if (!content) return { nodes: [], problem }
  return { nodes: [{ nodeId: id, role: 'assistant', content, event: 'unknown-event', metadata: { role: role ?? null } }], problem }
}

/** Copy durations and exit codes recorded on result nodes onto their calls. */
export function finishCalls(nodes: MessageNode[]): void {
  const byId = new Map(nodes.filter((n) => n.role === 'tool' && n.toolCallId).map((n) => [n.toolCallId!, n]))
  for (const n of nodes) {
    for (const call of n.toolCalls ?? []) {
      const meta = byId.get(call.id)?.metadata
      if (typeof meta?.durationMs === 'number') call.durationMs = meta.durationMs
      if (typeof meta?.exitCode === 'number') call.exitCode = meta.exitCode
    }
  }
}
