import { describe, expect, it } from 'vitest'
import type { MessageNode } from '../../shared/ir'
import { foldedMatches, matchOffsets } from './find-highlight'

describe('find in session: what to unfold', () => {
  const node: Pick<MessageNode, 'thinking' | 'toolCalls'> = {
    thinking: 'The user wants NOTES.md created first.',
    toolCalls: [
      { id: 'a', name: 'Write', kind: 'edit', arguments: { file_path: '/p/NOTES.md', content: '# Notes' } },
      { id: 'b', name: 'Bash', kind: 'execute', arguments: { command: 'ls -la' } },
    ],
  }

  it('opens the thinking and the calls whose arguments hold the words, case-insensitively', () => {
    expect(foldedMatches(node, 'notes.md')).toEqual({ thinking: true, toolCallIds: ['a'] })
    expect(foldedMatches(node, ' LS -LA ')).toEqual({ thinking: false, toolCallIds: ['b'] })
  })

  it('unfolds nothing for blank text, a miss, or a node without thinking or calls', () => {
    expect(foldedMatches(node, '  ')).toEqual({ thinking: false, toolCallIds: [] })
    expect(foldedMatches(node, 'quokka')).toEqual({ thinking: false, toolCallIds: [] })
    expect(foldedMatches({}, 'notes')).toEqual({ thinking: false, toolCallIds: [] })
  })

  it('finds every offset, case-insensitively', () => {
    expect(matchOffsets('Notes and NOTES', 'notes')).toEqual([0, 10])
  })
})
