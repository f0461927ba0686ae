/**
 * The `message_nodes` forest of one Devin session: chain walk, copy folding, twin folding.
 *
 * Store facts (`shared/formats/cursor-devin-atif-acp.md` C4, edge cases 31-33; seed 002 "Format
 * surprises"):
 * - `(session_id, node_id)` is the key; `parent_node_id` NULL is a root. The transcript is the walk
 *   from the head (`sessions.main_chain_id`, else the largest `node_id`) up to a root, reversed.
 * - A context rebuild writes a new chain that copies earlier messages with the **same
 *   `message_id`**: copies are one message. The copy on the main chain is kept; the others are
 *   folded into it (their children hang under it).
 * - Imports write every assistant turn twice (unrendered + rendered twins, seed 002 last
 *   paragraph). The exact marker is undocumented [L], so a twin is recognised by shape: an
 *   assistant node directly under an assistant node with the same text and the same tool-call
 *   ids (and no conflicting request id). The twin is folded into the first.
 * - Topology comes from the plain columns, never from the JSON: a corrupt `chat_message` drops
 *   only its own node; its children hang under its nearest kept ancestor.
 */
import type { MessageNode } from '../../../shared/ir'

/** `node_id` → `parent_node_id` (null for roots), for every row of the session. */
export type Parents = Map<number, number | null>

/** A walk from `head` to its root, in transcript order (root first). */
export interface Chain {
  ids: number[]
  /** True when the walk met a node twice (a cycle) and stopped there. */
  cycle: boolean
  /** A parent id named by a chain node that has no row (the chain starts below it). */
  missingParent?: number
}

/** Walk `parent_node_id` links from `head` to a root and reverse. Cycles end the walk. */
export function walkChain(parents: Parents, head: number): Chain {
  const ids: number[] = []
  const seen = new Set<number>()
  let cur: number | null | undefined = head
  let cycle = false
  let missingParent: number | undefined
  while (cur !== null && cur !== undefined) {
    if (seen.has(cur)) {
      cycle = true
      break
    }
    if (!parents.has(cur)) {
      missingParent = cur
      break
    }
    seen.add(cur)
    ids.push(cur)
    cur = parents.get(cur)
  }
  ids.reverse()
  return missingParent === undefined ? { ids, cycle } : { ids, cycle, missingParent }
}

/** Why the head is not `main_chain_id`: NULL, naming no row, or no such column (older schema). */
export type HeadFallback = 'null' | 'missing' | 'absent'

/** The head node: `main_chain_id` when it names a row, else the largest `node_id`. */
export function pickHead(parents: Parents, mainChainId: number | null | undefined): { head?: number; fallback?: HeadFallback } {
  if (mainChainId !== null && mainChainId !== undefined && parents.has(Number(mainChainId))) return { head: Number(mainChainId) }
  const fallback: HeadFallback = mainChainId === undefined ? 'absent' : mainChainId === null ? 'null' : 'missing'
  if (parents.size === 0) return { fallback }
  return { head: Math.max(...parents.keys()), fallback }
}

/** What {@link foldForest} decided. */
export interface Folded {
  /** Kept nodes in output order: the main thread first, then off-chain nodes by node_id. */
  nodes: MessageNode[]
  /** Node ids of the main thread, root first. */
  mainThread: string[]
  /** Nodes folded into another: same `message_id` copies. */
  copies: number
  /** Nodes folded into another: rendered/unrendered twins. */
  twins: number
}

/** Copy fields `into` lacks from `from` (copies and twins can differ in what they recorded); keep the earliest time. */
function fillFrom(into: MessageNode, from: MessageNode): void {
  for (const k of ['thinking', 'thinkingSignature', 'usage', 'model', 'requestId', 'finishReason', 'createdAt', 'blocks'] as const) {
    if (into[k] === undefined && from[k] !== undefined) (into as unknown as Record<string, unknown>)[k] = from[k]
  }
  if (!into.toolCalls?.length && from.toolCalls?.length) into.toolCalls = from.toolCalls
  // One message, first written at the earliest time (copies get re-minted row times, C4).
  if (from.createdAt !== undefined && into.createdAt !== undefined && from.createdAt < into.createdAt) into.createdAt = from.createdAt
}

/** Add a node id to a metadata list on `node`. */
function note(node: MessageNode, key: 'copyNodeIds' | 'twinNodeIds', id: number): void {
  const list = (node.metadata?.[key] as string[] | undefined) ?? []
  node.metadata = { ...node.metadata, [key]: [...list, String(id)] }
}

