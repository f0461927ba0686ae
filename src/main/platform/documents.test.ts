import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultRunner, parseUserDirs, resolveDocuments, type CommandRunner } from './documents'

/** A fake runner answering one output for every call and recording the calls. */
function fakeRun(output: string | null | Error): CommandRunner & { calls: Array<[string, string[]]> } {
  const calls: Array<[string, string[]]> = []
  const run: CommandRunner = async (cmd, args) => {
    calls.push([cmd, args])
    if (output instanceof Error) throw output
    return output
  }
  return Object.assign(run, { calls })
}

describe('resolveDocuments on Windows', () => {
  it('uses PowerShell MyDocuments, trimming a trailing CRLF (OneDrive backup)', async () => {
    const run = fakeRun('C:\\Users\\ana\\OneDrive\\Documents\r\n')
    const docs = await resolveDocuments({ os: 'win32', home: 'C:\\Users\\ana', run })
    expect(docs).toEqual({
      dir: 'C:\\Users\\ana\\OneDrive\\Documents',
      source: 'powershell',
      isHome: false,
      clineDir: 'C:\\Users\\ana\\OneDrive\\Documents\\Cline',
    })
    expect(run.calls).toEqual([
      [
        'powershell',
        ['-NoProfile', '-Command', '[System.Environment]::GetFolderPath([System.Environment+SpecialFolder]::MyDocuments)'],
      ],
    ])
  })

  it('strips a UTF-8 BOM from the PowerShell output', async () => {
    const docs = await resolveDocuments({ os: 'win32', home: 'C:\\Users\\ana', run: fakeRun('\uFEFFD:\\Docs\r\n') })
    expect(docs.dir).toBe('D:\\Docs')
  })

  it('falls back to <home>\\Documents when PowerShell fails, prints nothing or throws', async () => {
    for (const out of [null, '', '\r\n', new Error('boom')]) {
      const docs = await resolveDocuments({ os: 'win32', home: 'C:\\Users\\ana', run: fakeRun(out) })
      expect(docs).toEqual({
        dir: 'C:\\Users\\ana\\Documents',
        source: 'default',
        isHome: false,
        clineDir: 'C:\\Users\\ana\\Documents\\Cline',
      })
    }
  })

  it('runs nothing without a runner (copied profile) and uses <home>/Documents', async () => {
    const docs = await resolveDocuments({ os: 'win32', home: '/mnt/win/Users/ana' })
    expect(docs).toEqual({
      dir: '/mnt/win/Users/ana/Documents',
      source: 'default',
      isHome: false,
      clineDir: '/mnt/win/Users/ana/Documents/Cline',
    })
  })
})

describe('resolveDocuments on Linux', () => {
  it('uses `xdg-user-dir DOCUMENTS` (localised folder)', async () => {
    const run = fakeRun('/home/ana/Dokumente\n')
    const docs = await resolveDocuments({ os: 'linux', home: '/home/ana', run })
    expect(docs).toEqual({
      dir: '/home/ana/Dokumente',
      source: 'xdg-user-dir',
      isHome: false,
      clineDir: '/home/ana/Dokumente/Cline',
    })
    expect(run.calls).toEqual([['xdg-user-dir', ['DOCUMENTS']]])
  })

  it('falls back to ~/Documents when xdg-user-dir fails', async () => {
    const docs = await resolveDocuments({ os: 'linux', home: '/home/ana', run: fakeRun(null) })
    expect(docs).toEqual({
      dir: '/home/ana/Documents',
      source: 'default',
      isHome: false,
      clineDir: '/home/ana/Documents/Cline',
    })
  })

  it('headless: xdg-user-dir prints the home itself -> Cline uses ~/Cline', async () => {
    for (const out of ['/home/ana\n', '/home/ana/\n']) {
      const docs = await resolveDocuments({ os: 'linux', home: '/home/ana', run: fakeRun(out) })
      expect(docs).toEqual({ dir: out.trim(), source: 'xdg-user-dir', isHome: true, clineDir: '/home/ana/Cline' })
    }
  })
})

