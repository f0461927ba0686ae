import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { CommandRunner } from './documents'
import { layoutForHome, ownHomeLayout } from './layout'
import type { Machine } from './machine'
import type { FsProbe } from './probe'
import { mkdirs, tempRoot, touch } from '../../../tests/builders/platform/testdirs'

const { root, cleanup } = tempRoot('layout')
afterAll(cleanup)

/** A runner that answers per command and records calls. */
function runner(answers: Record<string, string | null>): CommandRunner & { calls: string[] } {
  const calls: string[] = []
  const run: CommandRunner = async (cmd) => {
    calls.push(cmd)
    return answers[cmd] ?? null
  }
  return Object.assign(run, { calls })
}

/** A probe that sees only the given folders (for homes that are not on this disk). */
function fakeFs(dirs: string[]): FsProbe {
  const set = new Set(dirs)
  return { exists: (p) => set.has(p), isDir: (p) => set.has(p), readText: () => null }
}

/** Env overrides that must never leak into a copied home. */
const OVERRIDES = {
  CLINE_DIR: '/opt/cline',
  CLINE_DATA_DIR: '/srv/cline-data',
  CLAUDE_CONFIG_DIR: '/opt/claude',
  XDG_CONFIG_HOME: '/xdg/config',
  XDG_DATA_HOME: '/xdg/data',
  APPDATA: 'Z:\\roaming',
  LOCALAPPDATA: 'Z:\\local',
}

describe('layoutForHome: Windows', () => {
  it('own Windows home: %APPDATA% roots, OneDrive MyDocuments from PowerShell, backslash paths', async () => {
    const env = {
      USERPROFILE: 'C:\\Users\\ana',
      APPDATA: 'C:\\Users\\ana\\AppData\\Roaming',
      LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local',
    }
    const run = runner({ powershell: 'C:\\Users\\ana\\OneDrive\\Documents\r\n' })
    const fs = fakeFs([
      'C:\\Users\\ana\\AppData\\Roaming\\Code\\User\\globalStorage',
      'C:\\Users\\ana\\AppData\\Roaming\\Windsurf\\User\\globalStorage',
    ])
    const layout = await layoutForHome({ home: 'C:\\Users\\ana', os: 'win32', env, isOwnHome: true, run, fs })
    expect(layout).toEqual({
      home: 'C:\\Users\\ana',
      os: 'win32',
      isOwnHome: true,
      claudeConfigDir: 'C:\\Users\\ana\\.claude',
      codexHome: 'C:\\Users\\ana\\.codex',
      clineDir: 'C:\\Users\\ana\\.cline',
      clineDataDir: 'C:\\Users\\ana\\.cline\\data',
      appDataRoots: ['C:\\Users\\ana\\AppData\\Roaming', 'C:\\Users\\ana\\AppData\\Local'],
      configRoot: 'C:\\Users\\ana\\AppData\\Roaming',
      dataRoot: 'C:\\Users\\ana\\AppData\\Roaming',
      localAppData: 'C:\\Users\\ana\\AppData\\Local',
      xdgConfigHome: 'C:\\Users\\ana\\.config',
      xdgDataHome: 'C:\\Users\\ana\\.local\\share',
      globalStorageDirs: [
        'C:\\Users\\ana\\AppData\\Roaming\\Code\\User\\globalStorage',
        'C:\\Users\\ana\\AppData\\Roaming\\Windsurf\\User\\globalStorage',
      ],
      globalStorage: [
        { editor: 'VS Code', kind: 'desktop', dir: 'C:\\Users\\ana\\AppData\\Roaming\\Code\\User\\globalStorage' },
        { editor: 'Windsurf', kind: 'desktop', dir: 'C:\\Users\\ana\\AppData\\Roaming\\Windsurf\\User\\globalStorage' },
      ],
      documentsDir: 'C:\\Users\\ana\\OneDrive\\Documents',
      documents: {
        dir: 'C:\\Users\\ana\\OneDrive\\Documents',
        source: 'powershell',
        isHome: false,
        clineDir: 'C:\\Users\\ana\\OneDrive\\Documents\\Cline',
      },
    })
    expect(run.calls).toEqual(['powershell'])
  })

  it('a Windows profile copied to this Linux disk: detected, %APPDATA%-style roots under it, env ignored, no command run', async () => {
    const h = mkdirs(
      join(root, 'copied-win', 'ana'),
      'AppData/Roaming/Code/User/globalStorage/saoudrizwan.claude-dev/tasks',
      'AppData/Roaming/Cursor/User/globalStorage',
      'AppData/Local',
      '.cline/data/sessions',
    )
    touch(h, 'NTUSER.DAT', 'regf')
    const run = runner({ powershell: 'C:\\Users\\me\\Documents' })
    const layout = await layoutForHome({ home: h, env: OVERRIDES, run })
    expect(layout).toEqual({
      home: h,
      os: 'win32',
      isOwnHome: false,
      claudeConfigDir: join(h, '.claude'),
      codexHome: join(h, '.codex'),
      clineDir: join(h, '.cline'),
      clineDataDir: join(h, '.cline', 'data'),
      appDataRoots: [join(h, 'AppData', 'Roaming'), join(h, 'AppData', 'Local')],
      configRoot: join(h, 'AppData', 'Roaming'),
      dataRoot: join(h, 'AppData', 'Roaming'),
      localAppData: join(h, 'AppData', 'Local'),
      xdgConfigHome: join(h, '.config'),
      xdgDataHome: join(h, '.local', 'share'),
      globalStorageDirs: [
        join(h, 'AppData', 'Roaming', 'Code', 'User', 'globalStorage'),
        join(h, 'AppData', 'Roaming', 'Cursor', 'User', 'globalStorage'),
      ],
      globalStorage: [
        { editor: 'VS Code', kind: 'desktop', dir: join(h, 'AppData', 'Roaming', 'Code', 'User', 'globalStorage') },
        { editor: 'Cursor', kind: 'desktop', dir: join(h, 'AppData', 'Roaming', 'Cursor', 'User', 'globalStorage') },
      ],
      documentsDir: join(h, 'Documents'),
      documents: { dir: join(h, 'Documents'), source: 'default', isHome: false, clineDir: join(h, 'Documents', 'Cline') },
    })
    expect(run.calls).toEqual([])
  })
})

