import { describe, expect, it } from 'vitest'
import { kitchenSink } from './test/fixtures'
import { buildTranscript, countMessages, taskNotification } from './transcript'

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

describe('task notifications (Claude Code background tasks)', () => {
  // As the real Claude Code 2.1.332 wrote it (fixtures/real/claude-code, session 168ccd27).
  const text =
    '<task-notification>\n<task-id>a3f2b5aeb6dc75f4e</task-id>\n<tool-use-id>toolu_mock_1</tool-use-id>\n<output-file>/home/ana/tmp/x.output</output-file>\n' +
    '<status>completed</status>\n<summary>Agent "Summarize git history" finished</summary>\n<note>A task-notification fires each time…</note>\n' +
    '<result>Sub-agent report: the repository has a short history.</result>\n</task-notification>'

  it('parses the fields and shows the message as a marker, not as the user typing', () => {
    expect(taskNotification(text)).toEqual({ taskId: 'a3f2b5aeb6dc75f4e', status: 'completed', summary: 'Agent "Summarize git history" finished', result: 'Sub-agent report: the repository has a short history.' })
    expect(taskNotification('please check <task-notification>')).toBeUndefined()
    const t = buildTranscript([{ nodeId: 'n1', role: 'user', content: text }, { nodeId: 'n2', role: 'user', content: 'Thanks' }], false)
    expect(t.items.map((i) => i.kind)).toEqual(['notification', 'message'])
    const first = t.items[0]!
    expect(first.kind === 'notification' && first.notice.status).toBe('completed')
  })
})
