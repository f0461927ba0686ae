/**
 * Prepare a session for a target agent: the IR-level half of a conversion, shared by every writer
 * (DESIGN.md "convert/": tool vocabulary mapping, thinking-signature rules, fan-out re-pairing,
 * twin de-duplication, the fidelity report). The output is what a writer writes:
 *
 * - the main thread only (`thread.ts`), with Devin's twins folded;
 * - no events, injected context or system messages (the target adds its own), except the prompt a
 *   slash command or skill expanded into (`isCommandPrompt`): the model saw it as the task, so it is
 *   written as a user message, folded into the user turn that typed the command when there is one
 *   (`foldsIntoCommandTurn`);
 * - roles `user`, `assistant`, `tool` in a linear chain (`parentNodeId` = the previous node);
 * - every assistant tool call followed by exactly one result per call, in call order, with ids
 *   unique and valid for the target (`pairing.ts`); results whose call is missing are user text;
 * - native mode: each call in the target's vocabulary (`intents.ts` → `vocab/<agent>.ts`), a
 *   fan-out call split per item (`fanout.ts`), a tool with no counterpart kept as it was;
 *   text-only mode: calls and results rendered as text (no tool blocks at all);
 * - thinking only where the target's provider accepts its signature (`thinking.ts`);
 * - images and files as blocks where the target holds them, else a note (`content.ts`).
 * Everything dropped or changed is a counted warning.
 */
import type { ConvertWarning, ProviderFamily } from '../../shared/convert'
import type { AgentId, MessageNode, Session, ToolCall } from '../../shared/ir'
import { IR_VERSION, isCommandPrompt } from '../../shared/ir'
import { toolKind } from '../ir/toolkind'
import { adaptContent } from './content'
import { splitResult } from './fanout'
import { decodeCall, isSubagentIntent } from './intents'
import { type CallPair, type Item, pairResults } from './pairing'
import { foldTwins, selectThread } from './thread'
import { foldedCommandText, foldsIntoCommandTurn } from './transcript'
import { sealFamily, thinkingDecision } from './thinking'
import { encodeIntent, type EncodedCall, type TargetVocabulary } from './vocabulary'
import { WarningSink } from './warnings'

/** A writable target as the preparation sees it. */
export interface TargetProfile {
  agent: AgentId
  displayName: string
  /** Provider the target replays to (decides signed thinking). */
  providerFamily?: ProviderFamily
  vocabulary: TargetVocabulary
}

/** Options of {@link prepareForTarget}. */
export interface PrepareOptions {
  /** Render tool calls and results as text. */
  textOnly: boolean
  /** Working directory of the converted session (default: the source's). */
  cwd?: string
}

/** A prepared session and what the preparation dropped or changed. */
export interface Prepared {
  session: Session
  warnings: ConvertWarning[]
}

/** Result text of a call that had none recorded. */
export const NO_RESULT_TEXT = '(No result was recorded for this tool call.)'

/** Placeholder result of a call the source marks failed (`status: 'failed'` or `isError`) with no result recorded. */
export const FAILED_NO_RESULT_TEXT = '(This tool call failed; no result was recorded.)'

/**
 * True when the source says the call failed: its result's `isError`, or the call's own
 * `isError` / `status: 'failed'` (issue 14: a failed call's placeholder result lost its failure).
 */
function failed(pair: CallPair): boolean {
  return pair.result?.isError === true || pair.call.isError === true || pair.call.status === 'failed'
}

/** Prepare `session` for `profile` (see the module comment). Pure: the input is not changed. */
export function prepareForTarget(session: Session, profile: TargetProfile, options: PrepareOptions): Prepared {
  const sink = new WarningSink()
  const nodes = filterNodes(session, sink)
  const adapted = nodes.map((n) => adaptNode(n, session, profile, sink)).filter((n): n is MessageNode => n !== undefined)
  const items = pairResults(adapted, sink, (c) => isServerToolCall(c, session.agent))
  const ids = new IdAllocator(profile.vocabulary, sink)
  const out: MessageNode[] = []
  for (const raw of items) {
    const item = raw.type === 'calls' ? serverCallsAsText(raw, session, sink) : raw
    if (item.type === 'message') out.push(item.node)
    else if (options.textOnly) out.push(...renderAsText(item, sink))
    else out.push(...mapCalls(item, session, profile, ids, sink))
  }
  out.forEach((n, i) => {
    if (i === 0) delete n.parentNodeId
    else n.parentNodeId = out[i - 1]!.nodeId
  })
  sink.add({ kind: 'checkpoints-dropped', count: session.checkpoints.length })

  const prepared: Session = {
    irVersion: IR_VERSION,
    id: session.id,
    agent: session.agent,
    checkpoints: [],
    nodes: out,
    source: session.source,
    diagnostics: [],
    metadata: { convertedFrom: { agent: session.agent, id: session.id }, textOnly: options.textOnly },
  }
  const cwd = options.cwd ?? session.workingDirectory
  if (cwd !== undefined) prepared.workingDirectory = cwd
  if (session.workingDirectory !== undefined) prepared.metadata.sourceWorkingDirectory = session.workingDirectory
  for (const k of ['title', 'model', 'createdAt', 'lastActivityAt', 'git'] as const) {
    if (session[k] !== undefined) (prepared as unknown as Record<string, unknown>)[k] = session[k]
  }
  return { session: prepared, warnings: sink.list() }
}

