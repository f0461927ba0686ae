import { describe, expect, it } from 'vitest'
import { hashOf, isOpenablePath, LaunchRouter, targetFromArgv, targetFromUrl } from './deep-links'

describe('targetFromArgv', () => {
  it('finds a deep link or an associated file after the program, skipping switches', () => {
    expect(targetFromArgv(['/opt/Sepia/sepia', 'sepia://session/cline/1796022183774_v75nv'])).toEqual({ kind: 'session', link: { agent: 'cline', id: '1796022183774_v75nv' } })
    // Windows' second-instance argv carries Chromium switches before the link.
    expect(targetFromArgv(['C:\\Sepia\\Sepia.exe', '--allow-file-access-from-files', '--', 'sepia://session/codex/abc'])).toEqual({ kind: 'session', link: { agent: 'codex', id: 'abc' } })
    expect(targetFromArgv(['sepia', '/home/ana/Downloads/sepia-review-2026-12-01.zip'])).toEqual({ kind: 'open', path: '/home/ana/Downloads/sepia-review-2026-12-01.zip' })
    expect(targetFromArgv(['Sepia.exe', 'C:\\Users\\ana\\s.JSONL'])).toEqual({ kind: 'open', path: 'C:\\Users\\ana\\s.JSONL' })
    expect(targetFromArgv(['electron', '.', '--home', '/h'])).toBeUndefined()
  })

  it('ignores bad links, relative paths and other files', () => {
    expect(targetFromArgv(['sepia', 'sepia://session/cline/../../etc'])).toBeUndefined()
    expect(targetFromArgv(['sepia', 'sepia://session/nope/abc'])).toBeUndefined()
    expect(targetFromArgv(['sepia', 'notes.jsonl'])).toBeUndefined()
    expect(targetFromArgv(['sepia', '/etc/passwd'])).toBeUndefined()
    expect(targetFromArgv(['sepia', '/x/a\n.jsonl'])).toBeUndefined()
    expect(targetFromArgv(['sepia://session/cline/abc'])).toBeUndefined() // the program itself
  })

  it('open-url links follow the same rules', () => {
    expect(targetFromUrl('sepia://session/gemini/abc')).toEqual({ kind: 'session', link: { agent: 'gemini', id: 'abc' } })
    expect(targetFromUrl('sepia://session/gemini/%2e%2e')).toBeUndefined()
    expect(isOpenablePath('relative/x.zip')).toBe(false)
  })
})

describe('LaunchRouter', () => {
  it('keeps a target until the window attaches, then shows each new one', () => {
    const r = new LaunchRouter()
    r.receive(undefined)
    r.receive({ kind: 'session', link: { agent: 'cline', id: 'a1' } })
    const shown: string[] = []
    expect(r.attach((h) => shown.push(h))).toBe('/session/cline/a1')
    expect(new LaunchRouter().attach(() => undefined)).toBe('')
    r.receive({ kind: 'open', path: '/home/ana/a b#?.zip' })
    expect(shown).toEqual(['open=%2Fhome%2Fana%2Fa%20b%23%3F.zip'])
    expect(decodeURIComponent(hashOf({ kind: 'open', path: '/home/ana/a b#?.zip' }).slice(5))).toBe('/home/ana/a b#?.zip')
  })
})
