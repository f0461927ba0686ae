import { describe, expect, it } from 'vitest'
import { firstLine, formatDuration, lastFolderName, sumUsage } from './format'

describe('format', () => {
  it('takes the last folder name of POSIX and Windows paths', () => {
    expect(lastFolderName('/home/ana/src/app')).toBe('app')
    expect(lastFolderName('/home/ana/src/app/')).toBe('app')
    expect(lastFolderName('C:\\Users\\ana\\deja-vu')).toBe('deja-vu')
    expect(lastFolderName('C:\\')).toBe('C:\\')
    expect(lastFolderName('/')).toBe('/')
  })

  it('sums usages field by field', () => {
    expect(sumUsage([{ inputTokens: 1, cost: 0.5 }, undefined, { inputTokens: 2, outputTokens: 3 }])).toEqual({ inputTokens: 3, outputTokens: 3, cost: 0.5 })
    expect(sumUsage([undefined])).toBeUndefined()
  })

  it('formats durations and first lines', () => {
    expect(formatDuration(850)).toBe('850 ms')
    expect(formatDuration(12_300)).toBe('12.3 s')
    expect(formatDuration(245_000)).toBe('4 min 5 s')
    expect(firstLine('  hello\nworld')).toBe('hello')
  })
})
