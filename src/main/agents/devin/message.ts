/**
 * One Devin `chat_message` JSON blob (plus its row) → one IR {@link MessageNode}.
 *
 * Shapes (`shared/formats/cursor-devin-atif-acp.md` C4 "chat_message JSON"; seed 002 "`chat_message`
 * blob shape"): `{message_id, role, content (string), tool_calls?, tool_call_id?, thinking?,
 * metadata?}`; `metadata` holds `created_at` (RFC 3339), `is_user_input`, `request_id`,
 * `finish_reason`, `generation_model`, `metrics`, and `extensions` keyed `chisel/...`,
 * `affogato/...`, `subagent/...`, `compact/...`, `devin-rs/...`.
 *
 * Usage: `metrics.input_tokens` **excludes** cache reads (C4), so it maps to `inputTokens`
 * directly; `cache_read_tokens` → `cacheReadTokens`, `cache_creation_tokens` →
 * `cacheWriteTokens`. All-zero metrics mark an interrupted generation: no usage, `zeroMetrics`.
 */
import type { MessageNode, Role, ToolCall, Usage } from '../../../shared/ir'
import { toolKind } from '../../ir/toolkind'
import { acpBlocks, applyAcp } from './acp'
import type { NodeRow } from './db'
import { argumentsOf, arr, cellText, epochToMs, isoToMs, type Json, nonEmpty, num, obj, str } from './json'

const ROLES = new Set<Role>(['system', 'user', 'assistant', 'tool'])

/** Per-session facts a node needs. */
export interface MessageContext {
  /** True when some user row of the session carries `is_user_input` (then rows without it are injected context). */
  hasUserInputFlag: boolean
}

/** The `metadata.extensions` object of a chat message (or `{}`). */
export function extensionsOf(msg: Json): Json {
  return obj(obj(msg.metadata)?.extensions) ?? {}
}

/** Text of `content`: a string, or (lenient) an array of `{type:"text",text}` parts. */
function contentText(value: unknown): string {
  if (typeof value === 'string') return value
  const parts = (arr(value) ?? []).map((p) => (typeof p === 'string' ? p : str(obj(p)?.text))).filter((t): t is string => t !== undefined)
  return parts.join('\n\n')
}

/** Usage from Devin `metrics` (see the module doc), or undefined when absent or all zero. */
export function usageFromMetrics(metrics: Json | undefined): { usage?: Usage; zero: boolean } {
  if (!metrics) return { zero: false }
  const u: Usage = {}
  const set = (k: keyof Usage, v: unknown) => {
    const n = num(v)
    if (n !== undefined) u[k] = n
  }
  set('inputTokens', metrics.input_tokens)
  set('outputTokens', metrics.output_tokens)
  set('cacheReadTokens', metrics.cache_read_tokens)
  set('cacheWriteTokens', metrics.cache_creation_tokens)
  set('thinkingTokens', metrics.reasoning_tokens)
  const values = Object.values(u)
  if (values.length === 0) return { zero: false }
  if (values.every((v) => v === 0)) return { zero: true }
  return { usage: u, zero: false }
}

/** `tool_calls[]` → IR calls; `{id,name,arguments}` or OpenAI `{id,function:{name,arguments}}`. */
function toolCallsOf(msg: Json, ext: Json): ToolCall[] | undefined {
  const content = obj(ext['chisel/tool_call_content']) ?? {}
  const out: ToolCall[] = []
  ;(arr(msg.tool_calls) ?? []).forEach((item, i) => {
    const c = obj(item)
    if (!c) return
    const fn = obj(c.function)
    const name = str(c.name) ?? str(fn?.name) ?? 'unknown'
    const id = str(c.id) ?? `${name}#${i}`
    const call: ToolCall = { id, name, kind: toolKind(name), arguments: argumentsOf(c.arguments ?? fn?.arguments) }
    const acp = obj(content[id])
    if (acp) applyAcp(call, acp, false)
    out.push(call)
  })
  return out.length ? out : undefined
}

/** Thinking text and seal: `{thinking, signature}` object, a plain string, or the old `thinking` column. */
function thinkingOf(msg: Json, row: NodeRow): { text?: string; signature?: string; meta?: Json } {
  const t = msg.thinking ?? cellText(row.thinking)
  if (typeof t === 'string') return t.trim() ? { text: t } : {}
  const o = obj(t)
  if (!o) return {}
  const out: { text?: string; signature?: string; meta?: Json } = {}
  const text = str(o.thinking) ?? str(o.text)
  if (text?.trim()) out.text = text
  const sig = nonEmpty(o.signature)
  if (sig !== undefined) out.signature = sig
  if (str(o.signature_type)) out.meta = { thinkingSignatureType: o.signature_type }
  return out
}

/**
 * Build the node for one parsed row. `nodeMeta` is the row's `metadata` column (JSON object, or
 * undefined when `'null'`/absent). Never throws.
 */
