/**
 * Gemini CLI message records → IR nodes, in history order, chained by `parentNodeId`.
 *
 * Message shapes (google-gemini/gemini-cli packages/core/src/services/chatRecordingTypes.ts
 * `MessageRecord`, fixtures/real/gemini, Gemini CLI 0.61.0):
 * - `user`: `content` parts (text; `functionResponse` parts when it carries tool results, which
 *   the calling `gemini` message's `toolCalls[].result` already holds), optional `displayContent`
 *   (what the UI showed). The CLI's own `<session_context>` message is injected context.
 * - `gemini`: `content` (a string, or parts with `thought: true` text and `functionCall`s in the
 *   form sent to the model), `thoughts[{subject, description, timestamp}]`, `toolCalls[]`,
 *   `tokens{input, output, cached, thoughts, tool, total}` (Gemini usage metadata: `input` is
 *   `promptTokenCount`, which includes the cached tokens), `model`.
 * - `info` / `warning` / `error`: CLI notices → system nodes (errors visible, the others meta).
 */
import type { MessageNode, ToolCall, Usage } from '../../../shared/ir'
import type { ConversationLog, LoggedMessage } from './log'
import { sortParts, thoughtText } from './parts'
import { convertToolCall, makeCall, resultNode } from './tools'
import type { Json } from './values'
import { isoToMs, num, obj, str } from './values'

/**
 * Context messages the CLI injects as a `user` message (not the user's typing): the session
 * context, and the retry the CLI sends itself after an invalid stream (`[{ text: 'System: Please
 * continue.' }]`, gemini-cli packages/core/src/core/client.ts `sendMessageStream`; seen in
 * fixtures/public-real/gemini/entire-write-file).
 */
const INJECTED = [/^\s*<session_context>/, /^\s*This is the Gemini CLI\. We are setting up the context for our chat\./, /^System: Please continue\.\s*$/]

/** Counters the node builder keeps for session metadata. */
export interface NodeStats {
  /** `functionResponse` parts skipped because the call's result was already shown. */
  duplicateToolResults: number
  /** Messages of a type the reader does not model, by type. */
  unknownTypes: Record<string, number>
}

/**
 * Gemini `tokens` → IR usage. `inputTokens` = `input - cached` (the full-rate part; Gemini's
 * `promptTokenCount` includes cached tokens), `cacheReadTokens` = `cached`, `outputTokens` =
 * `output` (candidates, thoughts excluded), `thinkingTokens` = `thoughts`.
 */
export function usageOf(tokens: unknown): Usage | undefined {
  const t = obj(tokens)
  if (!t) return undefined
  const input = num(t.input)
  const cached = num(t.cached)
  const u: Usage = {}
  if (input !== undefined) u.inputTokens = Math.max(0, input - (cached ?? 0))
  if (num(t.output) !== undefined) u.outputTokens = num(t.output)!
  if (cached !== undefined) u.cacheReadTokens = cached
  if (num(t.thoughts) !== undefined) u.thinkingTokens = num(t.thoughts)!
  return Object.keys(u).length ? u : undefined
}

/** Builds nodes for the messages of one log; remembers which calls have a result node. */
class Builder {
  readonly nodes: MessageNode[] = []
  readonly stats: NodeStats = { duplicateToolResults: 0, unknownTypes: {} }
  private readonly resolved = new Set<string>()
  /** Calls without a result yet, for `functionResponse` parts that carry no id. */
  private readonly open: ToolCall[] = []

  /** Nodes for one message (possibly none: a user line holding only duplicate tool results). */
  convert(m: LoggedMessage): MessageNode[] {
    const r = m.record
    const type = str(r.type) ?? '(none)'
    const at = isoToMs(r.timestamp)
    const base = (node: MessageNode): MessageNode => {
      if (at !== undefined && node.createdAt === undefined) node.createdAt = at
      if (m.rewound !== undefined) node.metadata = { ...node.metadata, rewound: true }
      if (m.source === 'snapshot') node.metadata = { ...node.metadata, fromSnapshot: true }
      return node
    }
    if (type === 'gemini') return this.assistant(m, base)
    const parts = sortParts(r.content)
    const out: MessageNode[] = []
    for (const fr of parts.responses) {
      const node = this.response(fr, at)
      if (node) out.push(base(node))
    }
    const shown = r.displayContent !== undefined ? sortParts(r.displayContent) : parts
    const hasContent = shown.text.trim() !== '' || shown.blocks !== undefined
    if (type === 'user') {
      if (!hasContent && parts.responses.length > 0) return out
      const node: MessageNode = { nodeId: m.key, role: 'user', content: shown.text }
      if (shown.blocks) node.blocks = shown.blocks
      if (r.displayContent !== undefined && parts.text !== shown.text) node.metadata = { modelContent: parts.text }
      if (INJECTED.some((re) => re.test(parts.text))) node.isMeta = true
      out.push(base(node))
      return out
    }
    if (type === 'info' || type === 'warning' || type === 'error') {
      const node: MessageNode = { nodeId: m.key, role: 'system', content: shown.text, metadata: { type } }
      if (type !== 'error') node.isMeta = true
      out.push(base(node))
      return out
    }
    if (!type.startsWith('(record)')) this.stats.unknownTypes[type] = (this.stats.unknownTypes[type] ?? 0) + 1
    if (!hasContent) return out
    out.push(base({ nodeId: m.key, role: 'system', content: shown.text, event: 'unknown-event', metadata: { type, raw: r.raw ?? r } }))
    return out
  }

