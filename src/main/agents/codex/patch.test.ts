/**
 * The apply_patch parser: add/update/move/delete, several hunks, path resolution, and the places
 * a patch can hide in a call's arguments.
 */
import { describe, expect, it } from 'vitest'
import { parsePatch, patchTextOf, resolvePath } from './patch'

const PATCH = [
  '*** Begin Patch',
  '*** Add File: docs/new.md',
  '+# New',
  '+',
  '+text',
  '*** Update File: src/app.py',
  '*** Move to: src/main.py',
  '@@ def main():',
  ' a = 1',
  '-b = 2',
  '+b = 3',
  '@@ def other():',
  '-return None',
  '+return 0',
  '*** End of File',
  '*** Delete File: old.txt',
  '*** End Patch',
].join('\n')

describe('codex apply_patch parser', () => {
  it('turns each added file and each update hunk into a diff, every path into a location', () => {
    expect(parsePatch(PATCH, '/w')).toEqual({
      diffs: [
        { path: '/w/docs/new.md', newText: '# New\n\ntext\n' },
        { path: '/w/src/app.py', oldText: 'a = 1\nb = 2', newText: 'a = 1\nb = 3' },
        { path: '/w/src/app.py', oldText: 'return None', newText: 'return 0' },
      ],
      locations: [{ path: '/w/docs/new.md' }, { path: '/w/src/app.py' }, { path: '/w/src/main.py' }, { path: '/w/old.txt' }],
    })
  })

  it('keeps paths as written without a cwd, and absolute or Windows paths as they are', () => {
    expect(parsePatch('*** Begin Patch\n*** Delete File: a.txt\n*** End Patch')).toEqual({ diffs: [], locations: [{ path: 'a.txt' }] })
    expect(resolvePath('/abs/x', '/w')).toBe('/abs/x')
    expect(resolvePath('src\\x.ts', 'C:\\proj')).toBe('C:\\proj\\src\\x.ts')
    expect(resolvePath('D:\\x.ts', 'C:\\proj')).toBe('D:\\x.ts')
    expect(resolvePath('./x.ts', '/w/')).toBe('/w/x.ts')
  })

  it('finds no patch in text without file headers', () => {
    expect(parsePatch('hello')).toBeUndefined()
  })

  it('finds the patch text of freeform, function-style and shell calls', () => {
    expect(patchTextOf('apply_patch', PATCH)).toBe(PATCH)
    expect(patchTextOf('apply_patch', { input: PATCH })).toBe(PATCH)
    expect(patchTextOf('shell', { command: ['apply_patch', PATCH] })).toBe(PATCH)
    expect(patchTextOf('exec_command', { cmd: `apply_patch <<'EOF'\n${PATCH}\nEOF` })).toContain('*** Add File: docs/new.md')
    expect(patchTextOf('exec_command', { cmd: 'ls' })).toBeUndefined()
    expect(patchTextOf('web_search', 'query')).toBeUndefined()
  })
})
