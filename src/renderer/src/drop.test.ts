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
