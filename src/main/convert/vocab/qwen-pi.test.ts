/** Qwen Code and Pi as convert targets: intents → their tool names and arguments; Pi's own calls decoded back. */
import { describe, expect, it } from 'vitest'
import { decodeCall } from '../intents'
import { encodeIntent } from '../vocabulary'
import { piVocabulary } from './pi'
import { qwenCodeVocabulary } from './qwen-code'

const ctx = { cwd: '/home/ana/src/app' }
const qwen = (i: Parameters<typeof encodeIntent>[1]) => encodeIntent(qwenCodeVocabulary, i, ctx)
const pi = (i: Parameters<typeof encodeIntent>[1]) => encodeIntent(piVocabulary, i, ctx)

describe('qwenCodeVocabulary', () => {
  it('uses Qwen Code 0.15.10 names and parameters', () => {
    expect(qwen({ type: 'execute', command: 'ls', cwd: '/home/ana/src/app' })).toEqual({ name: 'run_shell_command', input: { command: 'ls' } })
    expect(qwen({ type: 'execute', command: 'make', cwd: '/tmp/b', timeoutMs: 5000 })).toEqual({ name: 'run_shell_command', input: { command: 'make', directory: '/tmp/b', timeout: 5000 } })
    // read_file's offset is 0-based and needs a limit.
    expect(qwen({ type: 'read', path: '/x/f.ts', offset: 10, limit: 5 })).toEqual({ name: 'read_file', input: { file_path: '/x/f.ts', offset: 9, limit: 5 } })
    expect(qwen({ type: 'read', path: '/x/f.ts', offset: 10 })!.input).toEqual({ file_path: '/x/f.ts', offset: 9, limit: 2000 })
    expect(qwen({ type: 'edit', path: '/x/f.ts', oldText: 'a', newText: 'b', replaceAll: true })).toEqual({ name: 'edit', input: { file_path: '/x/f.ts', old_string: 'a', new_string: 'b', replace_all: true } })
    expect(qwen({ type: 'search', pattern: 'TODO', path: '/x', include: '*.ts' })).toEqual({ name: 'grep_search', input: { pattern: 'TODO', path: '/x', glob: '*.ts' } })
    expect(qwen({ type: 'list', path: '/x' })).toEqual({ name: 'list_directory', input: { path: '/x' } })
    expect(qwen({ type: 'fetch', url: 'https://example.com' })!.input).toEqual({ url: 'https://example.com', prompt: 'Return the content of https://example.com.' })
    expect(qwen({ type: 'web-search', query: 'x' })).toBeUndefined()
    expect(qwen({ type: 'subagent', prompt: 'Find every caller of parse in the repository' })).toEqual({ name: 'agent', input: { description: 'Find every caller of parse', prompt: 'Find every caller of parse in the repository' } })
  })
})

describe('piVocabulary', () => {
  it('uses Pi 0.73.1 names and parameters; no fetch, web search or sub-agent tool', () => {
    expect(pi({ type: 'execute', command: 'make', cwd: '/tmp/b', timeoutMs: 30_000 })).toEqual({ name: 'bash', input: { command: 'cd /tmp/b && make', timeout: 30 } })
    expect(pi({ type: 'read', path: '/x/f.ts', offset: 10, limit: 5 })).toEqual({ name: 'read', input: { path: '/x/f.ts', offset: 10, limit: 5 } })
    expect(pi({ type: 'edit', path: '/x/f.ts', oldText: 'a', newText: 'b' })).toEqual({ name: 'edit', input: { path: '/x/f.ts', edits: [{ oldText: 'a', newText: 'b' }] } })
    expect(pi({ type: 'edit', path: '/x/f.ts', oldText: 'a', newText: 'b', replaceAll: true })).toBeUndefined()
    expect(pi({ type: 'glob', pattern: '**/*.ts', path: '/x' })).toEqual({ name: 'find', input: { pattern: '**/*.ts', path: '/x' } })
    expect(pi({ type: 'list', path: '/x' })).toEqual({ name: 'ls', input: { path: '/x' } })
    expect(pi({ type: 'fetch', url: 'https://example.com' })).toBeUndefined()
    expect(pi({ type: 'web-search', query: 'x' })).toBeUndefined()
    expect(pi({ type: 'subagent', prompt: 'x' })).toBeUndefined()
  })

  it("decodes Pi's own calls (find is a glob, edit's edits[] one intent each)", () => {
    expect(decodeCall({ id: 'c', name: 'find', kind: 'search', arguments: { pattern: '*.ts', path: 'src' } }, ctx)).toEqual([{ type: 'glob', pattern: '*.ts', path: '/home/ana/src/app/src' }])
    expect(decodeCall({ id: 'c', name: 'edit', kind: 'edit', arguments: { path: 'a.txt', edits: [{ oldText: 'a', newText: 'b' }, { oldText: 'c', newText: 'd' }] } }, ctx)).toHaveLength(2)
  })
})
