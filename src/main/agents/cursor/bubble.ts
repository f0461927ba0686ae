/**
 * One Cursor IDE bubble → IR nodes. A bubble is one message of a composer (`bubbleId:<composer>:<bubble>`
 * rows, inline `conversation[]` entries), a legacy chat-pane bubble, or a `conversation.messages[]`
 * entry; all go through here.
 *
 * Facts (shared/formats/cursor-devin-atif-acp.md §A5.1, §A5.3, §A5.3.1, §F4–§F10):
 * - `type` 1 = user, 2 = assistant (composer bubbles); `"user"`/`"ai"` strings in the chat pane;
 *   `role` in `conversation.messages[]` (fixtures/public/cursor/luoyuctl__agenttrace__cursor-composer-messages.json).
 * - Text: `text`, else `richText` (Lexical JSON), else `rawText`, `delegate.a`, `initText`, or
 *   `content[].text`. Assistant bubbles with empty text carry `thinking{text,signature?}`, a
 *   `toolFormerData` tool call, or `codeBlocks[{content, languageId}]` (not always an array).
 * - Times: `createdAt` (ISO ≥ Sep 2025, sometimes ms), else the header's `createdAt`, else
 *   `timingInfo.clientRpcSendTime` (ms epoch); never `clientStartTime` (process-relative), never "now".
 * - `tokenCount{inputTokens,outputTokens}` is 0/0 on almost every bubble: 0/0 means unknown (no
 *   usage). Cursor does not split cache reads out of `inputTokens`; the number is kept as recorded.
 * - `modelInfo.modelName` (rare), `modelType` (chat pane); `requestId`.
 */
import type { ContentBlock, MessageNode, Usage } from '../../../shared/ir'
import { arr, type Json, jsonOrRaw, num, obj, str, text, toMs } from './common/json'
import { lexicalText } from './common/lexical'
import { makeToolCall } from './common/tools'

/** Where a bubble sits: its fallback id and the header that listed it. */
export interface BubbleContext {
  /** Node id to use when the bubble has no `bubbleId`/`id`. */
  fallbackId: string
  /** The `fullConversationHeadersOnly` entry, when the bubble came from one. */
  header?: Json
}

const STATUS: Record<string, 'pending' | 'in_progress' | 'completed' | 'failed'> = {
  completed: 'completed',
  error: 'failed',
  cancelled: 'failed',
  loading: 'in_progress',
  running: 'in_progress',
  pending: 'pending',
  submitted: 'pending',
}

/** Bubble fields kept in node metadata when present (small, useful, no IR home). */
const KEEP = ['serverBubbleId', 'capabilityType', 'unifiedMode', 'isThought', 'thinkingDurationMs', 'errorDetails', 'retryAttempt', 'isRefunded', 'usageUuid', 'checkpointId', 'todos', 'selections'] as const

/** `user`, `assistant` or undefined for an unknown bubble type. */
export function bubbleRole(b: Json): 'user' | 'assistant' | undefined {
  const t = b.type ?? b.role
  if (t === 1 || t === 'user') return 'user'
  if (t === 2 || t === 'ai' || t === 'assistant') return 'assistant'
  return undefined
}

/** Joined `text` of a `content[]` list (strings or `{text}` parts). */
function partsText(value: unknown): string | undefined {
  if (typeof value === 'string') return text(value)
  const parts = (arr(value) ?? []).map((p) => (typeof p === 'string' ? p : str(obj(p)?.text))).filter((x): x is string => !!x && x.trim() !== '')
  return parts.length ? parts.join('\n\n') : undefined
}

function userText(b: Json): string | undefined {
  return text(b.text) ?? lexicalText(b.richText) ?? text(b.rawText) ?? text(obj(b.delegate)?.a) ?? lexicalText(b.initText) ?? partsText(b.content)
}

function codeBlocksText(value: unknown): string | undefined {
  const blocks = (arr(value) ?? []).map(obj).filter((c): c is Json => !!c && typeof c.content === 'string')
  if (!blocks.length) return undefined
  return blocks.map((c) => '```' + (str(c.languageId) ?? '') + '\n' + (c.content as string) + '\n```').join('\n\n')
}

function assistantText(b: Json): string | undefined {
  return text(b.text) ?? text(b.rawText) ?? partsText(b.content) ?? codeBlocksText(b.codeBlocks)
}

/** The bubble's time, ms since epoch (see the file docstring for the order). */
export function bubbleTime(b: Json, header?: Json): number | undefined {
  return toMs(b.createdAt) ?? toMs(header?.createdAt) ?? toMs(obj(b.timingInfo)?.clientRpcSendTime) ?? toMs(b.timestamp)
}

function usage(b: Json): Usage | undefined {
  const tc = obj(b.tokenCount)
  const input = num(tc?.inputTokens)
  const output = num(tc?.outputTokens)
  if (!input && !output) return undefined
  const u: Usage = {}
  if (input !== undefined) u.inputTokens = input
  if (output !== undefined) u.outputTokens = output
  return u
}

function thinking(b: Json, node: MessageNode): void {
  const t = obj(b.thinking)
  const blocks = (arr(b.allThinkingBlocks) ?? []).map(obj).filter((x): x is Json => !!x)
  const texts = [str(t?.text), ...blocks.map((x) => str(x.text) ?? str(obj(x.thinking)?.text))].filter((x): x is string => !!x && x.trim() !== '')
  if (texts.length) node.thinking = texts.join('\n\n')
  const sigs = [str(t?.signature), ...blocks.map((x) => str(x.signature))].filter((x): x is string => !!x)
  if (sigs.length) node.thinkingSignature = sigs[sigs.length - 1]!
}

