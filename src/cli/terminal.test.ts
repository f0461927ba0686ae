/**
 * `writeDiagnostics` (terminal.ts): the lines `sepia` prints on stderr for readers' diagnostics.
 */
import { describe, expect, it } from 'vitest'
import { PassThrough } from 'node:stream'
import { writeDiagnostics } from './terminal'

function printed(diagnostics: Parameters<typeof writeDiagnostics>[1]): string {
  const err = new PassThrough()
  writeDiagnostics(err, diagnostics)
  return String(err.read() ?? '')
}

describe('writeDiagnostics', () => {
  it('puts the path and line before a message', () => {
    expect(printed([{ severity: 'error', path: '/h/a.jsonl', line: 3, message: 'not JSON' }])).toBe('error: /h/a.jsonl:3: not JSON\n')
  })
  it('does not print the path twice when the message opens with it', () => {
    const path = '/h/.claude/projects/p/s.jsonl'
    const message = `${path} is not a regular file (a named pipe, device or socket); Sepia reads only regular files, so it was skipped.`
    expect(printed([{ severity: 'warning', path, message }])).toBe(`warning: ${message}\n`)
  })
  it('counts what it leaves out past the limit', () => {
    const many = Array.from({ length: 22 }, (_, i) => ({ severity: 'info' as const, path: `/f${i}`, message: 'm' }))
    expect(printed(many).split('\n').slice(-2)).toEqual(['… and 2 more problems; use --json to see them all.', ''])
  })
})
