import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { detectHomeOs } from './detect'
import type { FsProbe } from './probe'
import { mkdirs, tempRoot, touch } from '../../../tests/builders/platform/testdirs'

const { root, cleanup } = tempRoot('detect')
afterAll(cleanup)

describe('detectHomeOs (temp folders)', () => {
  it('a copied Windows profile (AppData/Roaming, AppData/Local) is win32', () => {
    const h = mkdirs(join(root, 'win-profile'), 'AppData/Roaming/Code/User', 'AppData/Local', 'Documents', '.claude')
    expect(detectHomeOs(h)).toBe('win32')
  })

  it('AppData/Local alone, or NTUSER.DAT alone, is win32', () => {
    expect(detectHomeOs(mkdirs(join(root, 'win-local'), 'AppData/Local'))).toBe('win32')
    const hive = join(root, 'win-hive')
    touch(hive, 'NTUSER.DAT', 'regf')
    expect(detectHomeOs(hive)).toBe('win32')
  })

  it('an AppData folder without Roaming/Local is not enough', () => {
    expect(detectHomeOs(mkdirs(join(root, 'appdata-empty'), 'AppData'))).toBe('linux')
  })

  it('a copied macOS home (Library/Application Support or Library/Preferences) is darwin', () => {
    expect(detectHomeOs(mkdirs(join(root, 'mac'), 'Library/Application Support/Cursor/User', 'Documents'))).toBe('darwin')
    expect(detectHomeOs(mkdirs(join(root, 'mac-prefs'), 'Library/Preferences'))).toBe('darwin')
  })

  it('anything else is linux, also a missing folder', () => {
    expect(detectHomeOs(mkdirs(join(root, 'linux'), '.config/Code/User', '.local/share', 'Library'))).toBe('linux')
    expect(detectHomeOs(join(root, 'does-not-exist'))).toBe('linux')
  })

  it('Windows markers win over macOS markers; the probe is injectable', () => {
    const seen: string[] = []
    const fs: FsProbe = {
      exists: (p) => (seen.push(p), p === '/h/NTUSER.DAT' || p === '/h/Library/Preferences'),
      isDir: () => false,
      readText: () => null,
    }
    expect(detectHomeOs('/h', fs)).toBe('win32')
    expect(seen).toEqual(['/h/AppData/Roaming', '/h/AppData/Local', '/h/NTUSER.DAT'])
  })
})
