import { describe, expect, it } from 'vitest'
import { diffLines, splitLines } from './diff'

describe('diffLines', () => {
  it('shows removed lines before added ones, with line numbers', () => {
    expect(diffLines('a\nb\nc\n', 'a\nB\nc\n')).toEqual([
      { type: 'same', text: 'a', oldNo: 1, newNo: 1 },
      { type: 'del', text: 'b', oldNo: 2 },
      { type: 'add', text: 'B', newNo: 2 },
      { type: 'same', text: 'c', oldNo: 3, newNo: 3 },
    ])
  })

  it('treats a new file as all added and a deletion as all removed', () => {
    expect(diffLines(undefined, 'x\ny')).toEqual([
      { type: 'add', text: 'x', newNo: 1 },
      { type: 'add', text: 'y', newNo: 2 },
    ])
    expect(diffLines('x', undefined)).toEqual([{ type: 'del', text: 'x', oldNo: 1 }])
  })

  it('folds unchanged lines far from a change', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n')
    const after = before.replace('l10', 'L10')
    const d = diffLines(before, after, 2)!
    expect(d.map((l) => (l.type === 'skip' ? `skip${l.count}` : l.type))).toEqual(['skip8', 'same', 'same', 'del', 'add', 'same', 'same', 'skip7'])
  })

  it('keeps an insertion in the middle aligned', () => {
    const d = diffLines('a\nb\nc\nd', 'a\nb\nX\nc\nd')!
    expect(d.filter((l) => l.type !== 'same')).toEqual([{ type: 'add', text: 'X', newNo: 3 }])
  })

  it('gives up past the size limit', () => {
    expect(diffLines('a\nb\nc', 'x\ny\nz', 3, 4)).toBeUndefined()
  })

  it('splits lines without a trailing empty line', () => {
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b'])
    expect(splitLines('')).toEqual([])
  })
})
