/**
 * An assistant message's parts in the order a writer writes them (issue 14, "Order inside an
 * assistant message is lost"), shared by every writer (`agents/<agent>/write*.ts`) and by
 * `convert/`. A module of its own so that neither imports the other for it.
 *
 * The order: the node's {@link MessageNode.partOrder} when it has one (Claude Code stores one record
 * per content block, so a reply may be [text, tool_use, text]), else "thinking, then `blocks` (or
 * `content` as one text), then `toolCalls`" (src/shared/ir.ts). A call that conversion split
 * (`<id>_2`... after `<id>`, prepare.ts) follows its first part; parts the order does not name come
 * last (an unnamed thinking first). Server-side calls are no longer calls here: prepare.ts made them
 * text blocks in their call's place.
 */
import type { ContentBlock, MessageNode, ToolCall } from '../../shared/ir'

/**
 * One part: `thinking` (the node's `thinking`/`thinkingSignature`, present when either is set),
 * `block` (`blocks[index]`; `index` is -1 for the text of a node without blocks), `call`.
 */
export type AssistantPart = { kind: 'thinking' } | { kind: 'block'; block: ContentBlock; index: number } | { kind: 'call'; call: ToolCall }

/** The parts of assistant node `n`, each once, in the order described in the module comment. */
export function assistantParts(n: MessageNode): AssistantPart[] {
  const calls = n.toolCalls ?? []
  const hasThinking = n.thinking !== undefined || n.thinkingSignature !== undefined
  if (!n.partOrder || !n.blocks) {
    const out: AssistantPart[] = hasThinking ? [{ kind: 'thinking' }] : []
    if (n.blocks) n.blocks.forEach((block, index) => out.push({ kind: 'block', block, index }))
    else if (n.content !== '') out.push({ kind: 'block', block: { type: 'text', text: n.content }, index: -1 })
    for (const call of calls) out.push({ kind: 'call', call })
    return out
  }
  const out: AssistantPart[] = []
  const usedCalls = new Set<ToolCall>()
  const usedBlocks = new Set<number>()
  let thought = false
  for (const p of n.partOrder) {
    if (p.part === 'thinking') {
      if (hasThinking && !thought) out.push({ kind: 'thinking' })
      thought = true
    } else if (p.part === 'block') {
      const block = n.blocks[p.index]
      if (block && !usedBlocks.has(p.index)) out.push({ kind: 'block', block, index: p.index })
      usedBlocks.add(p.index)
    } else {
      for (const call of calls) {
        if (usedCalls.has(call) || !(call.id === p.id || call.id.startsWith(`${p.id}_`))) continue
        usedCalls.add(call)
        out.push({ kind: 'call', call })
      }
    }
  }
  if (hasThinking && !thought) out.unshift({ kind: 'thinking' })
  n.blocks.forEach((block, index) => !usedBlocks.has(index) && out.push({ kind: 'block', block, index }))
  for (const call of calls) if (!usedCalls.has(call)) out.push({ kind: 'call', call })
  return out
}

/**
 * One model turn of a target whose assistant record holds its content, then its calls (Gemini CLI
 * `{content, toolCalls}`, Devin `{content, tool_calls}`): the blocks before the calls, the calls,
 * and whether the node's thinking is in this turn (only in the first).
 */
export interface AssistantSegment {
  thinking: boolean
  blocks: ContentBlock[]
  calls: ToolCall[]
}

/**
 * Assistant node `n` as consecutive turns, each "blocks, then calls": a new turn starts where a
 * block follows a call ([text, tool_use, text] → [text, tool_use] + [text]). One segment for a node
 * whose parts are in the usual order (thinking, blocks, calls).
 */
export function assistantSegments(n: MessageNode): AssistantSegment[] {
  const out: AssistantSegment[] = []
  let cur: AssistantSegment = { thinking: false, blocks: [], calls: [] }
  for (const p of assistantParts(n)) {
    // A block with nothing to write (a dropped block's empty place) starts no turn.
    if (p.kind === 'block' && (p.block.type === 'text' || p.block.type === 'unknown') && !p.block.text) continue
    if (p.kind === 'call') cur.calls.push(p.call)
    else {
      if (cur.calls.length > 0) {
        out.push(cur)
        cur = { thinking: false, blocks: [], calls: [] }
      }
      if (p.kind === 'thinking') cur.thinking = true
      else cur.blocks.push(p.block)
    }
  }
  out.push(cur)
  // Thinking belongs to the message's first turn, wherever the source placed it.
  if (out.some((s) => s.thinking)) out.forEach((s, i) => (s.thinking = i === 0))
  return out
}

