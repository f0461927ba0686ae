/**
 * An assistant node's parts in the order a writer writes them, for targets whose message is one
 * list of parts (Qwen Code `parts[]`, Pi `content[]`): its blocks (or its text), then its calls;
 * or, when it keeps its parts' order (`MessageNode.partOrder`, issue 14), each block and call where
 * the source had it (a call split by conversion, `<id>_2`..., follows its first part), and parts it
 * does not name last. Thinking is not listed: the targets using this take none (provider family
 * `any`, src/main/convert/thinking.ts).
 */
import type { ContentBlock, MessageNode, ToolCall } from '../../shared/ir'

/** One part: a content block or a tool call. */
export type OrderedPart = { kind: 'block'; block: ContentBlock } | { kind: 'call'; call: ToolCall }

/** The parts of `n` in writing order (see the module comment). A node without blocks gives its `content` as one text block (none when empty). */
export function orderedParts(n: MessageNode): OrderedPart[] {
  const calls = n.toolCalls ?? []
  const asCalls = (cs: ToolCall[]): OrderedPart[] => cs.map((call) => ({ kind: 'call' as const, call }))
  if (!n.partOrder || !n.blocks) {
    const blocks: ContentBlock[] = n.blocks ?? (n.content === '' ? [] : [{ type: 'text', text: n.content }])
    return [...blocks.map((block) => ({ kind: 'block' as const, block })), ...asCalls(calls)]
  }
  const out: OrderedPart[] = []
  const usedCalls = new Set<ToolCall>()
  const usedBlocks = new Set<number>()
  for (const p of n.partOrder) {
    if (p.part === 'block') {
      const b = n.blocks[p.index]
      if (b && !usedBlocks.has(p.index)) out.push({ kind: 'block', block: b })
      usedBlocks.add(p.index)
    } else if (p.part === 'tool-call') {
      for (const c of calls) {
        if (usedCalls.has(c) || !(c.id === p.id || c.id.startsWith(`${p.id}_`))) continue
        usedCalls.add(c)
        out.push({ kind: 'call', call: c })
      }
    }
  }
  n.blocks.forEach((block, i) => !usedBlocks.has(i) && out.push({ kind: 'block', block }))
  out.push(...asCalls(calls.filter((c) => !usedCalls.has(c))))
  return out
}