/** The text projection of a tool result (`output`, `contents`, `markdown`, nested `result`, else JSON). */
function resultText(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value
  const o = obj(value)
  if (o && depth < 3) {
    for (const k of ['output', 'contents', 'markdown'] as const) if (typeof o[k] === 'string') return o[k] as string
    if (typeof o.result === 'string') return resultText(jsonOrRaw(o.result), depth + 1)
  }
  return JSON.stringify(value)
}

/** `toolFormerData` → a call on `node` and, when a result is recorded, a `tool` node. */
function toolNodes(tfd: Json, node: MessageNode, bubbleId: string): MessageNode | undefined {
  const id = str(tfd.toolCallId) ?? `${bubbleId}:tool`
  const name = text(tfd.name) ?? (num(tfd.tool) !== undefined ? `tool-${tfd.tool as number}` : 'unknown')
  const rawArgs = tfd.rawArgs
  const params = tfd.params
  const args = text(rawArgs) ? jsonOrRaw(rawArgs as string) : obj(rawArgs) ? rawArgs : text(params) ? jsonOrRaw(params as string) : (obj(params) ?? null)
  const call = makeToolCall(id, name, args)
  const status = str(tfd.status)
  const additional = obj(tfd.additionalData)
  const decision = str(tfd.userDecision) ?? str(additional?.userDecision)
  if (status !== undefined && STATUS[status]) call.status = STATUS[status]
  const raw = tfd.result
  const parsed = typeof raw === 'string' ? (raw.trim() === '' ? undefined : jsonOrRaw(raw)) : raw === null ? undefined : raw
  const exit = num(obj(parsed)?.exitCodeV2) ?? num(obj(parsed)?.exitCode)
  if (exit !== undefined) call.exitCode = exit
  node.toolCalls = [...(node.toolCalls ?? []), call]
  const meta: Json = { ...node.metadata }
  if (status !== undefined) meta.toolStatus = status
  if (decision !== undefined) meta.userDecision = decision
  if (num(tfd.tool) !== undefined) meta.toolEnum = tfd.tool
  const child = additional?.composerData
  const childDoc = typeof child === 'string' ? obj(jsonOrRaw(child)) : obj(child)
  const childId = str(childDoc?.composerId) ?? str(obj(typeof params === 'string' ? jsonOrRaw(params) : params)?.subagentComposerId)
  if (childId) meta.subagentComposerId = childId
  node.metadata = meta
  if (parsed === undefined) return undefined
  const result: MessageNode = { nodeId: `${bubbleId}:result`, role: 'tool', content: resultText(parsed), toolCallId: id, toolName: name }
  if (status === 'error') result.isError = true
  if (typeof raw === 'string' && typeof parsed === 'string' && raw.trim().startsWith('{')) result.metadata = { resultNotJson: true }
  return result
}

/** Image blocks for bubble `images[]` entries that name a path or URI. */
function images(b: Json): ContentBlock[] {
  const list = [...(arr(b.images) ?? []), ...(obj(b.image) ? [b.image] : [])]
  const out: ContentBlock[] = []
  for (const i of list) {
    const o = obj(i)
    const uri = str(o?.path) ?? str(o?.uri) ?? str(obj(o?.uri)?.fsPath)
    if (uri) out.push({ type: 'image', uri })
  }
  return out
}

/**
 * The nodes of one bubble: a user or assistant node, plus a `tool` result node for a tool bubble.
 * An unknown type with text becomes an `unknown-event` node; a bubble with nothing to show gives
 * no node. Never throws.
 */
export function bubbleToNodes(b: Json, ctx: BubbleContext): MessageNode[] {
  const bubbleId = text(b.bubbleId) ?? text(b.id) ?? ctx.fallbackId
  const role = bubbleRole(b)
  const content = role === 'user' ? userText(b) : role === 'assistant' ? assistantText(b) : (userText(b) ?? assistantText(b))
  const node: MessageNode = { nodeId: bubbleId, role: role ?? 'assistant', content: content ?? '' }
  if (role === undefined) {
    if (content === undefined) return []
    node.event = 'unknown-event'
    node.metadata = { bubbleType: b.type ?? b.role ?? null }
  }
  const blocks = images(b)
  if (blocks.length) node.blocks = content ? [{ type: 'text', text: content }, ...blocks] : blocks
  const at = bubbleTime(b, ctx.header)
  if (at !== undefined) node.createdAt = at
  const model = text(obj(b.modelInfo)?.modelName) ?? text(b.modelType)
  if (model !== undefined && role === 'assistant') node.model = model
  const requestId = text(b.requestId)
  if (requestId !== undefined) node.requestId = requestId
  const u = usage(b)
  if (u) node.usage = u
  const meta: Json = { ...node.metadata }
  for (const k of KEEP) if (b[k] !== undefined && b[k] !== null && b[k] !== '') meta[k] = b[k]
  if (Object.keys(meta).length) node.metadata = meta
  const out = [node]
  if (role === 'assistant') {
    thinking(b, node)
    const tfd = obj(b.toolFormerData)
    if (tfd) {
      const result = toolNodes(tfd, node, bubbleId)
      if (result) {
        result.parentNodeId = node.nodeId
        if (at !== undefined) result.createdAt = at
        out.push(result)
      }
    }
  }
  const empty = node.content === '' && !node.blocks && !node.thinking && !node.thinkingSignature && !node.toolCalls
  return empty ? [] : out
}