/** The text of `blocks` for a target that writes one text: text (and unknown blocks' text) joined by blank lines. */
export function textOfBlocks(blocks: readonly ContentBlock[]): string {
  return blocks
    .flatMap((b) => ((b.type === 'text' || b.type === 'unknown') && b.text ? [b.text] : []))
    .join('\n\n')
}

/** A part for a target whose text is one string between calls: `thinking`, a run of text, a call. */
export type TextRun = { kind: 'thinking' } | { kind: 'text'; text: string } | { kind: 'call'; call: ToolCall }

/**
 * Assistant node `n` for a target that writes text, not blocks, between its calls (Codex message
 * items, OpenCode `text` parts): each run of consecutive blocks as one text ({@link textOfBlocks};
 * empty runs left out), the thinking and each call in place. Without `partOrder`: thinking, then
 * `content` (when not empty), then the calls.
 */
export function assistantTextRuns(n: MessageNode): TextRun[] {
  const hasThinking = n.thinking !== undefined || n.thinkingSignature !== undefined
  if (!n.partOrder || !n.blocks) {
    const out: TextRun[] = hasThinking ? [{ kind: 'thinking' }] : []
    if (n.content !== '') out.push({ kind: 'text', text: n.content })
    for (const call of n.toolCalls ?? []) out.push({ kind: 'call', call })
    return out
  }
  const out: TextRun[] = []
  let run: ContentBlock[] = []
  const flush = (): void => {
    const text = textOfBlocks(run)
    if (text !== '') out.push({ kind: 'text', text })
    run = []
  }
  for (const p of assistantParts(n)) {
    if (p.kind === 'block') run.push(p.block)
    else {
      flush()
      out.push(p.kind === 'call' ? { kind: 'call', call: p.call } : { kind: 'thinking' })
    }
  }
  flush()
  return out
}

/**
 * Assistant node `n` as the turns of a target whose assistant record holds text, then calls (see
 * {@link assistantSegments}): one node per segment, `content` its text in order, `blocks` only
 * when it keeps a non-text block, no `partOrder`; thinking and usage on the first. Ids
 * `<nodeId>#<k>` from the second on. `[n]` itself when `n` has no `partOrder`.
 */
export function assistantTurns(n: MessageNode): MessageNode[] {
  if (!n.partOrder) return [n]
  return assistantSegments(n).map((seg, i) => {
    const t: MessageNode = { nodeId: i === 0 ? n.nodeId : `${n.nodeId}#${i + 1}`, role: 'assistant', content: textOfBlocks(seg.blocks) }
    if (seg.blocks.some((b) => b.type !== 'text' && b.type !== 'unknown')) t.blocks = seg.blocks
    if (seg.calls.length) t.toolCalls = seg.calls
    for (const k of ['createdAt', 'model', 'requestId', 'finishReason'] as const) if (n[k] !== undefined) (t as unknown as Record<string, unknown>)[k] = n[k]
    if (i === 0) {
      if (n.usage) t.usage = n.usage
      if (n.thinking !== undefined) t.thinking = n.thinking
      if (n.thinkingSignature !== undefined) t.thinkingSignature = n.thinkingSignature
      if (n.metadata) t.metadata = n.metadata
    }
    return t
  })
}

/**
 * A prepared, linear node list (each assistant node followed by its calls' results, prepare.ts)
 * with every assistant node replaced by its {@link assistantTurns}, each followed by the results of
 * its own calls. Nodes without `partOrder` are passed through.
 */
export function splitAssistantTurns(nodes: readonly MessageNode[]): MessageNode[] {
  const out: MessageNode[] = []
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!
    if (n.role !== 'assistant' || !n.partOrder) {
      out.push(n)
      continue
    }
    const results: MessageNode[] = []
    while (nodes[i + 1]?.role === 'tool') results.push(nodes[++i]!)
    const used = new Set<MessageNode>()
    for (const t of assistantTurns(n)) {
      out.push(t)
      for (const c of t.toolCalls ?? []) {
        const r = results.find((x) => x.toolCallId === c.id && !used.has(x))
        if (r) {
          used.add(r)
          out.push(r)
        }
      }
    }
    out.push(...results.filter((r) => !used.has(r)))
  }
  return out
}