/** True when `b` (directly under `a`) is the rendered/unrendered twin of assistant `a`. */
function isTwin(a: MessageNode, b: MessageNode): boolean {
  if (a.role !== 'assistant' || b.role !== 'assistant' || a.event || b.event) return false
  if (a.content.trim() === '' && !a.toolCalls?.length) return false
  if (a.content !== b.content) return false
  const ids = (n: MessageNode) => (n.toolCalls ?? []).map((c) => c.id).join('\u0000')
  if (ids(a) !== ids(b)) return false
  return a.requestId === undefined || b.requestId === undefined || a.requestId === b.requestId
}

/**
 * Turn built nodes (keyed by node_id; corrupt rows absent) into the IR forest.
 * `members` are the node ids that belong to this session (all, or one sub-agent chain);
 * `chain` is the main thread; `messageIds` maps node_id → chat_message `message_id`.
 */
export function foldForest(parents: Parents, members: Set<number>, chain: number[], built: Map<number, MessageNode>, messageIds: Map<number, string>): Folded {
  const alias = new Map<number, number>()
  let copies = 0
  let twins = 0

  // 1. Same message_id → one node: the first main-chain copy, else the lowest node_id.
  const groups = new Map<string, number[]>()
  for (const id of members) {
    const mid = messageIds.get(id)
    if (mid === undefined || !built.has(id)) continue
    const g = groups.get(mid)
    if (g) g.push(id)
    else groups.set(mid, [id])
  }
  for (const ids of groups.values()) {
    if (ids.length < 2) continue
    const canonical = chain.find((c) => ids.includes(c)) ?? Math.min(...ids)
    for (const id of ids.sort((a, b) => a - b)) {
      if (id === canonical) continue
      alias.set(id, canonical)
      fillFrom(built.get(canonical)!, built.get(id)!)
      note(built.get(canonical)!, 'copyNodeIds', id)
      copies++
    }
  }

  const kept = (id: number) => members.has(id) && built.has(id) && !alias.has(id)
  /** Nearest kept ancestor of `id` (through aliases and dropped rows). */
  const parentOf = (id: number): number | undefined => {
    let p = parents.get(id) ?? null
    for (let steps = 0; p !== null && steps <= parents.size; steps++) {
      const c = alias.get(p) ?? p
      if (c !== id && kept(c)) return c
      p = parents.get(p) ?? null
    }
    return undefined
  }

  // 2. Rendered/unrendered twins: an assistant directly under its identical assistant.
  for (const id of [...members].sort((a, b) => a - b)) {
    if (!kept(id)) continue
    const p = parentOf(id)
    if (p === undefined) continue
    const a = built.get(p)!
    const b = built.get(id)!
    if (!isTwin(a, b)) continue
    alias.set(id, p)
    fillFrom(a, b)
    note(a, 'twinNodeIds', id)
    twins++
  }

  // 3. Output: main thread in chain order, then the rest by node_id.
  const main: number[] = []
  for (const id of chain) if (kept(id) && !main.includes(id)) main.push(id)
  const mainSet = new Set(main)
  const rest = [...members].filter((id) => kept(id) && !mainSet.has(id)).sort((a, b) => a - b)
  const nodes: MessageNode[] = []
  for (const id of [...main, ...rest]) {
    const node = built.get(id)!
    // The main thread's first node is its root (its ancestors, if any, are dropped or form a cycle).
    const p = id === main[0] ? undefined : parentOf(id)
    if (p !== undefined) node.parentNodeId = String(p)
    if (!mainSet.has(id)) node.metadata = { ...node.metadata, branch: true }
    nodes.push(node)
  }
  breakCycles(nodes)
  return { nodes, mainThread: main.map(String), copies, twins }
}

/** Remove the parent link that closes a cycle (a live store can hold one; the IR must not). */
function breakCycles(nodes: MessageNode[]): void {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]))
  const done = new Set<string>()
  for (const start of nodes) {
    const path = new Set<string>()
    let n: MessageNode | undefined = start
    while (n && !done.has(n.nodeId)) {
      if (path.has(n.nodeId)) {
        delete n.parentNodeId
        break
      }
      path.add(n.nodeId)
      n = n.parentNodeId === undefined ? undefined : byId.get(n.parentNodeId)
    }
    for (const id of path) done.add(id)
  }
}
