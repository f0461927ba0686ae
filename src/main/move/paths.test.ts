/**
 * Project paths across OSes (issue 19: "any OS to any OS (Windows, macOS, Linux, WSL paths)"):
 * pure string cases, each written out by hand.
 */
import { describe, expect, it } from 'vitest'
import { fileUrlOf, pathOfFileUrl, pathStyleOf, remapJsonPaths, remapPath, segmentsBelow, windowsPathOfWsl, wslPathOfWindows } from './paths'

describe('remapPath', () => {
  const cases: [string, string, string, string][] = [
    // [path, from, to, expected]
    ['/home/ana/src/x', '/home/ana/src/x', 'C:\\Users\\ana\\x', 'C:\\Users\\ana\\x'],
    ['/home/ana/src/x/lib/a.ts', '/home/ana/src/x', 'C:\\Users\\ana\\x', 'C:\\Users\\ana\\x\\lib\\a.ts'],
    ['/home/ana/src/x/', '/home/ana/src/x', '/Users/ana/x', '/Users/ana/x'],
    ['/home/ana/src/xy', '/home/ana/src/x', '/Users/ana/x', '/home/ana/src/xy'], // a sibling, not inside
    ['/home/ana/.codex/skills', '/home/ana/src/x', '/Users/ana/x', '/home/ana/.codex/skills'],
    ['c:/users/ANA/x/src', 'C:\\Users\\ana\\x', '/home/ana/x', '/home/ana/x/src'], // Windows: any case, either separator
    ['C:\\Users\\ana\\x', 'C:\\Users\\ana\\x', '/mnt/c/Users/ana/x', '/mnt/c/Users/ana/x'],
    ['/mnt/c/Users/ana/x/a', '/mnt/c/Users/ana/x', 'C:\\Users\\ana\\x', 'C:\\Users\\ana\\x\\a'],
    ['\\\\server\\share\\x\\a', '\\\\server\\share\\x', '/Volumes/share/x', '/Volumes/share/x/a'],
    ['file:///home/ana/src/x', '/home/ana/src/x', 'C:\\Users\\ana\\x', 'file:///C:/Users/ana/x'],
    ['file:///C:/Users/ana/my%20x/a', 'C:\\Users\\ana\\my x', '/Users/ana/my x', 'file:///Users/ana/my%20x/a'],
    ['/Users/Ana/X', '/Users/ana/x', '/home/ana/x', '/Users/Ana/X'], // POSIX compares exactly
  ]
  for (const [p, from, to, want] of cases) it(`${p} from ${from} to ${to}`, () => expect(remapPath(p, from, to)).toBe(want))
})

describe('path helpers', () => {
  it('tells the style', () => {
    expect(pathStyleOf('C:\\x')).toBe('windows')
    expect(pathStyleOf('d:/x')).toBe('windows')
    expect(pathStyleOf('\\\\srv\\share')).toBe('windows')
    expect(pathStyleOf('/mnt/c/x')).toBe('posix')
    expect(pathStyleOf('/Users/ana')).toBe('posix')
  })
  it('gives the segments below a root', () => {
    expect(segmentsBelow('/a/b/c', '/a')).toEqual(['b', 'c'])
    expect(segmentsBelow('/a', '/a/')).toEqual([])
    expect(segmentsBelow('/ab', '/a')).toBeUndefined()
    expect(segmentsBelow('C:\\a', '/a')).toBeUndefined()
  })
  it('converts between Windows and WSL paths', () => {
    expect(wslPathOfWindows('C:\\Users\\ana\\x')).toBe('/mnt/c/Users/ana/x')
    expect(wslPathOfWindows('D:')).toBe('/mnt/d')
    expect(wslPathOfWindows('/home/x')).toBeUndefined()
    expect(windowsPathOfWsl('/mnt/c/Users/ana/x')).toBe('C:\\Users\\ana\\x')
    expect(windowsPathOfWsl('/home/ana')).toBeUndefined()
  })
  it('reads and writes file URLs', () => {
    expect(pathOfFileUrl('file:///C:/a%20b')).toBe('C:/a b')
    expect(pathOfFileUrl('file:///home/a')).toBe('/home/a')
    expect(pathOfFileUrl('https://x')).toBeUndefined()
    expect(fileUrlOf('C:\\a b\\c')).toBe('file:///C:/a%20b/c')
    expect(fileUrlOf('/home/a b')).toBe('file:///home/a%20b')
  })
  it('remaps only the keys that record a folder, and the <cwd> of an environment context', () => {
    const rec = {
      cwd: '/p/x',
      payload: { cwd: '/p/x/sub', runtime_workspace_roots: ['/p/x', '/other'] },
      message: { content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/p/x</cwd>\n</environment_context>' }] },
      input: { file_path: '/p/x/a.ts', command: 'ls /p/x' },
      snapshot: { trackedFileBackups: { 'a.ts': { realParentDir: '/p/x' } } },
    }
    expect(remapJsonPaths(rec, '/p/x', 'C:\\x')).toEqual({
      cwd: 'C:\\x',
      payload: { cwd: 'C:\\x\\sub', runtime_workspace_roots: ['C:\\x', '/other'] },
      message: { content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>C:\\x</cwd>\n</environment_context>' }] },
      input: { file_path: '/p/x/a.ts', command: 'ls /p/x' },
      snapshot: { trackedFileBackups: { 'a.ts': { realParentDir: 'C:\\x' } } },
    })
  })
})