describe('resolveDocuments on macOS', () => {
  it('is always ~/Documents and runs no command', async () => {
    const run = fakeRun('/somewhere/else')
    const docs = await resolveDocuments({ os: 'darwin', home: '/Users/ana', run })
    expect(docs).toEqual({
      dir: '/Users/ana/Documents',
      source: 'default',
      isHome: false,
      clineDir: '/Users/ana/Documents/Cline',
    })
    expect(run.calls).toEqual([])
  })
})

describe('resolveDocuments for a copied Linux home (reads user-dirs.dirs, runs nothing)', () => {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'sepia-docs-')))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))
  function home(name: string, userDirs?: string): string {
    const h = join(tmp, name)
    mkdirSync(join(h, '.config'), { recursive: true })
    if (userDirs !== undefined) writeFileSync(join(h, '.config', 'user-dirs.dirs'), userDirs)
    return h
  }

  it('maps XDG_DOCUMENTS_DIR="$HOME/..." under the copied home', async () => {
    const h = home('de', '# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR="$HOME/Schreibtisch"\nXDG_DOCUMENTS_DIR="$HOME/Dokumente"\n')
    expect(await resolveDocuments({ os: 'linux', home: h })).toEqual({
      dir: join(h, 'Dokumente'),
      source: 'user-dirs.dirs',
      isHome: false,
      clineDir: join(h, 'Dokumente', 'Cline'),
    })
  })

  it('a file without XDG_DOCUMENTS_DIR (or set to $HOME) is the headless case', async () => {
    for (const [name, text] of [
      ['nodocs', 'XDG_DESKTOP_DIR="$HOME/Desktop"\n'],
      ['homedocs', 'XDG_DOCUMENTS_DIR="$HOME/"\n'],
    ] as const) {
      const h = home(name, text)
      expect(await resolveDocuments({ os: 'linux', home: h })).toEqual({
        dir: h,
        source: 'user-dirs.dirs',
        isHome: true,
        clineDir: join(h, 'Cline'),
      })
    }
  })

  it('no file, or an absolute path of the other machine -> ~/Documents', async () => {
    const none = home('none')
    expect((await resolveDocuments({ os: 'linux', home: none })).dir).toBe(join(none, 'Documents'))
    const abs = home('abs', 'XDG_DOCUMENTS_DIR="/srv/docs"\n')
    expect(await resolveDocuments({ os: 'linux', home: abs })).toEqual({
      dir: join(abs, 'Documents'),
      source: 'default',
      isHome: false,
      clineDir: join(abs, 'Documents', 'Cline'),
    })
  })
})

describe('parseUserDirs', () => {
  it('reads quoted values, skips comments, later lines win', () => {
    const text = '# c\nXDG_DOCUMENTS_DIR="$HOME/A"\r\nXDG_MUSIC_DIR="$HOME/My \\"Music\\""\nXDG_DOCUMENTS_DIR="$HOME/B"\njunk\n'
    expect(parseUserDirs(text)).toEqual({ DOCUMENTS: '$HOME/B', MUSIC: '$HOME/My "Music"' })
  })
})

describe('defaultRunner', () => {
  it('returns stdout of a command that succeeds', async () => {
    expect(await defaultRunner(process.execPath, ['-e', 'process.stdout.write("hello\\n")'])).toBe('hello\n')
  })

  it('returns null for a missing command or a non-zero exit', async () => {
    expect(await defaultRunner('sepia-no-such-command-xyz', ['DOCUMENTS'])).toBeNull()
    expect(await defaultRunner(process.execPath, ['-e', 'process.exit(3)'])).toBeNull()
  })

  it('returns null when the command outlives the 2 s timeout', async () => {
    const started = Date.now()
    expect(await defaultRunner(process.execPath, ['-e', 'setTimeout(() => {}, 10000)'])).toBeNull()
    const took = Date.now() - started
    expect(took).toBeGreaterThanOrEqual(1_900)
    expect(took).toBeLessThan(8_000)
  })
})
