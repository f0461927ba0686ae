/**
 * Pair every tool call with its result, in the order the target needs: an assistant message with
 * calls, then one result per call, in call order (the Anthropic and Chat Completions APIs require
 * the results right after the calls; the real Claude Code silently drops a `tool_use` without its
 * `tool_result`, realstores/README.md "Claude Code 2.1.332").
 * - A result stored elsewhere (after other messages) is moved right after its call.
 * - A result whose call is not in the thread (an orphan: compaction dropped the call) becomes plain
 *   user text (seed 002 "Compaction": "Orphaned tool_results ... are kept as plain user text").
 * - A call with no result gets a placeholder result later (`prepare.ts`), counted here.
 */
import type { MessageNode, ToolCall } from '../../shared/ir'
import type { WarningSink } from './warnings'

/** One call and the result that answers it (absent when none was recorded). */
export interface CallPair {
  call: ToolCall
  result?: MessageNode
}

/** A message, or an assistant message with its calls paired. */
export type Item = { type: 'message'; node: MessageNode } | { type: 'calls'; node: MessageNode; pairs: CallPair[] }

/** Text written for a result whose call is missing. */
export function orphanText(node: MessageNode): string {
  return `[Result of a tool call${node.toolName ? ` (${node.toolName})` : ''} that is not in this conversation]\n${node.content}`
}

/**
 * Group `nodes` (user/assistant/tool only) into items with every call paired (see the module comment).
 * Calls `isServerCall` says the provider ran (their result is not a tool node) are not counted as unpaired.
 */
export function pairResults(nodes: MessageNode[], sink: WarningSink, isServerCall: (c: ToolCall) => boolean = () => false): Item[] {
  // Results by call id, in order, so duplicated ids are claimed one by one.
  const byId = new Map<string, number[]>()
  nodes.forEach((n, i) => {
    if (n.role === 'tool' && n.toolCallId) byId.set(n.toolCallId, [...(byId.get(n.toolCallId) ?? []), i])
  })
  const claimed = new Set<number>()
  const claim = (id: string, after: number): number | undefined => {
    const list = byId.get(id) ?? []
    const pick = list.find((i) => i > after && !claimed.has(i)) ?? list.find((i) => !claimed.has(i))
    if (pick !== undefined) claimed.add(pick)
    return pick
  }
  const items: Item[] = []
  let moved = 0
  let unpaired = 0
  nodes.forEach((n, i) => {
    if (n.role === 'tool') {
      if (claimed.has(i)) return
      items.push({ type: 'message', node: { ...n, role: 'user', content: orphanText(n), toolCallId: undefined, toolName: undefined, isError: undefined } })
      sink.add({ kind: 'orphan-result-as-text', count: 1 })
      return
    }
    if (n.role !== 'assistant' || !n.toolCalls?.length) {
      items.push({ type: 'message', node: n })
      return
    }
    const pairs: CallPair[] = []
    let expectAt = i + 1
    for (const call of n.toolCalls) {
      const at = claim(call.id, i)
      if (at === undefined) {
        if (!isServerCall(call)) unpaired++
        pairs.push({ call })
        continue
      }
      // In place when it is the next unclaimed tool node after the call (or its siblings).
      while (expectAt < nodes.length && claimed.has(expectAt) && expectAt !== at) expectAt++
      if (at !== expectAt) moved++
      else expectAt++
      pairs.push({ call, result: nodes[at] })
    }
    items.push({ type: 'calls', node: n, pairs })
  })
  sink.add({ kind: 'result-moved', count: moved })
  sink.add({ kind: 'unpaired-call-result-added', count: unpaired })
  return items
}
