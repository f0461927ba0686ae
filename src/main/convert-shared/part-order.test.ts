/** The shared parts-order iterator (issue 14) on hand-built nodes: order, split calls, empty places, turns. */
import { describe, expect, it } from 'vitest'
import type { MessageNode } from '../../shared/ir'
import { assistantParts, assistantSegments, assistantTextRuns, splitAssistantTurns } from './part-order'

const call = (id: string) => ({ id, name: 'bash', kind: 'execute' as const, arguments: { command: 'ls' } })
/** [text A, call c1 (split by conversion into c1 and c1_2), empty place, text B, call c2], thinking unnamed. */
function node(): MessageNode {
  return {
    nodeId: 'a1',
    role: 'assistant',
    content: 'A\n\nB',
    thinking: 't',
    thinkingSignature: 'sig',
    blocks: [{ type: 'text', text: 'A' }, { type: 'text', text: '' }, { type: 'text', text: 'B' }],
    toolCalls: [call('c1'), call('c1_2'), call('c2')],
    partOrder: [{ part: 'block', index: 0 }, { part: 'tool-call', id: 'c1' }, { part: 'block', index: 1 }, { part: 'block', index: 2 }, { part: 'tool-call', id: 'c2' }],
  }
}
const name = (p: ReturnType<typeof assistantParts>[number]): string => (p.kind === 'thinking' ? 'thinking' : p.kind === 'call' ? p.call.id : `text:${(p.block as { text: string }).text}`)

describe('assistantParts', () => {
  it('follows partOrder; a split call follows its first part; unnamed thinking first', () => {
    expect(assistantParts(node()).map(name)).toEqual(['thinking', 'text:A', 'c1', 'c1_2', 'text:', 'text:B', 'c2'])
  })
  it('without partOrder: thinking, content, calls', () => {
    const { partOrder: _p, blocks: _b, ...n } = node()
    expect(assistantParts(n).map(name)).toEqual(['thinking', 'text:A\n\nB', 'c1', 'c1_2', 'c2'])
  })
})

describe('assistantTextRuns and assistantSegments', () => {
  it('runs of text between calls, empty runs left out', () => {
    expect(assistantTextRuns(node()).map((p) => (p.kind === 'text' ? p.text : p.kind === 'call' ? p.call.id : p.kind))).toEqual(['thinking', 'A', 'c1', 'c1_2', 'B', 'c2'])
  })
  it('a new turn where text follows a call; the empty place starts none; thinking in the first', () => {
    const segs = assistantSegments(node())
    expect(segs.map((s) => ({ thinking: s.thinking, texts: s.blocks.map((b) => (b as { text: string }).text), calls: s.calls.map((c) => c.id) }))).toEqual([
      { thinking: true, texts: ['A'], calls: ['c1', 'c1_2'] },
      { thinking: false, texts: ['B'], calls: ['c2'] },
    ])
  })
})

describe('splitAssistantTurns', () => {
  it('each turn followed by the results of its own calls', () => {
    const r = (id: string): MessageNode => ({ nodeId: `r-${id}`, role: 'tool', content: id, toolCallId: id })
    const out = splitAssistantTurns([{ nodeId: 'u1', role: 'user', content: 'go' }, node(), r('c1'), r('c1_2'), r('c2')])
    expect(out.map((n) => n.nodeId)).toEqual(['u1', 'a1', 'r-c1', 'r-c1_2', 'a1#2', 'r-c2'])
    expect(out[1]).toMatchObject({ content: 'A', thinkingSignature: 'sig' })
    expect(out[4]).toMatchObject({ content: 'B' })
    expect(out[4]!.thinkingSignature).toBeUndefined()
    expect(out.some((n) => n.partOrder)).toBe(false)
  })
})