describe('layoutForHome: macOS', () => {
  it('a copied macOS home: detected, Application Support, Code and Cursor globalStorage, ~/Documents', async () => {
    const h = mkdirs(
      join(root, 'copied-mac', 'ana'),
      'Library/Application Support/Code/User/globalStorage',
      'Library/Application Support/Cursor/User/globalStorage',
      'Library/Application Support/Windsurf/User', // no globalStorage
      'Library/Preferences',
      '.claude/projects',
    )
    const layout = await layoutForHome({ home: h })
    const support = join(h, 'Library', 'Application Support')
    expect(layout.os).toBe('darwin')
    expect(layout.configRoot).toBe(support)
    expect(layout.dataRoot).toBe(support)
    expect(layout.localAppData).toBeUndefined()
    expect('localAppData' in layout).toBe(false)
    expect(layout.appDataRoots).toEqual([support])
    expect(layout.globalStorageDirs).toEqual([
      join(support, 'Code', 'User', 'globalStorage'),
      join(support, 'Cursor', 'User', 'globalStorage'),
    ])
    expect(layout.documentsDir).toBe(join(h, 'Documents'))
    expect(layout.claudeConfigDir).toBe(join(h, '.claude'))
  })

  it('own macOS home runs no command for Documents', async () => {
    const run = runner({ 'xdg-user-dir': '/nope' })
    const layout = await layoutForHome({ home: '/Users/ana', os: 'darwin', env: {}, isOwnHome: true, run, fs: fakeFs([]) })
    expect(layout.documents).toEqual({
      dir: '/Users/ana/Documents',
      source: 'default',
      isHome: false,
      clineDir: '/Users/ana/Documents/Cline',
    })
    expect(layout.configRoot).toBe('/Users/ana/Library/Application Support')
    expect(run.calls).toEqual([])
  })
})

describe('layoutForHome: Linux', () => {
  it('own home: XDG_CONFIG_HOME / XDG_DATA_HOME honoured, xdg-user-dir Documents', async () => {
    const run = runner({ 'xdg-user-dir': '/home/ana/Dokumente\n' })
    const fs = fakeFs(['/xdg/config/Code/User/globalStorage', '/home/ana/.config/Code/User/globalStorage'])
    const layout = await layoutForHome({
      home: '/home/ana',
      os: 'linux',
      env: { XDG_CONFIG_HOME: '/xdg/config', XDG_DATA_HOME: '/xdg/data' },
      isOwnHome: true,
      run,
      fs,
    })
    expect(layout.configRoot).toBe('/xdg/config')
    expect(layout.dataRoot).toBe('/xdg/data')
    expect(layout.appDataRoots).toEqual(['/xdg/config', '/xdg/data'])
    expect(layout.globalStorageDirs).toEqual(['/xdg/config/Code/User/globalStorage'])
    expect(layout.documentsDir).toBe('/home/ana/Dokumente')
    expect(layout.documents.source).toBe('xdg-user-dir')
    expect(run.calls).toEqual(['xdg-user-dir'])
  })

  it('own home: xdg-user-dir failing -> ~/Documents; printing the home -> ~/Cline (headless)', async () => {
    const fs = fakeFs([])
    const failing = await layoutForHome({ home: '/home/ana', os: 'linux', isOwnHome: true, run: runner({}), fs })
    expect(failing.documentsDir).toBe('/home/ana/Documents')
    expect(failing.documents.clineDir).toBe('/home/ana/Documents/Cline')
    const headless = await layoutForHome({
      home: '/home/ana',
      os: 'linux',
      isOwnHome: true,
      run: runner({ 'xdg-user-dir': '/home/ana\n' }),
      fs,
    })
    expect(headless.documentsDir).toBe('/home/ana')
    expect(headless.documents).toEqual({ dir: '/home/ana', source: 'xdg-user-dir', isHome: true, clineDir: '/home/ana/Cline' })
  })

  it('copied home: XDG_CONFIG_HOME ignored; detected as linux; ~/.config roots', async () => {
    const h = mkdirs(join(root, 'copied-linux', 'ana'), '.config/Code/User/globalStorage', '.local/share/opencode')
    const layout = await layoutForHome({ home: h, env: OVERRIDES })
    expect(layout.os).toBe('linux')
    expect(layout.configRoot).toBe(join(h, '.config'))
    expect(layout.dataRoot).toBe(join(h, '.local', 'share'))
    expect(layout.globalStorageDirs).toEqual([join(h, '.config', 'Code', 'User', 'globalStorage')])
    expect(layout.documentsDir).toBe(join(h, 'Documents'))
  })
})

