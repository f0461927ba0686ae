/**
 * IR helpers shared by every reader: an empty session, tool-result pairing, summaries.
 * Readers build nodes in file order, then call {@link finishSession}.
 */
import type { AgentId, Diagnostic, MessageNode, Session, SessionSummary, ToolCall, Usage } from '../../shared/ir'
import { IR_VERSION, isConversationMessage, isProblem, isSkipped } from '../../shared/ir'
import { cutOutsideSecrets, maskText } from '../secrets/mask'

/** A new, empty session with the required fields set. */
export function newSession(agent: AgentId, id: string, format: string, files: string[], home?: string): Session {
  return {
    irVersion: IR_VERSION,
    id,
    agent,
    checkpoints: [],
    nodes: [],
    source: home === undefined ? { format, files } : { format, files, home },
    diagnostics: [],
    metadata: {},
  }
}

/** Push a diagnostic onto a session, filling `sessionId` and `agent`. */
export function addDiagnostic(session: Session, d: Omit<Diagnostic, 'sessionId' | 'agent'>): void {
  session.diagnostics.push({ ...d, sessionId: session.id, agent: session.agent })
}

/**
 * Append `n` to `session.nodes` as the child of the node before it (`parentNodeId`; none for the
 * first), for a reader whose store is one linear thread. Returns `n`.
 */
export function pushChained(session: Session, n: MessageNode): MessageNode {
  const prev = session.nodes[session.nodes.length - 1]
  if (prev) n.parentNodeId = prev.nodeId
  session.nodes.push(n)
  return n
}

/**
 * Record on `session` that the reader dropped `count` records (a line, message, event, row, file)
 * and says why in `d`: a diagnostic with `skipped` set (usually a `warning`, since the rest of
 * the session reads as usual), which {@link isSkippedRecord} tells apart.
 */
export function skipRecord(session: Session, d: Omit<Diagnostic, 'sessionId' | 'agent' | 'skipped'>, count = 1): void {
  addDiagnostic(session, { ...d, skipped: count })
}

/**
 * One line of a JSONL store as an object: `undefined` for a blank line, and (with a warning
 * naming `path` and the 1-based `line`) for a line that is not JSON (cut short?) or not a JSON
 * object (an array, a string, `null`), which the reader then skips. The warning is a `warning`
 * (the rest of the session reads as usual), yet the line is lost: it goes through
 * {@link skipRecord}, so `sepia doctor` counts the session as read only in part.
 */
export function jsonLineObject(session: Session, path: string, raw: string, line: number): Record<string, unknown> | undefined {
  if (raw.trim() === '') return undefined
  let v: unknown
  try {
    v = JSON.parse(raw)
  } catch {
    skipRecord(session, { severity: 'warning', path, line, message: 'line is not JSON (cut short?); skipped' })
    return undefined
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>
  skipRecord(session, { severity: 'warning', path, line, message: 'line is not a JSON object; skipped' })
  return undefined
}

/**
 * Whether `d` tells of records a reader dropped ({@link skipRecord}, `Diagnostic.skipped`):
 * content lost though the diagnostic may be only a `warning`.
 */
export function isSkippedRecord(d: Diagnostic): boolean {
  return isSkipped(d)
}

/**
 * Pair every tool call with its result node (`role: "tool"`, same `toolCallId`): sets the call's
 * `status` (`completed`, `failed` when the result is an error, `pending` when no result exists)
 * and `isError`. Results whose call is missing keep `metadata.orphan = true`.
 * Returns the number of paired calls.
 */
export function pairToolCalls(nodes: MessageNode[]): number {
  const results = new Map<string, MessageNode>()
  for (const n of nodes) if (n.role === 'tool' && n.toolCallId) results.set(n.toolCallId, n)
  const calls = new Set<string>()
  let paired = 0
  for (const n of nodes) {
    for (const call of n.toolCalls ?? []) {
      calls.add(call.id)
      const result = results.get(call.id)
      if (result) {
        paired++
        if (result.isError) call.isError = true
        if (call.status === undefined || call.status === 'pending' || call.status === 'in_progress') {
          call.status = result.isError ? 'failed' : 'completed'
        }
        if (result.toolName === undefined) result.toolName = call.name
      } else if (call.status === undefined) {
        call.status = 'pending'
      }
    }
  }
  for (const [id, n] of results) {
    if (!calls.has(id)) n.metadata = { ...n.metadata, orphan: true }
  }
  return paired
}

/** Sum usages field by field; absent fields stay absent unless some input has them. */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b ? { ...b } : undefined
  if (!b) return a
  const out: Usage = { ...a }
  for (const k of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'thinkingTokens', 'cost'] as const) {
    if (b[k] !== undefined) out[k] = (out[k] ?? 0) + b[k]!
  }
  return out
}

