import { describe, expect, it } from 'vitest'
import { dropOutcome } from './drop'

const file = { name: 'home' } as File

describe('dropOutcome', () => {
  it('opens the path the preload gives', () => {
    expect(dropOutcome([file], true, () => '/home/ana')).toEqual({ kind: 'path', path: '/home/ana' })
    expect(dropOutcome([file], false, () => 'C:\\Users\\ana')).toEqual({ kind: 'path', path: 'C:\\Users\\ana' })
  })
  it('says the desktop app is needed in a browser, and that the path is unknown in Electron', () => {
    expect(dropOutcome([file], false, () => null)).toEqual({ kind: 'needs-desktop' })
    expect(dropOutcome([file], true, () => null)).toEqual({ kind: 'no-path' })
  })
  it('does nothing when nothing was dropped', () => {
    expect(dropOutcome([], false, () => '/x')).toEqual({ kind: 'nothing' })
    expect(dropOutcome(undefined, true, () => '/x')).toEqual({ kind: 'nothing' })
  })
})

describe('droppedPath (the preload\'s webUtils.getPathForFile, when present)', () => {
  const w = globalThis as unknown as { window?: { sepiaFiles?: { pathForFile(f: File): string } } }
  it('asks window.sepiaFiles, and is null without it or for an item not on disk', async () => {
    const { droppedPath } = await import('./bridge')
    const saved = w.window
    try {
      w.window = {}
      expect(droppedPath(file)).toBeNull()
      w.window = { sepiaFiles: { pathForFile: (f) => (f === file ? '/home/ana/export.zip' : '') } }
      expect(droppedPath(file)).toBe('/home/ana/export.zip')
      expect(dropOutcome([file], true, droppedPath)).toEqual({ kind: 'path', path: '/home/ana/export.zip' })
      expect(droppedPath({ name: 'pasted' } as File)).toBeNull()
      w.window = { sepiaFiles: { pathForFile: () => { throw new Error('not a file') } } }
      expect(droppedPath(file)).toBeNull()
    } finally {
      w.window = saved
    }
  })
})
