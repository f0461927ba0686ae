import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { FsProbe } from './probe'
import { mkdirs, tempRoot, touch } from '../../../tests/builders/platform/testdirs'
import { findGlobalStorageDirs, VSCODE_FAMILY } from './vscode'

const { root, cleanup } = tempRoot('vscode')
afterAll(cleanup)

const GS = 'User/globalStorage'

describe('findGlobalStorageDirs (temp folders)', () => {
  it('Linux: lists the desktop editors that exist, in table order, then servers and Flatpaks', () => {
    const h = mkdirs(
      join(root, 'linux'),
      `.config/Cursor/${GS}/saoudrizwan.claude-dev`,
      `.config/Code/${GS}`,
      `.config/VSCodium/${GS}`,
      `.config/Windsurf - Next/${GS}`,
      `.config/Code - OSS/${GS}`,
      `.config/code-oss/${GS}`,
      `.config/Trae/${GS}`,
      `.config/Kiro/${GS}`,
      `.config/Positron/${GS}`,
      `.config/Code - Insiders/User`, // no globalStorage yet: not listed
      `.config/Windsurf`, // no User folder: not listed
      `.vscode-server/data/${GS}`,
      `.vscode-remote/data/${GS}`,
      `.cursor-server/data/${GS}`,
      `.windsurf-server/data/${GS}`,
      `.var/app/com.vscodium.codium/config/VSCodium/${GS}`,
    )
    touch(h, `.config/VSCodium - Insiders/${GS}`) // a file, not a folder: not listed
    const c = join(h, '.config')
    expect(findGlobalStorageDirs({ home: h, roots: [c] })).toEqual([
      { editor: 'VS Code', kind: 'desktop', dir: join(c, 'Code', 'User', 'globalStorage') },
      { editor: 'Code - OSS', kind: 'desktop', dir: join(c, 'Code - OSS', 'User', 'globalStorage') },
      { editor: 'Code - OSS (distro package)', kind: 'desktop', dir: join(c, 'code-oss', 'User', 'globalStorage') },
      { editor: 'VSCodium', kind: 'desktop', dir: join(c, 'VSCodium', 'User', 'globalStorage') },
      { editor: 'Cursor', kind: 'desktop', dir: join(c, 'Cursor', 'User', 'globalStorage') },
      { editor: 'Windsurf Next', kind: 'desktop', dir: join(c, 'Windsurf - Next', 'User', 'globalStorage') },
      { editor: 'Trae', kind: 'desktop', dir: join(c, 'Trae', 'User', 'globalStorage') },
      { editor: 'Kiro', kind: 'desktop', dir: join(c, 'Kiro', 'User', 'globalStorage') },
      { editor: 'Positron', kind: 'desktop', dir: join(c, 'Positron', 'User', 'globalStorage') },
      { editor: 'VS Code', kind: 'server', dir: join(h, '.vscode-server', 'data', 'User', 'globalStorage') },
      { editor: 'VS Code', kind: 'server', dir: join(h, '.vscode-remote', 'data', 'User', 'globalStorage') },
      { editor: 'Cursor', kind: 'server', dir: join(h, '.cursor-server', 'data', 'User', 'globalStorage') },
      { editor: 'Windsurf', kind: 'server', dir: join(h, '.windsurf-server', 'data', 'User', 'globalStorage') },
      {
        editor: 'VSCodium',
        kind: 'flatpak',
        dir: join(h, '.var', 'app', 'com.vscodium.codium', 'config', 'VSCodium', 'User', 'globalStorage'),
      },
    ])
  })

  it('GitHub Codespaces / dev containers: ~/.vscode-remote/data/User/globalStorage alone is found (issue 14 point 7)', () => {
    const h = mkdirs(join(root, 'codespace'), `.vscode-remote/data/${GS}/saoudrizwan.claude-dev`, `.vscode-remote/data/${GS}/rooveterinaryinc.roo-cline`)
    expect(findGlobalStorageDirs({ home: h, roots: [join(h, '.config')] })).toEqual([
      { editor: 'VS Code', kind: 'server', dir: join(h, '.vscode-remote', 'data', 'User', 'globalStorage') },
    ])
  })

  it('macOS: Code and Cursor under Library/Application Support', () => {
    const h = mkdirs(join(root, 'mac'), `Library/Application Support/Code/${GS}`, `Library/Application Support/Cursor/${GS}`)
    const a = join(h, 'Library', 'Application Support')
    expect(findGlobalStorageDirs({ home: h, roots: [a] }).map((g) => g.dir)).toEqual([
      join(a, 'Code', 'User', 'globalStorage'),
      join(a, 'Cursor', 'User', 'globalStorage'),
    ])
  })

  it('VSCODE_APPDATA adds a root (first) and VSCODE_PORTABLE a portable install; a root is listed once', () => {
    const h = mkdirs(join(root, 'env'), `.config/Code/${GS}`)
    const moved = mkdirs(join(root, 'moved-appdata'), `Code - Insiders/${GS}`)
    const portable = mkdirs(join(root, 'VSCode-linux-x64', 'data'), `user-data/${GS}`)
    const c = join(h, '.config')
    const env = { VSCODE_APPDATA: moved, VSCODE_PORTABLE: portable }
    expect(findGlobalStorageDirs({ home: h, roots: [c, c], env })).toEqual([
      { editor: 'VS Code Insiders', kind: 'desktop', dir: join(moved, 'Code - Insiders', 'User', 'globalStorage') },
      { editor: 'VS Code', kind: 'desktop', dir: join(c, 'Code', 'User', 'globalStorage') },
      { editor: 'VS Code (portable)', kind: 'portable', dir: join(portable, 'user-data', 'User', 'globalStorage') },
    ])
  })

  it('returns nothing for an empty or missing home', () => {
    const h = mkdirs(join(root, 'empty'))
    expect(findGlobalStorageDirs({ home: h, roots: [join(h, '.config')] })).toEqual([])
    expect(findGlobalStorageDirs({ home: join(root, 'missing'), roots: [join(root, 'missing', '.config')] })).toEqual([])
  })

  it('joins a Windows home with backslashes (own Windows home, faked probe)', () => {
    const dirs = new Set(['C:\\Users\\ana\\AppData\\Roaming\\Cursor\\User\\globalStorage'])
    const fs: FsProbe = { exists: (p) => dirs.has(p), isDir: (p) => dirs.has(p), readText: () => null }
    expect(findGlobalStorageDirs({ home: 'C:\\Users\\ana', roots: ['C:\\Users\\ana\\AppData\\Roaming'], fs })).toEqual([
      { editor: 'Cursor', kind: 'desktop', dir: 'C:\\Users\\ana\\AppData\\Roaming\\Cursor\\User\\globalStorage' },
    ])
  })

  it('the table names every product the issue lists', () => {
    const folders = VSCODE_FAMILY.map((p) => p.folder)
    for (const f of ['Code', 'Code - Insiders', 'VSCodium', 'VSCodium - Insiders', 'Cursor', 'Windsurf', 'Windsurf - Next', 'Trae', 'Kiro', 'Positron', 'code-oss', 'Code - OSS']) {
      expect(folders).toContain(f)
    }
    expect(new Set(folders).size).toBe(folders.length)
  })
})
