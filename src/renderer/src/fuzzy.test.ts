import { describe, expect, it } from 'vitest'
import { fuzzyFilter, fuzzyMatch } from './fuzzy'

describe('fuzzyMatch', () => {
  it('matches a substring with its indices, word starts first', () => {
    expect(fuzzyMatch('fold', 'Open folder…')?.indices).toEqual([5, 6, 7, 8])
    expect(fuzzyMatch('OPEN', 'Open folder…')?.indices).toEqual([0, 1, 2, 3])
    expect(fuzzyMatch('old', 'Open folder…')!.score).toBeLessThan(fuzzyMatch('fol', 'Open folder…')!.score)
  })

  it('matches each word of the query in order, word starts before letters', () => {
    expect(fuzzyMatch('go tim', 'Go to Timeline')?.indices).toEqual([0, 1, 6, 7, 8])
    expect(fuzzyMatch('tim go', 'Go to Timeline')).toBeUndefined()
    const nav = fuzzyMatch('go tim', 'Go to Timeline')!.score
    const scattered = fuzzyMatch('go tim', 'Agora: the mission timing')!.score
    expect(nav).toBeGreaterThan(scattered)
    expect(fuzzyMatch('capitl france', '[qa] What is the capital of France?')?.indices.length).toBe(12)
  })

  it('matches letters in order across words, and refuses letters out of order', () => {
    expect(fuzzyMatch('opf', 'Open folder…')?.indices).toEqual([0, 1, 5])
    expect(fuzzyMatch('gtu', 'Go to Usage')?.indices).toEqual([0, 3, 6])
    expect(fuzzyMatch('fo', 'of')).toBeUndefined()
    expect(fuzzyMatch('xyz', 'Open folder…')).toBeUndefined()
  })

  it('splits the query on spaces; an empty query matches everything with score 0', () => {
    expect(fuzzyMatch('go  us', 'Go to Usage')?.indices).toEqual([0, 1, 6, 7])
    expect(fuzzyMatch('', 'anything')).toEqual({ score: 0, indices: [] })
  })
})

describe('fuzzyFilter', () => {
  const items = ['Copy file', 'Open folder…', 'Go to Usage', 'Reload the library']
  it('keeps matches, best first, and limits', () => {
    expect(fuzzyFilter(items, 'of', (s) => s).map((r) => r.item)).toEqual(['Open folder…', 'Copy file'])
    expect(fuzzyFilter(items, 'o', (s) => s, 2).map((r) => r.item)).toEqual(['Open folder…', 'Copy file'])
  })
  it('keeps the order for an empty query', () => {
    expect(fuzzyFilter(items, '', (s) => s).map((r) => r.item)).toEqual(items)
  })
})
