/**
 * Builds the IR message list of one rollout, record by record.
 *
 * Grouping (fixtures/real/codex, Codex 0.171.0): a model response is written as separate items —
 * `reasoning`, assistant `message`, `function_call`s — followed by its usage
 * (`token_usage_record` and/or `event_msg token_count`). Consecutive assistant-side items become
 * one assistant node; a user message, a tool result, a usage record or a turn boundary closes it.
 * Every usage value reaches a message, once (issue 14 point 8): `token_count` and
 * `token_usage_record` are two lanes, and a node's usage comes from one lane only (`token_count`
 * when the rollout has any, else the records), so the session total equals the sum of the nodes'
 * usage. Within a lane, a usage value goes to the last response when that response has none yet.
 * Otherwise it depends on where the rollout writes usage: rollouts of the 0.4x–0.5x builds write
 * `token_count` as the response streams, *before* its items reach the rollout (the items are
 * recorded when the turn's step ends; fixtures/public-real/codex vscode-windows-041,
 * moonmind-wsl-057), so a value with no fresh response waits for the next response node; newer
 * rollouts write it after the items, and a second value for the same response is added to it. A
 * value still waiting at the end (or when the next usage comes first) goes to the last response.
 * Only a rollout with no response at all has usage that reaches no message.
 *
 * `event_msg user_message` / `agent_message` / `agent_reasoning` repeat response items in rollouts
 * of 2025 builds (codex-rs `core/src/rollout/policy.rs` persists both). They become nodes only
 * when no response item with the same role and text exists in the file (the claude-code-log
 * sample `rollout-66666666...` has the event alone); matching is by text, each response item
 * absorbing at most one event.
 */
import type { MessageNode, ToolCall, Usage } from '../../../shared/ir'
import { addUsage } from '../../ir/build'

/** Event-message kinds that may duplicate a response item. */
export type EchoKind = 'user' | 'assistant' | 'reasoning'

/** One usage value and where it went. */
interface UsageEntry {
  node?: MessageNode
  usage: Usage
  replay: boolean
  /** From `token_count` (session totals) or `token_usage_record`. */
  source: 'count' | 'record'
}

/** Attribution state of one usage source (see the module comment). */
interface UsageLane {
  /** Responses that already hold a value of this lane. */
  taken: Set<MessageNode>
  /** Values written before the response they measure. */
  pending: UsageEntry[]
  /** Where this rollout writes usage relative to the items, learned from the first value. */
  order?: 'after' | 'before'
}

/** Per-call facts Codex records in events rather than on the items (exit code, wall time). */
export interface CallFacts {
  exitCode?: number
  durationMs?: number
}

/** Mutable builder; see the module comment. */
export class Transcript {
  readonly nodes: MessageNode[] = []
  /** Set by the reader before each record: the record is copied history of a fork. */
  replay = false
  private readonly replayed = new Set<MessageNode>()
  private open: MessageNode | undefined
  private lastResponse: MessageNode | undefined
  private readonly lanes: Record<UsageEntry['source'], UsageLane> = {
    count: { taken: new Set(), pending: [] },
    record: { taken: new Set(), pending: [] },
  }
  private readonly usages: UsageEntry[] = []
  private readonly echoes: { node: MessageNode; kind: EchoKind; text: string }[] = []
  private readonly itemTexts: Record<EchoKind, Map<string, number>> = { user: new Map(), assistant: new Map(), reasoning: new Map() }
  private readonly ids = new Set<string>()
  /** Exit codes and durations from events, by call id (applied in {@link finish}). */
  readonly callFacts = new Map<string, CallFacts>()

  /** Add a node made from the record on `line` at time `at`. */
  push(line: number, at: number | undefined, node: Omit<MessageNode, 'nodeId'>): MessageNode {
    let nodeId = `L${line}`
    for (let i = 2; this.ids.has(nodeId); i++) nodeId = `L${line}.${i}`
    this.ids.add(nodeId)
    const full: MessageNode = { nodeId, ...node }
    if (at !== undefined && full.createdAt === undefined) full.createdAt = at
    this.nodes.push(full)
    if (this.replay) this.replayed.add(full)
    return full
  }

  /**
   * End the current response: the next assistant-side item starts a new node. With `endTurn`
   * (a user message), later usage no longer belongs to the previous response either.
   */
  closeResponse(endTurn = false): void {
    this.open = undefined
    if (endTurn) this.lastResponse = undefined
  }

