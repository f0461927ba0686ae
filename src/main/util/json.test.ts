/** salvageJsonArray / lineAt: damaged JSON arrays keep their valid prefix. */
import { describe, expect, it } from 'vitest'
import { lineAt, salvageJsonArray } from './json'

describe('salvageJsonArray', () => {
  it('parses a whole array', () => {
    expect(salvageJsonArray(' [1, {"a": "]"}, "x"] \n')).toEqual({ items: [1, { a: ']' }, 'x'], complete: true })
  })

  it('keeps the elements before a cut', () => {
    const text = '[{"a":1},\n{"b":"str with \\" quote"},\n{"c": [1, 2'
    const r = salvageJsonArray(text)
    expect(r.items).toEqual([{ a: 1 }, { b: 'str with " quote' }])
    expect(r.complete).toBe(false)
    expect(r.errorOffset).toBe(text.indexOf('{"c"'))
    expect(lineAt(text, r.errorOffset!)).toBe(3)
  })

  it('keeps everything before trailing garbage', () => {
    const r = salvageJsonArray('[{"ts": 1}, {"ts": 2}]]')
    expect(r.items).toEqual([{ ts: 1 }, { ts: 2 }])
    expect(r.complete).toBe(false)
    expect(r.errorOffset).toBe(22)
    expect(r.error).toMatch(/after the JSON array/)
  })

  it('stops at a malformed element', () => {
    const r = salvageJsonArray('[1, {"a": nope}, 3]')
    expect(r.items).toEqual([1])
    expect(r.errorOffset).toBe(4)
  })

  it('yields nothing for a text that is not an array', () => {
    expect(salvageJsonArray('{"role":"user","content":"unterminated"\n')).toMatchObject({ items: [], complete: false, errorOffset: 0 })
    expect(salvageJsonArray('{"a": 1}')).toMatchObject({ items: [], complete: false })
    expect(salvageJsonArray('')).toMatchObject({ items: [], complete: false })
    expect(salvageJsonArray('[{"')).toMatchObject({ items: [], complete: false, errorOffset: 1 })
  })

  it('accepts a BOM and an empty array', () => {
    expect(salvageJsonArray('\ufeff[]')).toEqual({ items: [], complete: true })
  })
})