  private assistant(m: LoggedMessage, base: (n: MessageNode) => MessageNode): MessageNode[] {
    const r = m.record
    const parts = sortParts(r.content)
    const node: MessageNode = { nodeId: m.key, role: 'assistant', content: parts.text }
    if (parts.blocks) node.blocks = parts.blocks
    const thoughts = Array.isArray(r.thoughts) ? r.thoughts.map(obj).filter((t): t is Json => !!t) : []
    const thinking = [...thoughts.map(thoughtText), ...parts.thoughts].filter((t) => t.trim() !== '')
    if (thinking.length) node.thinking = thinking.join('\n\n')
    if (parts.signatures.length) node.thinkingSignature = parts.signatures[0]!
    const model = str(r.model)
    if (model !== undefined) node.model = model
    const usage = usageOf(r.tokens)
    if (usage) node.usage = usage
    const meta: Json = {}
    if (thoughts.length) meta.thoughts = thoughts
    if (parts.signatures.length > 1) meta.thoughtSignatures = parts.signatures
    if (obj(r.tokens)) meta.tokens = r.tokens
    const calls: ToolCall[] = []
    const results: MessageNode[] = []
    const info: Record<string, Json> = {}
    const records = Array.isArray(r.toolCalls) ? r.toolCalls.map(obj).filter((t): t is Json => !!t) : []
    records.forEach((tc, i) => {
      const c = convertToolCall(tc, `${m.key}:call${i}`)
      calls.push(c.call)
      info[c.call.id] = c.info
      if (c.result && !this.resolved.has(c.call.id)) {
        this.resolved.add(c.call.id)
        results.push(base(c.result))
      }
    })
    // functionCall parts (the model-history form) not already listed in toolCalls.
    const listed = new Set(calls.map((c) => c.id))
    const fingerprints = new Set(calls.map((c) => `${c.name}:${JSON.stringify(c.arguments)}`))
    parts.calls.forEach((fc, i) => {
      const name = str(fc.name) ?? '(unnamed)'
      const id = str(fc.id)
      if (id !== undefined ? listed.has(id) : fingerprints.has(`${name}:${JSON.stringify(fc.args ?? {})}`)) return
      calls.push(makeCall(id ?? `${m.key}:fc${i}`, name, fc.args))
    })
    for (const c of calls) if (!this.resolved.has(c.id)) this.open.push(c)
    if (calls.length) node.toolCalls = calls
    if (Object.keys(info).length) meta.toolCallInfo = info
    if (Object.keys(meta).length) node.metadata = meta
    return [base(node), ...results]
  }

  /** A `functionResponse` part in a user message → result node, unless its call already has one. */
  private response(fr: Json, at: number | undefined): MessageNode | undefined {
    const name = str(fr.name) ?? '(unnamed)'
    let id = str(fr.id)
    if (id === undefined) id = this.open.find((c) => c.name === name && !this.resolved.has(c.id))?.id
    if (id !== undefined && this.resolved.has(id)) {
      this.stats.duplicateToolResults++
      return undefined
    }
    const node = resultNode(id ?? `${name}#response${this.nodes.length}`, name, [{ functionResponse: fr }], at, false)
    if (id === undefined) delete node.toolCallId
    else this.resolved.add(id)
    return node
  }
}

/**
 * Nodes of every message in the log, in history order. The active history is one chain; a
 * rewound group (see log.ts) branches off the message before its rewind target.
 */
export function buildNodes(log: ConversationLog): { nodes: MessageNode[]; stats: NodeStats } {
  const b = new Builder()
  const lastNodeOf = new Map<string, string | undefined>()
  const groupTip = new Map<number, string | undefined>()
  let tip: string | undefined
  for (const m of log.list()) {
    let parent: string | undefined
    if (m.rewound === undefined) parent = tip
    else if (groupTip.has(m.rewound)) parent = groupTip.get(m.rewound)
    else {
      const anchor = log.rewindAnchors.get(m.rewound)
      parent = anchor === undefined ? undefined : lastNodeOf.get(anchor)
    }
    for (const n of b.convert(m)) {
      if (parent !== undefined) n.parentNodeId = parent
      parent = n.nodeId
      b.nodes.push(n)
    }
    lastNodeOf.set(m.key, parent)
    if (m.rewound === undefined) tip = parent
    else groupTip.set(m.rewound, parent)
  }
  return { nodes: b.nodes, stats: b.stats }
}