describe('layoutForHome: agent env overrides', () => {
  it('CLINE_DIR, CLINE_DATA_DIR and CLAUDE_CONFIG_DIR move the dirs of the own home', async () => {
    const base = { home: '/home/ana', os: 'linux' as const, isOwnHome: true, run: runner({}), fs: fakeFs([]) }
    const all = await layoutForHome({ ...base, env: OVERRIDES })
    expect([all.clineDir, all.clineDataDir, all.claudeConfigDir]).toEqual(['/opt/cline', '/srv/cline-data', '/opt/claude'])
    const codex = await layoutForHome({ ...base, env: { CODEX_HOME: '/srv/codex' } })
    expect(codex.codexHome).toBe('/srv/codex')
    expect((await layoutForHome({ ...base, env: {} })).codexHome).toBe('/home/ana/.codex')
    const clineDirOnly = await layoutForHome({ ...base, env: { CLINE_DIR: ' /opt/cline ' } })
    expect([clineDirOnly.clineDir, clineDirOnly.clineDataDir]).toEqual(['/opt/cline', '/opt/cline/data'])
    const blank = await layoutForHome({ ...base, env: { CLINE_DIR: '', CLAUDE_CONFIG_DIR: '  ' } })
    expect([blank.clineDir, blank.clineDataDir, blank.claudeConfigDir]).toEqual([
      '/home/ana/.cline',
      '/home/ana/.cline/data',
      '/home/ana/.claude',
    ])
  })

  it('are ignored for a copied home', async () => {
    const layout = await layoutForHome({ home: '/mnt/backup/ana', os: 'linux', env: { ...OVERRIDES, CODEX_HOME: '/srv/codex' }, fs: fakeFs([]) })
    expect(layout.codexHome).toBe('/mnt/backup/ana/.codex')
    expect([layout.clineDir, layout.clineDataDir, layout.claudeConfigDir]).toEqual([
      '/mnt/backup/ana/.cline',
      '/mnt/backup/ana/.cline/data',
      '/mnt/backup/ana/.claude',
    ])
    expect(layout.isOwnHome).toBe(false)
  })
})

describe('ownHomeLayout', () => {
  it('resolves the home from the machine env (HOMEDRIVE+HOMEPATH) and uses its OS, env and runner', async () => {
    const run = runner({ powershell: 'C:\\Users\\ana\\OneDrive\\Dokumente\r\n' })
    const machine: Machine = {
      os: 'win32',
      env: { HOMEDRIVE: 'C:', HOMEPATH: '\\Users\\ana', CLAUDE_CONFIG_DIR: 'D:\\claude' },
      homedir: () => 'C:\\Windows\\system32',
      run,
    }
    const layout = await ownHomeLayout(machine)
    expect(layout.home).toBe('C:\\Users\\ana')
    expect(layout.os).toBe('win32')
    expect(layout.isOwnHome).toBe(true)
    expect(layout.claudeConfigDir).toBe('D:\\claude')
    expect(layout.clineDir).toBe('C:\\Users\\ana\\.cline')
    expect(layout.configRoot).toBe('C:\\Users\\ana\\AppData\\Roaming')
    expect(layout.documentsDir).toBe('C:\\Users\\ana\\OneDrive\\Dokumente')
    expect(run.calls).toEqual(['powershell'])
  })

  it('a Linux machine with HOME set', async () => {
    const h = mkdirs(join(root, 'own-linux'), '.config/Cursor/User/globalStorage', '.cursor-server/data/User/globalStorage')
    const machine: Machine = {
      os: 'linux',
      env: { HOME: h, CLINE_DATA_DIR: '/data/cline' },
      homedir: () => '/nope',
      run: runner({ 'xdg-user-dir': `${h}/Documents\n` }),
    }
    const layout = await ownHomeLayout(machine)
    expect(layout.home).toBe(h)
    expect(layout.clineDataDir).toBe('/data/cline')
    expect(layout.globalStorage).toEqual([
      { editor: 'Cursor', kind: 'desktop', dir: join(h, '.config', 'Cursor', 'User', 'globalStorage') },
      { editor: 'Cursor', kind: 'server', dir: join(h, '.cursor-server', 'data', 'User', 'globalStorage') },
    ])
    expect(layout.documents).toEqual({
      dir: join(h, 'Documents'),
      source: 'xdg-user-dir',
      isHome: false,
      clineDir: join(h, 'Documents', 'Cline'),
    })
  })
})