  /**
   * The assistant node to add a response item to: the open one (when `canJoin` accepts it) or a
   * new empty one carrying `model`.
   */
  responseNode(line: number, at: number | undefined, model: string | undefined, canJoin: (n: MessageNode) => boolean): MessageNode {
    if (this.open && canJoin(this.open)) return this.open
    const node = this.push(line, at, model === undefined ? { role: 'assistant', content: '' } : { role: 'assistant', content: '', model })
    this.open = node
    this.lastResponse = node
    for (const lane of Object.values(this.lanes)) {
      if (lane.pending.length === 0) continue
      for (const e of lane.pending) e.node = node
      lane.pending = []
      lane.taken.add(node)
    }
    return node
  }

  /** Remember a response item's text so an echoing event message is not shown twice. */
  noteItemText(kind: EchoKind, text: string): void {
    const key = text.trim()
    if (key === '') return
    const m = this.itemTexts[kind]
    m.set(key, (m.get(key) ?? 0) + 1)
  }

  /** A node made from an event message; dropped in {@link finish} when a response item repeats it. */
  echo(kind: EchoKind, line: number, at: number | undefined, node: Omit<MessageNode, 'nodeId'>, text: string): void {
    this.echoes.push({ node: this.push(line, at, node), kind, text: text.trim() })
  }

  /** Attribute one usage value to a response (see the module comment). */
  usage(usage: Usage | undefined, source: 'count' | 'record', requestId?: string): void {
    const target = this.lastResponse
    if (target && requestId !== undefined && target.requestId === undefined) target.requestId = requestId
    this.closeResponse()
    if (!usage) return
    const lane = this.lanes[source]
    const entry: UsageEntry = { usage, replay: this.replay, source }
    this.usages.push(entry)
    if (target && lane.pending.length > 0) {
      // Waiting values whose response never reached the rollout (an aborted step): the last one.
      for (const e of lane.pending) e.node = target
      lane.pending = []
    }
    if (target && !lane.taken.has(target)) {
      lane.order ??= 'after'
      lane.taken.add(target)
      entry.node = target
    } else if (target && lane.order === 'after') {
      entry.node = target
    } else {
      lane.order ??= 'before'
      lane.pending.push(entry)
    }
  }

  /** Add exit code / duration facts for a call; structured event facts win over output headers. */
  addCallFacts(callId: string, facts: CallFacts, fromEvent: boolean): void {
    const had = this.callFacts.get(callId)
    this.callFacts.set(callId, fromEvent ? { ...had, ...facts } : { ...facts, ...had })
  }

  /**
   * Finish: drop echoed event messages, apply usage (skipping copied history when
   * `replayConfirmed`), mark copied nodes, chain `parentNodeId`, set call exit codes. Returns the
   * session usage total and how many nodes were copies.
   */
  finish(replayConfirmed: boolean): { usage?: Usage; replayedNodes: number } {
    const drop = new Set<MessageNode>()
    for (const e of this.echoes) {
      const m = this.itemTexts[e.kind]
      const n = m.get(e.text) ?? 0
      if (n > 0) {
        m.set(e.text, n - 1)
        drop.add(e.node)
      }
    }
    const hasCount = this.usages.some((u) => u.source === 'count')
    const lastAssistant = [...this.nodes].reverse().find((n) => n.role === 'assistant' && !drop.has(n))
    let total: Usage | undefined
    for (const u of this.usages) {
      if (replayConfirmed && u.replay) continue
      if ((u.source === 'count') !== hasCount) continue
      const node = u.node && !drop.has(u.node) ? u.node : lastAssistant
      // A rollout with usage but no response items at all (ccusage's usage-only samples) keeps
      // its session total with no message to carry it.
      if (node) node.usage = addUsage(node.usage, u.usage)
      total = addUsage(total, u.usage)
    }
    const kept = this.nodes.filter((n) => !drop.has(n))
    this.nodes.splice(0, this.nodes.length, ...kept)
    let replayedNodes = 0
    kept.forEach((n, i) => {
      if (i > 0) n.parentNodeId = kept[i - 1]!.nodeId
      if (replayConfirmed && this.replayed.has(n)) {
        replayedNodes++
        n.isMeta = true
        n.metadata = { ...n.metadata, replayed: true }
      }
      for (const c of n.toolCalls ?? []) this.applyFacts(c)
    })
    return total === undefined ? { replayedNodes } : { usage: total, replayedNodes }
  }

  private applyFacts(call: ToolCall): void {
    const f = this.callFacts.get(call.id)
    if (f?.exitCode !== undefined && call.exitCode === undefined) call.exitCode = f.exitCode
    if (f?.durationMs !== undefined && call.durationMs === undefined) call.durationMs = f.durationMs
  }
}
