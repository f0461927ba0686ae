import { describe, expect, it } from 'vitest'
import { formatArguments, summarizeArguments } from './tool-summary'

describe('summarizeArguments', () => {
  it('shows the command of an execute call (string, argv array, Cline SDK list)', () => {
    expect(summarizeArguments({ kind: 'execute', arguments: { command: 'ls -la', description: 'List' } })).toBe('ls -la')
    expect(summarizeArguments({ kind: 'execute', arguments: { command: ['bash', '-lc', 'cat x'] } })).toBe('bash -lc cat x')
    expect(summarizeArguments({ kind: 'execute', arguments: { commands: ['git log --oneline | head -3'] } })).toBe('git log --oneline | head -3')
    expect(summarizeArguments({ kind: 'execute', arguments: { commands: [{ command: 'a' }, { command: 'b' }] } })).toBe('a; b')
  })

  it('shows the path of read and edit calls, under every agent naming', () => {
    expect(summarizeArguments({ kind: 'read', arguments: { file_path: '/p/a.ts' } })).toBe('/p/a.ts')
    expect(summarizeArguments({ kind: 'edit', arguments: { filePath: 'C:\\p\\b.ts', oldString: 'x' } })).toBe('C:\\p\\b.ts')
    expect(summarizeArguments({ kind: 'read', arguments: { absolute_path: '/p/c.ts' } })).toBe('/p/c.ts')
    expect(summarizeArguments({ kind: 'edit', arguments: {}, locations: [{ path: '/p/loc.ts' }] })).toBe('/p/loc.ts')
  })

  it('shows pattern and folder of a search, the URL of a fetch, the first line of a string', () => {
    expect(summarizeArguments({ kind: 'search', arguments: { pattern: 'TODO', path: 'src' } })).toBe('TODO  in src')
    expect(summarizeArguments({ kind: 'fetch', arguments: { url: 'https://x.dev', prompt: 'read' } })).toBe('https://x.dev')
    expect(summarizeArguments({ kind: 'other', arguments: 'first line\nsecond' })).toBe('first line')
    expect(summarizeArguments({ kind: 'read', arguments: '{"path":"/j.ts"}' })).toBe('/j.ts')
    expect(summarizeArguments({ kind: 'other', arguments: { description: 'Summarize git history', prompt: 'long' } })).toBe('Summarize git history')
    expect(summarizeArguments({ kind: 'other', arguments: { n: { deep: 1 } } })).toBe('')
  })

  it('cuts long summaries with an ellipsis', () => {
    const s = summarizeArguments({ kind: 'execute', arguments: { command: 'x'.repeat(500) } }, 20)
    expect(s).toHaveLength(20)
    expect(s.endsWith('…')).toBe(true)
  })
})

describe('formatArguments', () => {
  it('pretty-prints objects and JSON strings, keeps other strings', () => {
    expect(formatArguments({ a: 1 })).toBe('{\n  "a": 1\n}')
    expect(formatArguments('{"a":1}')).toBe('{\n  "a": 1\n}')
    expect(formatArguments('plain')).toBe('plain')
  })
})
