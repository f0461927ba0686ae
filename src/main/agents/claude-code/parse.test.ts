import { describe, expect, it } from 'vitest'
import { parseLine, splitObjects, wellFormed } from './parse'

describe('parseLine', () => {
  it('reads a whole record with no problem', () => {
    expect(parseLine('{"type":"user","uuid":"u1"}')).toEqual({ records: [{ type: 'user', uuid: 'u1' }] })
  })

  it('gives nothing for an empty or blank line', () => {
    expect(parseLine('')).toEqual({ records: [] })
    expect(parseLine('   ')).toEqual({ records: [] })
  })

  it('ignores a leading byte order mark', () => {
    expect(parseLine('\uFEFF{"a":1}')).toEqual({ records: [{ a: 1 }] })
  })

  it('reports a record cut short as one error and reads nothing', () => {
    const p = parseLine('{"parentUuid":"x","type":"assistant')
    expect(p.records).toEqual([])
    expect(p.problem?.severity).toBe('error')
    expect(p.problem?.message).toContain('cut short')
  })

  it('splits two records glued on one line and reads both (warning: nothing lost)', () => {
    const p = parseLine('{"type":"pr-link","prNumber":12}{"type":"assistant","uuid":"a"}')
    expect(p.records).toEqual([{ type: 'pr-link', prNumber: 12 }, { type: 'assistant', uuid: 'a' }])
    expect(p.problem?.severity).toBe('warning')
    expect(p.problem?.message).toContain('2 records were glued')
  })

  it('recovers a whole record written after a cut-short one on the same line', () => {
    const p = parseLine('{"type":"assistant","message":{"content":"trunc{"type":"user","uuid":"u9"}')
    expect(p.records).toEqual([{ type: 'user', uuid: 'u9' }])
    expect(p.problem?.severity).toBe('error')
  })

  it('does not split at braces inside strings', () => {
    expect(splitObjects('{"a":"}{"}{"b":1}')).toEqual(['{"a":"}{"}', '{"b":1}'])
    expect(parseLine('{"a":"x}{y"}')).toEqual({ records: [{ a: 'x}{y' }] })
  })

  it('skips a record with NUL bytes inside it (one error)', () => {
    const p = parseLine('{"type":"user","message":{"content":"\0\0\0"}}')
    expect(p.records).toEqual([])
    expect(p.problem?.severity).toBe('error')
    expect(p.problem?.message).toContain('NUL')
  })

  it('keeps a record padded with NUL bytes (warning)', () => {
    const p = parseLine('\0\0{"type":"user"}')
    expect(p.records).toEqual([{ type: 'user' }])
    expect(p.problem?.severity).toBe('warning')
    expect(parseLine('\0\0\0').records).toEqual([])
  })

  it('replaces a lone surrogate escape by U+FFFD and keeps pairs', () => {
    const p = parseLine('{"t":"face \\ud83d!"}')
    expect(p.records).toEqual([{ t: 'face \uFFFD!' }])
    expect(p.problem?.severity).toBe('warning')
    expect(parseLine('{"t":"\\ud83d\\ude00"}')).toEqual({ records: [{ t: '😀' }] })
  })

  it('reports JSON that is not an object', () => {
    expect(parseLine('42').problem?.severity).toBe('error')
    expect(parseLine('[1]').records).toEqual([])
  })

  it('wellFormed replaces only lone surrogates', () => {
    expect(wellFormed('a\uD800b\uDC00c😀')).toBe('a\uFFFDb\uFFFDc😀')
  })
})
