/**
 * Compaction pairs and the ATIF second source, applied to built Devin nodes.
 *
 * Compaction (`shared/formats/cursor-devin-atif-acp.md` C4 "Compaction", edge case 36): two
 * consecutive chain nodes share node-metadata `summarized_from = <old head node_id>` — first an
 * assistant node with the summary markdown, then a system node ("You are continuing work from a
 * previous conversation thread…", with `Full conversation history saved at <path>.`) carrying
 * `devin-rs/summary{source}`, `compact/edited_files{paths}`, `compact/todo_list`. The first node of
 * each group becomes an `event: 'compaction'` node holding the facts; the rest are `isMeta`.
 */
import type { MessageNode } from '../../../shared/ir'
import { stepCallIds, stepRequestId, type Atif } from './atif'
import { extensionsOf } from './message'
import { arr, type Json, nonEmpty, num, obj, str } from './json'

/** Mark compaction groups among `nodes` (output order). `nodeMeta`/`msgs` are keyed by nodeId. */
export function markCompactions(nodes: MessageNode[], nodeMeta: Map<string, Json>, msgs: Map<string, Json>): number {
  const groups = new Map<number, MessageNode[]>()
  for (const n of nodes) {
    const from = num(nodeMeta.get(n.nodeId)?.summarized_from)
    if (from === undefined) continue
    const g = groups.get(from)
    if (g) g.push(n)
    else groups.set(from, [n])
  }
  for (const [from, group] of groups) {
    const facts: Json = { summarizedFrom: String(from) }
    for (const n of group) {
      const pre = num(nodeMeta.get(n.nodeId)?.num_tokens_preceding)
      if (pre !== undefined) facts.preTokens = Math.max(pre, num(facts.preTokens) ?? 0)
      const msg = msgs.get(n.nodeId) ?? {}
      const ext = extensionsOf(msg)
      const source = str(obj(ext['devin-rs/summary'])?.source)
      if (source !== undefined) facts.source = source
      const paths = arr(obj(ext['compact/edited_files'])?.paths)
      if (paths) facts.editedFiles = paths
      const todos = obj(ext['compact/todo_list'])?.todos ?? (arr(ext['compact/todo_list']) ? ext['compact/todo_list'] : undefined)
      if (todos !== undefined) facts.todoList = todos
      const m = /Full conversation history saved at (\S+)/.exec(n.content)
      if (m?.[1]) facts.historyPath = m[1].replace(/\.$/, '')
    }
    const [first, ...rest] = group
    first!.event = 'compaction'
    delete first!.isMeta
    first!.metadata = { ...first!.metadata, compaction: facts }
    for (const n of rest) {
      n.isMeta = true
      n.metadata = { ...n.metadata, compactionOf: String(from) }
    }
  }
  return groups.size
}

/**
 * Fill `thinking` of main-thread assistant nodes that lack it from ATIF `reasoning_content`
 * (Devin exports thinking there). A step matches a node by a shared tool-call id, then the
 * request id, then identical message text, then position when both lists have the same length.
 * Returns the number of nodes filled (their `metadata.thinkingSource = 'atif'`).
 */
export function fillReasoning(assistants: MessageNode[], atif: Atif): number {
  const steps = atif.steps.filter((s) => s.source === 'agent')
  const used = new Set<number>()
  let filled = 0
  const match = (n: MessageNode, i: number): Json | undefined => {
    const ids = new Set((n.toolCalls ?? []).map((c) => c.id))
    const tests: ((s: Json) => boolean)[] = [
      (s) => stepCallIds(s).some((id) => ids.has(id)),
      (s) => n.requestId !== undefined && stepRequestId(s) === n.requestId,
      (s) => n.content.trim() !== '' && typeof s.message === 'string' && s.message === n.content,
    ]
    for (const t of tests) {
      const k = steps.findIndex((s, j) => !used.has(j) && t(s))
      if (k >= 0) {
        used.add(k)
        return steps[k]
      }
    }
    if (steps.length === assistants.length && !used.has(i)) {
      used.add(i)
      return steps[i]
    }
    return undefined
  }
  assistants.forEach((n, i) => {
    const step = match(n, i)
    const reasoning = nonEmpty(step?.reasoning_content)
    if (n.thinking !== undefined || reasoning === undefined) return
    n.thinking = reasoning
    n.metadata = { ...n.metadata, thinkingSource: 'atif' }
    filled++
  })
  return filled
}