/**
 * For a store that records token usage only per session (Factory Droid's `<id>.settings.json`
 * `tokenUsage`, Crush's `sessions.prompt_tokens`/`completion_tokens`/`cost`): when no node holds
 * usage, the session's totals go on its last assistant node, so the usage report (one row per
 * message with usage) counts them; the list's totals stay the same. Returns whether it did.
 */
export function sessionUsageOnLastAssistant(session: Session): boolean {
  if (!session.usage || session.nodes.some((n) => n.usage)) return false
  for (let i = session.nodes.length - 1; i >= 0; i--) {
    const n = session.nodes[i]!
    if (n.role !== 'assistant') continue
    n.usage = { ...session.usage }
    return true
  }
  return false
}

/**
 * Fill session-level fields derivable from the nodes when the store did not record them:
 * `createdAt`/`lastActivityAt` from message times, `model` from the first assistant model,
 * `title` from the first user prompt; then pair tool calls. A streaming reader, whose `nodes` are
 * not kept, passes the {@link NodeTotals} it gathered instead.
 */
export function finishSession(session: Session, totals: NodeTotals = nodeTotals(session.nodes)): Session {
  pairToolCalls(session.nodes)
  session.createdAt ??= totals.firstAt
  session.lastActivityAt ??= totals.lastAt ?? session.createdAt
  if (session.model === undefined && totals.firstModel) session.model = totals.firstModel
  if (session.title === undefined) {
    const p = totals.prompt
    // Masked before it is cut: a key cut in half would no longer be recognised (issue 9, item 7).
    if (p) session.title = oneLine(maskText(p.slice(0, 2000)).text, 120)
  }
  // Drop undefined keys so IR JSON is stable.
  for (const k of Object.keys(session) as (keyof Session)[]) if (session[k] === undefined) delete session[k]
  return session
}

/** The first user message that is a real prompt (not meta, not a tool result). */
export function firstPrompt(session: Session): string | undefined {
  const n = session.nodes.find(isPrompt)
  return n?.content.trim()
}

/** True for a user node that is a real prompt: not meta, not an event, not blank. */
export function isPrompt(n: MessageNode): boolean {
  return n.role === 'user' && !n.isMeta && !n.event && n.content.trim() !== ''
}

/**
 * What {@link finishSession} and {@link summarize} derive from a session's nodes (times in ms
 * since epoch, counts, usage in tokens/USD). A streaming reader gathers it node by node with
 * {@link NodeTotalsBuilder} instead of keeping the nodes.
 */
export interface NodeTotals {
  /** Earliest and latest node `createdAt`. */
  firstAt?: number
  lastAt?: number
  /** `model` of the first assistant node (in node order) that has one. */
  firstModel?: string
  /** The first real prompt ({@link isPrompt}), trimmed. */
  prompt?: string
  /** User and assistant nodes that are neither events nor meta. */
  messageCount: number
  toolCallCount: number
  /** The nodes' usage summed in node order ({@link addUsage}). */
  usage?: Usage
}

/** Gathers {@link NodeTotals}; feed it every node once, in node order. */
export class NodeTotalsBuilder {
  readonly totals: NodeTotals = { messageCount: 0, toolCallCount: 0 }

  /** Take one node into the totals. */
  add(n: MessageNode): void {
    const t = this.totals
    if (n.createdAt !== undefined) {
      if (t.firstAt === undefined || n.createdAt < t.firstAt) t.firstAt = n.createdAt
      if (t.lastAt === undefined || n.createdAt > t.lastAt) t.lastAt = n.createdAt
    }
    if (t.firstModel === undefined && n.role === 'assistant' && n.model) t.firstModel = n.model
    if (t.prompt === undefined && isPrompt(n)) t.prompt = n.content.trim()
    if (isConversationMessage(n)) t.messageCount++
    t.toolCallCount += n.toolCalls?.length ?? 0
    if (n.usage) t.usage = addUsage(t.usage, n.usage)
  }
}