export function buildNode(nodeId: number, msg: Json, row: NodeRow, nodeMeta: Json | undefined, ctx: MessageContext): MessageNode {
  const m = obj(msg.metadata) ?? {}
  const ext = extensionsOf(msg)
  const rawRole = str(msg.role)
  const role: Role = rawRole && ROLES.has(rawRole as Role) ? (rawRole as Role) : 'system'
  const node: MessageNode = { nodeId: String(nodeId), role, content: contentText(msg.content) }
  const meta: Json = {}
  const messageId = str(msg.message_id)
  if (messageId !== undefined) meta.messageId = messageId
  const at = isoToMs(m.created_at) ?? epochToMs(row.created_at)
  if (at !== undefined) node.createdAt = at
  const blocks = acpBlocks(ext['chisel/acp-content-blocks'])
  if (blocks?.some((b) => b.type !== 'text')) node.blocks = blocks

  if (!rawRole || !ROLES.has(rawRole as Role)) {
    node.event = 'unknown-event'
    meta.role = rawRole ?? null
  } else if (role === 'system') {
    node.isMeta = true
    if (nodeMeta?.is_system_prefix === true) meta.systemPrefix = true
    const cog = str(obj(ext['affogato/cog-context'])?.key)
    if (cog !== undefined) meta.cogContext = cog
  } else if (role === 'user') {
    const input = m.is_user_input
    if (input === false || (input !== true && ctx.hasUserInputFlag)) node.isMeta = true
    if (ext['subagent/handoff'] === true) meta.subagentHandoff = true
    const lead = str(ext['chisel/fusion_lead_model_uid'])
    if (lead !== undefined) meta.leadModel = lead
    if (ext['chisel/user_question_answers'] !== undefined) meta.userQuestionAnswers = true
  } else if (role === 'assistant') {
    const calls = toolCallsOf(msg, ext)
    if (calls) node.toolCalls = calls
    const th = thinkingOf(msg, row)
    if (th.text !== undefined) node.thinking = th.text
    if (th.signature !== undefined) node.thinkingSignature = th.signature
    Object.assign(meta, th.meta)
    const model = nonEmpty(m.generation_model)
    if (model !== undefined) node.model = model
    const req = nonEmpty(m.request_id)
    if (req !== undefined) node.requestId = req
    const fin = nonEmpty(m.finish_reason)
    if (fin !== undefined) node.finishReason = fin
    const metrics = obj(m.metrics) ?? obj(msg.metrics)
    const { usage, zero } = usageFromMetrics(metrics)
    if (usage) node.usage = usage
    if (zero) meta.zeroMetrics = true
    const ttft = num(metrics?.ttft_ms)
    if (ttft !== undefined) meta.ttftMs = ttft
    const total = num(metrics?.total_time_ms)
    if (total !== undefined) meta.totalTimeMs = total
  } else {
    toolResultFields(node, msg, ext, meta)
  }
  if (Object.keys(meta).length) node.metadata = meta
  return node
}

/** `role: "tool"` fields: call id, error flag, terminal cwd/terminal id, failure reason, sub-agent id. */
function toolResultFields(node: MessageNode, msg: Json, ext: Json, meta: Json): void {
  const callId = str(msg.tool_call_id)
  if (callId !== undefined) node.toolCallId = callId
  const name = nonEmpty(msg.name) ?? nonEmpty(msg.tool_name)
  if (name !== undefined) node.toolName = name
  const resultMeta = obj(ext['chisel/tool_result_meta'])
  const failure = obj(ext['chisel/tool_failure'])
  if (resultMeta?.success === false || failure) node.isError = true
  if (str(resultMeta?.kind)) meta.resultKind = resultMeta!.kind
  if (failure && str(failure.reason)) meta.failureReason = failure.reason
  const term = obj(ext['chisel/terminal_output'])
  if (str(term?.cwd)) meta.cwd = term!.cwd
  const tid = str(obj(term?.exit)?.terminal_id)
  if (tid !== undefined) meta.terminalId = tid
  const agentId = nonEmpty(ext['subagent/agent_id'])
  if (agentId !== undefined) meta.subagentAgentId = agentId
}

/** Facts a tool result row carries about its call: exit code and duration (ms). */
export function resultFacts(msg: Json): { exitCode?: number; durationMs?: number } {
  const ext = extensionsOf(msg)
  const out: { exitCode?: number; durationMs?: number } = {}
  const exit = num(obj(obj(ext['chisel/terminal_output'])?.exit)?.exit_code)
  if (exit !== undefined) out.exitCode = exit
  const timing = obj(ext['chisel/tool_call_timing'])
  const started = isoToMs(timing?.started_at)
  const finished = isoToMs(timing?.finished_at)
  const d = num(timing?.duration_ms) ?? (started !== undefined && finished !== undefined ? finished - started : undefined)
  if (d !== undefined) out.durationMs = d
  return out
}
