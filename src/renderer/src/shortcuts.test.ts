import { describe, expect, it } from 'vitest'
import { shortcutFor, type KeyContext, type KeyPress } from './shortcuts'

const key = (k: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods })
const idle: KeyContext = { typing: false, dialogOpen: false, paletteOpen: false, inList: false, nothingFocused: true }

describe('shortcutFor', () => {
  it('Ctrl-K and Cmd-K open the palette, even while typing; again while it is open', () => {
    expect(shortcutFor(key('k', { ctrlKey: true }), idle)).toBe('palette')
    expect(shortcutFor(key('K', { metaKey: true }), { ...idle, typing: true })).toBe('palette')
    expect(shortcutFor(key('k', { ctrlKey: true }), { ...idle, dialogOpen: true, paletteOpen: true })).toBe('palette')
    expect(shortcutFor(key('k', { ctrlKey: true }), { ...idle, dialogOpen: true })).toBeNull()
    expect(shortcutFor(key('k', { ctrlKey: true, shiftKey: true }), idle)).toBeNull()
  })

  it('/ and Ctrl/Cmd-F search; / types a slash in a text field', () => {
    expect(shortcutFor(key('/'), idle)).toBe('search')
    expect(shortcutFor(key('f', { ctrlKey: true }), { ...idle, typing: true })).toBe('find')
    expect(shortcutFor(key('f', { metaKey: true }), idle)).toBe('find')
    expect(shortcutFor(key('g', { ctrlKey: true }), idle)).toBe('open-id')
    expect(shortcutFor(key('/'), { ...idle, typing: true })).toBeNull()
    expect(shortcutFor(key('/'), { ...idle, dialogOpen: true })).toBeNull()
  })

  it('j/k move anywhere but in a field; arrows only in a list or with nothing focused', () => {
    expect(shortcutFor(key('j'), { ...idle, nothingFocused: false })).toBe('next')
    expect(shortcutFor(key('k'), { ...idle, nothingFocused: false })).toBe('prev')
    expect(shortcutFor(key('ArrowDown'), idle)).toBe('next')
    expect(shortcutFor(key('ArrowUp'), { ...idle, nothingFocused: false, inList: true })).toBe('prev')
    expect(shortcutFor(key('ArrowDown'), { ...idle, nothingFocused: false })).toBeNull()
    expect(shortcutFor(key('j'), { ...idle, typing: true })).toBeNull()
    expect(shortcutFor(key('j', { altKey: true }), idle)).toBeNull()
    expect(shortcutFor(key('Escape'), idle)).toBeNull()
  })
})