/** {@link NodeTotals} of a list of nodes. */
export function nodeTotals(nodes: readonly MessageNode[]): NodeTotals {
  const b = new NodeTotalsBuilder()
  for (const n of nodes) b.add(n)
  return b.totals
}

/** Collapse whitespace and cut to `max` characters (with an ellipsis). */
export function oneLine(text: string, max: number): string {
  // Never cut inside a secret (it is masked after, whole).
  return cutOutsideSecrets(text.replace(/\s+/g, ' ').trim(), max)
}

/**
 * How many of `diagnostics` are problems: `error` and `warning` ones. An `info` diagnostic is a
 * note that lost nothing the user needs (a Cursor edit or retry left out of the header list, a
 * branch that starts anew); the session row does not badge it as a problem (issue 17: the demo
 * shows 0 problems). The session view still lists every diagnostic.
 */
export function problemCount(diagnostics: readonly Pick<Diagnostic, 'severity'>[]): number {
  return diagnostics.filter((d) => d.severity !== 'info').length
}

/**
 * How many of `diagnostics` say something was left out (`isProblem`, src/shared/ir.ts: an `error`,
 * or records or files skipped): `SessionSummary.problemCount`. The other warnings are notes.
 */
export function leftOutCount(diagnostics: readonly Pick<Diagnostic, 'severity' | 'skipped'>[]): number {
  return diagnostics.filter(isProblem).length
}

/**
 * The list entry for a session. `home` is the home folder it was found under. A streaming read
 * (the catalog's index path) passes the totals of the nodes it did not keep, and the number of
 * problem diagnostics ({@link problemCount}) and of those that left something out
 * ({@link leftOutCount}) when it kept only some.
 */
export function summarize(
  session: Session,
  home: string,
  totals: NodeTotals = nodeTotals(session.nodes),
  diagnosticCount = problemCount(session.diagnostics),
  leftOut = leftOutCount(session.diagnostics),
): SessionSummary {
  const { messageCount, toolCallCount, usage } = totals
  const fp = totals.prompt
  const s: SessionSummary = {
    id: session.id,
    agent: session.agent,
    messageCount,
    toolCallCount,
    format: session.source.format,
    files: session.source.files,
    home,
    diagnosticCount,
    problemCount: leftOut,
  }
  if (session.title !== undefined) s.title = session.title
  if (session.workingDirectory !== undefined) s.workingDirectory = session.workingDirectory
  if (session.model !== undefined) s.model = session.model
  if (session.createdAt !== undefined) s.createdAt = session.createdAt
  if (session.lastActivityAt !== undefined) s.lastActivityAt = session.lastActivityAt
  if (session.status !== undefined) s.status = session.status
  if (session.parentSessionId !== undefined) s.parentSessionId = session.parentSessionId
  if (session.childSessionIds?.length) s.childSessionIds = session.childSessionIds
  if (session.agentName !== undefined) s.agentName = session.agentName
  // Masked before it is cut, so a secret cut at 500 characters cannot slip past the detectors.
  if (fp !== undefined) s.firstPrompt = fp.length > 500 ? maskText(fp.slice(0, 1000)).text.slice(0, 500) : fp
  const u = session.usage ?? usage
  if (u) s.usage = u
  if (session.recovered) s.recovered = { ...session.recovered }
  if (session.metadata?.hidden === true) s.hidden = true
  return s
}

/** Count of tool calls that have a paired result (for tests and fidelity reports). */
export function countPairedToolCalls(session: Session): { calls: number; paired: number } {
  const results = new Set(session.nodes.filter((n) => n.role === 'tool' && n.toolCallId).map((n) => n.toolCallId!))
  let calls = 0
  let paired = 0
  for (const n of session.nodes) {
    for (const c of n.toolCalls ?? ([] as ToolCall[])) {
      calls++
      if (results.has(c.id)) paired++
    }
  }
  return { calls, paired }
}
