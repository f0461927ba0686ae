import { describe, expect, it } from 'vitest'
import { kitchenSink } from './test/fixtures'
import { buildTranscript, countMessages } from './transcript'

describe('buildTranscript', () => {
  const s = kitchenSink()

  it('hides paired tool results and injected text, keeps events and orphan results', () => {
    const t = buildTranscript(s.nodes, false)
    expect(t.items.map((i) => [i.kind, i.node.nodeId])).toEqual([
      ['message', 'u1'],
      ['message', 'a1'],
      ['event', 'e1'],
      ['orphan-result', 'r9'],
      ['message', 'a2'],
    ])
    expect(t.metaCount).toBe(1)
    expect([...t.results.keys()]).toEqual(['t1', 't2'])
    expect(t.results.get('t1')!.nodeId).toBe('r1')
  })

  it('shows injected text when asked', () => {
    const t = buildTranscript(s.nodes, true)
    expect(t.items.map((i) => i.node.nodeId)).toEqual(['u1', 'm1', 'a1', 'e1', 'r9', 'a2'])
    expect(t.metaCount).toBe(1)
  })

  it('marks an assistant message that continues an assistant turn', () => {
    const nodes = [s.nodes[0]!, s.nodes[2]!, s.nodes[7]!]
    const t = buildTranscript(nodes, false)
    expect(t.items.map((i) => (i.kind === 'message' ? i.continued : null))).toEqual([false, false, true])
  })

  it('counts user and assistant messages without events or injected text', () => {
    expect(countMessages(s)).toBe(4)
  })
})
