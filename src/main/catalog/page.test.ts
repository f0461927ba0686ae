import { describe, expect, it } from 'vitest'
import type { MessageNode, Session } from '../../shared/ir'
import { findIn, pageOf, statsOf } from './page'

function node(i: number, extra: Partial<MessageNode> = {}): MessageNode {
  return { nodeId: `n${i}`, role: i % 2 ? 'assistant' : 'user', content: `message ${i}`, ...extra }
}
const nodes: MessageNode[] = Array.from({ length: 50 }, (_, i) => node(i))
nodes[7] = node(7, { content: 'The Needle and the needle', usage: { inputTokens: 10, cost: 0.5 } })
nodes[8] = node(8, { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'Bash', kind: 'execute', arguments: { command: 'grep NEEDLE' } }], usage: { inputTokens: 5 } })
nodes[9] = node(9, { content: 'needle, injected', isMeta: true })
const session = { id: 's', agent: 'claude-code', nodes } as unknown as Session

describe('pageOf / findIn (issue 15, 17)', () => {
  it('serves the page that holds a node id', () => {
    const p = pageOf(session, { limit: 20, nodeId: 'n45' })
    expect(p.offset).toBe(40)
    expect(p.nodes.map((n) => n.nodeId)).toContain('n45')
    expect(p.totalNodes).toBe(50)
  })

  it('counts the whole session for a paged view', () => {
    const expected = { messages: nodes.filter((n) => !n.isMeta).length, toolCalls: 1, metaNodes: 1 }
    expect(statsOf(session)).toEqual({ ...expected, usage: { inputTokens: 15, cost: 0.5 } })
    expect(pageOf(session, { limit: 5 }).stats?.toolCalls).toBe(1)
  })

  it('finds text case-insensitively in content and tool arguments, injected text only when asked', () => {
    const r = findIn(session, 'needle')
    expect(r.matches).toEqual([
      { nodeIndex: 7, nodeId: 'n7', count: 2 },
      { nodeIndex: 8, nodeId: 'n8', count: 1 },
    ])
    expect(r.total).toBe(3)
    expect(findIn(session, 'needle', { includeMeta: true }).matches.map((m) => m.nodeIndex)).toEqual([7, 8, 9])
    expect(findIn(session, 'needle', { limit: 1 })).toMatchObject({ more: true, total: 3 })
    expect(findIn(session, '  ').matches).toEqual([])
    expect(() => findIn(session, 3 as unknown as string)).toThrow(/text/)
  })
})