/**
 * The usage a target gets. Input-side counts (`inputTokens`, `cacheReadTokens`, `cacheWriteTokens`)
 * were measured with the source agent's own prompt (its system prompt and tools); a target sizes its
 * context from them (Cline compacts a resumed session whose last input count looks too large), so
 * they are kept only when the target is the source's own agent, for every target alike (issue 14:
 * Claude Code and Gemini CLI kept them). Output, thinking and cost stay.
 */
function usageFor(u: NonNullable<MessageNode['usage']>, sameAgent: boolean, sink: WarningSink): NonNullable<MessageNode['usage']> {
  if (sameAgent || (u.inputTokens === undefined && u.cacheReadTokens === undefined && u.cacheWriteTokens === undefined)) return { ...u }
  sink.add({ kind: 'input-usage-dropped', count: 1 })
  const { inputTokens: _i, cacheReadTokens: _r, cacheWriteTokens: _w, ...rest } = u
  return rest
}

/** Main thread without events, injected context, system messages and twins. */
function filterNodes(session: Session, sink: WarningSink): MessageNode[] {
  const thread = selectThread(session)
  sink.add({ kind: 'branch-dropped', count: thread.offThread })
  const kept: MessageNode[] = []
  for (const n of thread.nodes) {
    if (n.event) sink.add({ kind: 'event-dropped', count: 1, event: n.event })
    else if (n.isMeta && !isCommandPrompt(n)) sink.add({ kind: 'injected-context-dropped', count: 1 })
    else if (n.role === 'system') sink.add({ kind: 'system-message-dropped', count: 1 })
    else if (foldsIntoCommandTurn(kept[kept.length - 1], n)) {
      const turn = kept[kept.length - 1]!
      kept[kept.length - 1] = { ...turn, content: foldedCommandText(turn, n) }
    } else kept.push(n)
  }
  const twins = foldTwins(kept)
  sink.add({ kind: 'twin-folded', count: twins.folded })
  return twins.nodes
}

/** A fresh node for the target: content adapted, thinking per the signature rules. */
function adaptNode(n: MessageNode, session: Session, profile: TargetProfile, sink: WarningSink): MessageNode | undefined {
  const { content, blocks } = adaptContent(n, profile.vocabulary, sink)
  const node: MessageNode = { nodeId: n.nodeId, role: n.role, content }
  if (blocks) node.blocks = blocks
  if (blocks && n.partOrder && n.role === 'assistant') node.partOrder = n.partOrder.map((p) => ({ ...p }))
  if (n.createdAt !== undefined) node.createdAt = n.createdAt
  if (n.role === 'tool') {
    if (n.toolCallId !== undefined) node.toolCallId = n.toolCallId
    if (n.toolName !== undefined) node.toolName = n.toolName
    if (n.isError) node.isError = true
    if (n.metadata?.results !== undefined) node.metadata = { results: n.metadata.results }
    return node
  }
  if (n.role === 'assistant') {
    for (const k of ['model', 'requestId', 'finishReason'] as const) if (n[k] !== undefined) (node as unknown as Record<string, unknown>)[k] = n[k]
    const usage = n.usage === undefined ? undefined : usageFor(n.usage, session.agent === profile.agent, sink)
    if (usage && Object.keys(usage).length > 0) node.usage = usage
    if (n.toolCalls?.length) node.toolCalls = n.toolCalls.map((c) => ({ ...c }))
    const decision = thinkingDecision(n, session, profile.providerFamily)
    if (decision === 'keep') {
      if (n.thinking !== undefined) node.thinking = n.thinking
      node.thinkingSignature = n.thinkingSignature!
      if (n.metadata?.redactedThinking === true) node.metadata = { redactedThinking: true }
    } else if (decision === 'unsigned') sink.add({ kind: 'thinking-unsigned-dropped', count: 1 })
    else if (decision === 'other-provider') {
      sink.add({ kind: 'thinking-other-provider-dropped', count: 1, from: sealFamily(n, session), to: profile.providerFamily ?? 'any' })
    }
    if (content.trim() === '' && !blocks && !node.toolCalls && node.thinkingSignature === undefined) {
      sink.add({ kind: 'empty-message-dropped', count: 1 })
      return undefined
    }
    return node
  }
  if (content.trim() === '' && !blocks) {
    sink.add({ kind: 'empty-message-dropped', count: 1 })
    return undefined
  }
  return node
}

