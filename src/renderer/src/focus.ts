/**
 * Which transcript row shows a given message (a search hit's `nodeId`), so the session view can
 * scroll to it and highlight it. A tool result whose call is in the session is shown inside the
 * call's card (see `transcript.ts`): its row is the message that made the call. Pure.
 */
import type { MessageNode } from '../../shared/ir'
import type { TranscriptItem } from './transcript'

/** Where a node is shown. */
export type FocusRow =
  | { kind: 'row'; /** Index in `items`. */ index: number; /** The `data-node-id` of the row to scroll to. */ rowNodeId: string }
  /** The node is injected text hidden behind the "show system/injected messages" toggle. */
  | { kind: 'hidden-meta' }

/**
 * Find the row of `nodeId`: its own row; else (a paired tool result) the row of the message that
 * made the call; else (a node with nothing to show, or hidden) the nearest row before it. `null`
 * when the session has no such node.
 */
export function findFocusRow(items: readonly TranscriptItem[], nodes: readonly MessageNode[], nodeId: string, showMeta: boolean): FocusRow | null {
  const direct = items.findIndex((it) => it.node.nodeId === nodeId)
  if (direct >= 0) return { kind: 'row', index: direct, rowNodeId: nodeId }
  const at = nodes.findIndex((n) => n.nodeId === nodeId)
  const node = nodes[at]
  if (!node) return null
  if (node.isMeta && !showMeta) return { kind: 'hidden-meta' }
  if (node.role === 'tool' && node.toolCallId) {
    const callId = node.toolCallId
    const owner = items.findIndex((it) => it.node.toolCalls?.some((c) => c.id === callId))
    if (owner >= 0) return { kind: 'row', index: owner, rowNodeId: items[owner]!.node.nodeId }
  }
  const position = new Map(nodes.map((n, i) => [n.nodeId, i]))
  let best = -1
  items.forEach((it, i) => {
    if ((position.get(it.node.nodeId) ?? Number.POSITIVE_INFINITY) <= at) best = i
  })
  return best >= 0 ? { kind: 'row', index: best, rowNodeId: items[best]!.node.nodeId } : null
}
