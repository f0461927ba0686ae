/**
 * A session's nodes as rows of the transcript: conversation messages, thin event markers, and
 * tool results that have no call. A tool result whose call is in the session (`role: "tool"`,
 * same `toolCallId`, seed 002 "What the IR captures today") is not a row: the call's card shows it.
 * Pure; the components only render what this returns.
 */
import type { MessageNode, Session } from '../../shared/ir'

/** One row of the transcript. `key` is unique within the transcript. */
export type TranscriptItem =
  | {
      kind: 'message'
      key: string
      node: MessageNode
      /** True when it continues the previous row's assistant turn (the header is kept short). */
      continued: boolean
    }
  | { kind: 'event'; key: string; node: MessageNode }
  | { kind: 'orphan-result'; key: string; node: MessageNode }

/** What the session view renders. */
export interface Transcript {
  items: TranscriptItem[]
  /** Tool results by the id of the call they answer. */
  results: Map<string, MessageNode>
  /** Nodes hidden because they are injected text (`isMeta`) or system prompts. */
  metaCount: number
}

/** True when a node carries something to show (text, blocks, thinking or tool calls). */
export function hasVisibleContent(n: MessageNode): boolean {
  return (
    n.content.trim() !== '' ||
    (n.blocks?.length ?? 0) > 0 ||
    (n.thinking?.trim() ?? '') !== '' ||
    (n.toolCalls?.length ?? 0) > 0
  )
}

/** True when a node is injected text hidden behind the "Show system/injected messages" toggle. */
export function isHiddenByDefault(n: MessageNode): boolean {
  return n.isMeta === true
}

/**
 * Build the transcript rows. `showMeta` includes `isMeta` nodes (they are counted either way).
 * Nodes with nothing to show are skipped; event nodes become marker rows.
 */
export function buildTranscript(nodes: readonly MessageNode[], showMeta: boolean): Transcript {
  const callIds = new Set<string>()
  for (const n of nodes) for (const c of n.toolCalls ?? []) callIds.add(c.id)
  const results = new Map<string, MessageNode>()
  for (const n of nodes) {
    if (n.role === 'tool' && n.toolCallId && callIds.has(n.toolCallId) && !results.has(n.toolCallId)) {
      results.set(n.toolCallId, n)
    }
  }

  const items: TranscriptItem[] = []
  let metaCount = 0
  nodes.forEach((node, i) => {
    const key = `${i}:${node.nodeId}`
    if (isHiddenByDefault(node)) {
      metaCount++
      if (!showMeta) return
    }
    if (node.event) {
      items.push({ kind: 'event', key, node })
      return
    }
    if (node.role === 'tool') {
      if (node.toolCallId && results.get(node.toolCallId) === node) return
      items.push({ kind: 'orphan-result', key, node })
      return
    }
    if (!hasVisibleContent(node)) return
    const prev = items[items.length - 1]
    const continued = node.role === 'assistant' && prev?.kind === 'message' && prev.node.role === 'assistant'
    items.push({ kind: 'message', key, node, continued })
  })
  return { items, results, metaCount }
}

/** user + assistant messages, events and injected text not counted (as `summarize` in src/main/ir/build.ts). */
export function countMessages(session: Pick<Session, 'nodes'>): number {
  let n = 0
  for (const node of session.nodes) {
    if ((node.role === 'user' || node.role === 'assistant') && !node.event && !node.isMeta) n++
  }
  return n
}