/** Unique tool-call ids valid for the target. */
class IdAllocator {
  private readonly used = new Set<string>()
  constructor(
    private readonly vocab: TargetVocabulary,
    private readonly sink: WarningSink,
  ) {}

  take(base: string): string {
    let id = base
    if (!this.vocab.validToolId(id)) {
      id = (base.replace(/[^A-Za-z0-9_-]/g, '_') || 'call').slice(0, 180)
      this.sink.add({ kind: 'tool-id-rewritten', count: 1 })
    }
    let out = id
    for (let k = 2; this.used.has(out); k++) out = `${id}_${k}`
    this.used.add(out)
    return out
  }
}

/** The result node for one (possibly split) call. */
function resultNode(call: ToolCall, source: MessageNode | undefined, nodeId: string, text: string, isError: boolean, at: number | undefined): MessageNode {
  const node: MessageNode = { nodeId, role: 'tool', content: text, toolCallId: call.id, toolName: call.name }
  if (isError) node.isError = true
  if (source?.blocks && text === source.content) node.blocks = source.blocks
  const when = source?.createdAt ?? at
  if (when !== undefined) node.createdAt = when
  return node
}

/**
 * Tools the provider runs on its side (Anthropic server tools: `server_tool_use` blocks, ids
 * `srvtoolu_...`, answered by `web_search_tool_result`... in the same message; OpenAI hosted tools:
 * Codex `web_search_call` / `image_generation_call` items, which have no output item). Source:
 * Anthropic Messages API docs "Server tools"; codex-rs protocol `ResponseItem::WebSearchCall`.
 */
const SERVER_TOOL_NAMES = new Set(['web_search', 'web_fetch', 'code_execution', 'bash_code_execution', 'text_editor_code_execution', 'image_generation'])

/** True when `call` of a `session.agent` session was run by the provider, not by the agent. */
export function isServerToolCall(call: ToolCall, agent: Session['agent']): boolean {
  if (agent !== 'claude-code' && agent !== 'codex') return false
  return call.id.startsWith('srvtoolu_') || SERVER_TOOL_NAMES.has(call.name)
}

/**
 * Server-side calls are not client tool calls in the target (issue 14): written as text in front of
 * the message's text, where the provider ran them (`[server_tool_use, web_search_tool_result, text]`),
 * never as a call waiting for a result. The other calls stay. Returns a message item when none is left.
 */
function serverCallsAsText(item: Extract<Item, { type: 'calls' }>, session: Session, sink: WarningSink): Item {
  const server = item.pairs.filter((p) => isServerToolCall(p.call, session.agent))
  if (server.length === 0) return item
  sink.add({ kind: 'tools-as-text', count: server.length })
  const markers = server.map((p) => {
    const a = p.call.arguments as { query?: unknown; url?: unknown } | null
    const what = typeof a?.query === 'string' ? `"${a.query}"` : typeof a?.url === 'string' ? a.url : argsText(p.call.arguments)
    const failedNote = failed(p) ? ' (failed)' : ''
    const result = p.result?.content?.trim() ? `\n${p.result.content}` : ''
    return `[${p.call.name} run by the provider${failedNote}: ${what}]${result}`
  })
  const node: MessageNode = { ...item.node, content: [...markers, item.node.content].filter((x) => x.trim() !== '').join('\n\n') }
  if (node.partOrder && node.blocks) {
    // Each marker takes its call's place among the message's parts.
    const blocks = [...node.blocks]
    node.partOrder = node.partOrder.map((ref) => {
      const k = ref.part === 'tool-call' ? server.findIndex((p) => p.call.id === ref.id) : -1
      if (k < 0) return ref
      blocks.push({ type: 'text', text: markers[k]! })
      return { part: 'block', index: blocks.length - 1 }
    })
    node.blocks = blocks
  } else if (node.blocks) {
    // A node that keeps blocks (an image) writes them, not `content`: the markers lead them too.
    node.blocks = [...markers.map((text) => ({ type: 'text' as const, text })), ...node.blocks]
  }
  const pairs = item.pairs.filter((p) => !server.includes(p))
  if (pairs.length > 0) return { type: 'calls', node, pairs }
  delete node.toolCalls
  return { type: 'message', node }
}

