/**
 * The main thread of a session: the messages a target should replay, in order.
 *
 * The IR is a forest (`parentNodeId`): rewinds and edits leave branches (Claude Code `parentUuid`,
 * Devin `parent_node_id`, seed 002 "Message tree"). A target stores one linear conversation, so a
 * conversion keeps the main thread:
 * - `session.metadata.mainThread` (node ids) when the reader recorded it (Devin's chain walk);
 * - else the walk from the newest non-branch message up its parents. A root that is not the first
 *   message (a parent link that names no record) continues from the message just before it in file
 *   order, so a broken link does not cut the history;
 * - tool results whose parent is on the thread and whose call is on it are added (Claude Code can
 *   hang parallel results side by side under one assistant message).
 * Output keeps file order. Devin's rendered/unrendered twins are folded by {@link foldTwins}.
 */
import type { MessageNode, Session } from '../../shared/ir'

/** The main thread and how many nodes were left off it. */
export interface Thread {
  nodes: MessageNode[]
  /** Nodes not on the main thread (abandoned branches). */
  offThread: number
}

/** Select the main thread of `session` (see the module comment). Never mutates the session. */
export function selectThread(session: Session): Thread {
  const all = session.nodes
  const recorded = session.metadata?.mainThread
  if (Array.isArray(recorded) && recorded.length > 0 && recorded.every((x) => typeof x === 'string')) {
    const byId = new Map(all.map((n) => [n.nodeId, n]))
    const nodes = (recorded as string[]).map((id) => byId.get(id)).filter((n): n is MessageNode => !!n)
    if (nodes.length > 0) return { nodes, offThread: all.length - nodes.length }
  }
  const index = new Map(all.map((n, i) => [n.nodeId, i]))
  const onThread = new Set<number>()
  let leaf = -1
  for (let i = all.length - 1; i >= 0; i--) {
    if (all[i]!.metadata?.branch !== true) {
      leaf = i
      break
    }
  }
  let cur = leaf
  while (cur >= 0 && !onThread.has(cur)) {
    onThread.add(cur)
    const p = all[cur]!.parentNodeId
    const pi = p === undefined ? undefined : index.get(p)
    if (pi !== undefined && !onThread.has(pi)) {
      cur = pi
      continue
    }
    // A root (or a link to a missing record): continue from the nearest earlier message.
    let prev = cur - 1
    while (prev >= 0 && (onThread.has(prev) || all[prev]!.metadata?.branch === true)) prev--
    cur = prev
  }
  // Results hanging beside the thread under a call on it.
  const calls = new Set<string>()
  for (const i of onThread) for (const c of all[i]!.toolCalls ?? []) calls.add(c.id)
  all.forEach((n, i) => {
    if (onThread.has(i) || n.role !== 'tool' || !n.toolCallId || !calls.has(n.toolCallId)) return
    const pi = n.parentNodeId === undefined ? undefined : index.get(n.parentNodeId)
    if (pi !== undefined && onThread.has(pi)) onThread.add(i)
  })
  const nodes = all.filter((_, i) => onThread.has(i))
  return { nodes, offThread: all.length - nodes.length }
}

/**
 * Fold rendered/unrendered twins (seed 002 "Format surprises": Devin writes every imported assistant
 * turn twice): an assistant message right after an assistant message with the same text, thinking
 * and tool-call ids is dropped. Returns the kept nodes and the number folded.
 */
export function foldTwins(nodes: MessageNode[]): { nodes: MessageNode[]; folded: number } {
  const out: MessageNode[] = []
  let folded = 0
  for (const n of nodes) {
    const prev = out[out.length - 1]
    if (prev && prev.role === 'assistant' && n.role === 'assistant' && isTwin(prev, n)) {
      folded++
      continue
    }
    out.push(n)
  }
  return { nodes: out, folded }
}

function isTwin(a: MessageNode, b: MessageNode): boolean {
  if (a.content.trim() !== b.content.trim() || (a.thinking ?? '') !== (b.thinking ?? '')) return false
  const ids = (n: MessageNode) => (n.toolCalls ?? []).map((c) => c.id).join('\u0000')
  if (ids(a) !== ids(b)) return false
  return a.content.trim() !== '' || (a.toolCalls?.length ?? 0) > 0
}
