/**
 * Issue 17: a session row's diagnostic count counts `error` and `warning` diagnostics, not `info`
 * notes; of those, `problemCount` counts what left something out (an error, a skipped record).
 */
import { describe, expect, it } from 'vitest'
import { newSession, problemCount, summarize } from './build'

describe('summarize: problem count', () => {
  it('counts errors and warnings; an info note is not a problem', () => {
    const s = newSession('cursor', 'c1', 'cursor-vscdb', ['/h/state.vscdb'])
    s.diagnostics = [
      { severity: 'info', path: '/h/state.vscdb', message: '2 bubble rows not in the header list; not shown' },
      { severity: 'warning', path: '/h/state.vscdb', message: 'a bubble without text' },
      { severity: 'error', path: '/h/state.vscdb', line: 3, message: 'not JSON' },
    ]
    expect(problemCount(s.diagnostics)).toBe(2)
    expect(summarize(s, '/h').diagnosticCount).toBe(2)
    // Of those, only the error left something out: the row says 1 problem and 1 note.
    expect(summarize(s, '/h').problemCount).toBe(1)
    s.diagnostics.push({ severity: 'warning', path: '/h/state.vscdb', message: '1 bubble skipped', skipped: 1 })
    expect(summarize(s, '/h')).toMatchObject({ diagnosticCount: 3, problemCount: 2 })
    s.diagnostics = [s.diagnostics[0]!]
    expect(summarize(s, '/h').diagnosticCount).toBe(0)
  })
})