/** Native mode: map each call to the target's vocabulary, split fan-outs, add missing results. */
function mapCalls(item: Extract<Item, { type: 'calls' }>, session: Session, profile: TargetProfile, ids: IdAllocator, sink: WarningSink): MessageNode[] {
  const assistant: MessageNode = { ...item.node, toolCalls: [] }
  const results: MessageNode[] = []
  const decodeCtx = { cwd: session.workingDirectory }
  for (const pair of item.pairs) {
    const encoded = encodePair(pair, decodeCtx, profile, session, sink)
    const parts = encoded.calls
    const texts =
      parts.length > 1 && pair.result
        ? splitResult(pair.result, parts.length)
        : [{ text: pair.result?.content ?? (failed(pair) ? FAILED_NO_RESULT_TEXT : NO_RESULT_TEXT), isError: failed(pair) }]
    parts.forEach((enc, k) => {
      const id = ids.take(k === 0 ? pair.call.id : `${pair.call.id}_${k + 1}`)
      const call: ToolCall = { id, name: enc.name, kind: toolKind(enc.name), arguments: enc.input }
      if (pair.call.subagentSessionId !== undefined) call.subagentSessionId = pair.call.subagentSessionId
      // A namespace names the tool in the source agent's own tool list: kept when the target is that agent.
      if (pair.call.namespace !== undefined && session.agent === profile.agent && enc.name === pair.call.name) call.namespace = pair.call.namespace
      assistant.toolCalls!.push(call)
      const r = texts[k] ?? texts[0]!
      const isError = r.isError || (parts.length === 1 && failed(pair))
      results.push(resultNode(call, pair.result, `${pair.result?.nodeId ?? `${item.node.nodeId}:result`}${k ? `#${k + 1}` : ''}`, r.text, isError, item.node.createdAt))
    })
  }
  return [assistant, ...results]
}

/** The target calls for one source call (one, or one per fan-out item), with warnings counted. */
function encodePair(pair: CallPair, decodeCtx: { cwd?: string }, profile: TargetProfile, session: Session, sink: WarningSink): { calls: EncodedCall[] } {
  const intents = decodeCall(pair.call, decodeCtx)
  const encoded = intents?.map((i) => encodeIntent(profile.vocabulary, i, decodeCtx))
  // "Stays a separate session" only when there is one: the call links a session read from this home.
  if (pair.call.subagentSessionId !== undefined) sink.add({ kind: 'subagent-flattened', count: 1 })
  else if (intents?.some(isSubagentIntent)) sink.add({ kind: 'subagent-no-transcript', count: 1 })
  if (!encoded || encoded.some((e) => e === undefined)) {
    if (session.agent !== profile.agent) sink.add({ kind: 'tool-kept', count: 1, name: pair.call.name })
    const args = pair.call.arguments
    const input = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : { input: args ?? null }
    return { calls: [{ name: pair.call.name, input }] }
  }
  const calls = encoded as EncodedCall[]
  if (calls.length > 1) sink.add({ kind: 'tool-split', count: 1, name: pair.call.name, into: calls.length })
  for (const c of new Set(calls.map((x) => x.name))) {
    if (c !== pair.call.name) sink.add({ kind: 'tool-mapped', count: 1, from: pair.call.name, to: c })
  }
  return { calls }
}

/** Text-only mode: calls appended to the assistant's text, each result a user message. */
function renderAsText(item: Extract<Item, { type: 'calls' }>, sink: WarningSink): MessageNode[] {
  const parts = [item.node.content]
  for (const p of item.pairs) parts.push(`[Tool call: ${p.call.name}]\n${argsText(p.call.arguments)}`)
  const assistant: MessageNode = { ...item.node, content: parts.filter((x) => x.trim() !== '').join('\n\n') }
  delete assistant.toolCalls
  // The calls are text after the message's text now: the parts' order is not kept.
  if (assistant.partOrder) {
    delete assistant.partOrder
    if (assistant.blocks?.every((b) => b.type === 'text')) delete assistant.blocks
  }
  sink.add({ kind: 'tools-as-text', count: item.pairs.length })
  const out: MessageNode[] = [assistant]
  item.pairs.forEach((p, k) => {
    const r = p.result
    const node: MessageNode = {
      nodeId: r?.nodeId ?? `${item.node.nodeId}:result${k}`,
      role: 'user',
      content: `[Tool result: ${p.call.name}${failed(p) ? ' (error)' : ''}]\n${r?.content ?? (failed(p) ? FAILED_NO_RESULT_TEXT : NO_RESULT_TEXT)}`,
    }
    const when = r?.createdAt ?? item.node.createdAt
    if (when !== undefined) node.createdAt = when
    out.push(node)
  })
  return out
}

function argsText(args: unknown): string {
  if (typeof args === 'string') return args
  try {
    return JSON.stringify(args ?? {}, null, 2)
  } catch {
    return String(args)
  }
}
