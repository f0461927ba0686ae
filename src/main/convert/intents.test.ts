/** Vocabulary mapping: each agent's tool calls → intents → Claude Code and Cline calls. */
import { describe, expect, it } from 'vitest'
import type { ToolCall } from '../../shared/ir'
import { toolKind } from '../ir/toolkind'
import { absolutePath, decodeCall, type Intent } from './intents'
import { compareTranscripts, transcriptOf } from './transcript'
import { VOCABULARIES } from './vocab'
import { encodeIntent } from './vocabulary'
import { newSession } from '../ir/build'

const call = (name: string, args: unknown, extra: Partial<ToolCall> = {}): ToolCall => ({ id: 'c', name, kind: toolKind(name), arguments: args, ...extra })
const ctx = { cwd: '/home/ana/src/app' }
const to = (agent: 'claude-code' | 'cline', i: Intent) => encodeIntent(VOCABULARIES[agent]!, i, ctx)

describe('decodeCall', () => {
  it.each<[string, unknown, Intent[]]>([
    ['Bash', { command: 'ls', description: 'list' }, [{ type: 'execute', command: 'ls', description: 'list' }]],
    ['exec_command', { cmd: 'make', workdir: 'sub' }, [{ type: 'execute', command: 'make', cwd: '/home/ana/src/app/sub' }]],
    ['shell', { command: ['bash', '-lc', 'git status'] }, [{ type: 'execute', command: 'git status' }]],
    ['run_shell_command', { command: 'ls', dir_path: '/tmp' }, [{ type: 'execute', command: 'ls', cwd: '/tmp' }]],
    ['execute_command', { command: 'npm test' }, [{ type: 'execute', command: 'npm test' }]],
    ['exec', { command: 'pytest' }, [{ type: 'execute', command: 'pytest' }]],
    ['run_commands', { commands: ['a', 'b'] }, [{ type: 'execute', command: 'a' }, { type: 'execute', command: 'b' }]],
    ['read', { filePath: '/x/a.ts', offset: 10, limit: 5 }, [{ type: 'read', path: '/x/a.ts', offset: 10, limit: 5 }]],
    ['read_file', { file_path: 'a.md', start_line: 2, end_line: 4 }, [{ type: 'read', path: '/home/ana/src/app/a.md', offset: 2, limit: 3 }]],
    ['view', { file_path: '/x/a.go' }, [{ type: 'read', path: '/x/a.go' }]], // Crush
    ['view', { file_path: '/x/a.go', offset: 2000, limit: 50 }, [{ type: 'read', path: '/x/a.go', offset: 2001, limit: 50 }]], // Crush's offset is 0-based
    ['view', { path: '/x/a.go', view_range: [3, 5] }, [{ type: 'read', path: '/x/a.go', offset: 3, limit: 3 }]], // Copilot CLI
    ['read_files', { files: [{ path: '/a' }, { path: '/b' }] }, [{ type: 'read', path: '/a' }, { type: 'read', path: '/b' }]],
    ['write', { filePath: '/n.md', content: 'x' }, [{ type: 'write', path: '/n.md', content: 'x' }]],
    ['write_to_file', { path: 'n.md', content: 'x' }, [{ type: 'write', path: '/home/ana/src/app/n.md', content: 'x' }]],
    ['edit', { filePath: '/n.md', oldString: 'a', newString: 'b', replaceAll: true }, [{ type: 'edit', path: '/n.md', oldText: 'a', newText: 'b', replaceAll: true }]],
    ['replace', { file_path: '/n.md', old_string: 'a', new_string: 'b', instruction: 'x' }, [{ type: 'edit', path: '/n.md', oldText: 'a', newText: 'b' }]],
    ['editor', { path: '/n.md', new_text: 'all' }, [{ type: 'write', path: '/n.md', content: 'all' }]],
    ['editor', { path: '/n.md', old_text: 'a', new_text: 'b' }, [{ type: 'edit', path: '/n.md', oldText: 'a', newText: 'b' }]],
    ['grep_search', { pattern: 'TODO', dir_path: 'src', include_pattern: '*.ts' }, [{ type: 'search', pattern: 'TODO', path: '/home/ana/src/app/src', include: '*.ts' }]],
    ['search_codebase', { queries: ['a', 'b'] }, [{ type: 'search', pattern: 'a' }, { type: 'search', pattern: 'b' }]],
    ['glob', { pattern: '**/*.ts', dir_path: '/x' }, [{ type: 'glob', pattern: '**/*.ts', path: '/x' }]],
    ['list_directory', { dir_path: '.' }, [{ type: 'list', path: '/home/ana/src/app' }]],
    ['web_fetch', { prompt: 'Summarize https://example.com/a please' }, [{ type: 'fetch', url: 'https://example.com/a', prompt: 'Summarize https://example.com/a please' }]],
    ['fetch_web_content', { requests: [{ url: 'https://a', prompt: 'p' }] }, [{ type: 'fetch', url: 'https://a', prompt: 'p' }]],
    ['google_web_search', { query: 'vitest' }, [{ type: 'web-search', query: 'vitest' }]],
    ['Agent', { description: 'd', prompt: 'p', subagent_type: 'general-purpose' }, [{ type: 'subagent', prompt: 'p', description: 'd', agentType: 'general-purpose' }]],
    ['spawn_agent', { systemPrompt: 's', task: 't' }, [{ type: 'subagent', prompt: 't', systemPrompt: 's' }]],
    ['invoke_agent', { agent_name: 'generalist', prompt: 'p' }, [{ type: 'subagent', prompt: 'p', agentType: 'generalist' }]],
  ])('%s %j', (name, args, want) => {
    expect(decodeCall(call(name, args), ctx)).toEqual(want)
  })

  it('keeps tools it has no words for, and arguments that do not fit', () => {
    expect(decodeCall(call('TodoWrite', { todos: [] }), ctx)).toBeUndefined()
    expect(decodeCall(call('Bash', { nope: 1 }), ctx)).toBeUndefined()
    expect(decodeCall(call('editor', { path: '/a', new_text: 'x', insert_line: 3 }), ctx)).toBeUndefined()
  })

  it('reads patches from the diffs the reader parsed; deletions have no counterpart', () => {
    const add = call('apply_patch', '*** Begin Patch\n*** Add File: N.md\n+x\n*** End Patch', { diffs: [{ path: '/home/ana/src/app/N.md', newText: 'x\n' }] })
    expect(decodeCall(add, ctx)).toEqual([{ type: 'write', path: '/home/ana/src/app/N.md', content: 'x\n' }])
    const del = call('apply_patch', '*** Begin Patch\n*** Delete File: N.md\n*** End Patch', { diffs: [] })
    expect(decodeCall(del, ctx)).toBeUndefined()
    const legacy = call('replace_in_file', { path: 'N.md', content: '...' }, { diffs: [{ path: 'N.md', oldText: 'a', newText: 'b' }] })
    expect(decodeCall(legacy, ctx)).toEqual([{ type: 'edit', path: '/home/ana/src/app/N.md', oldText: 'a', newText: 'b' }])
  })

  it('makes paths absolute in POSIX and Windows syntax', () => {
    expect(absolutePath('a/b', '/p')).toBe('/p/a/b')
    expect(absolutePath('./a', 'C:\\p')).toBe('C:\\p\\a')
    expect(absolutePath('C:\\x', '/p')).toBe('C:\\x')
  })
})

describe('target vocabularies', () => {
  it('writes every intent in Claude Code words', () => {
    expect(to('claude-code', { type: 'execute', command: 'ls', cwd: '/other dir' })).toEqual({ name: 'Bash', input: { command: "cd '/other dir' && ls" } })
    expect(to('claude-code', { type: 'execute', command: 'ls', cwd: '/home/ana/src/app' })).toEqual({ name: 'Bash', input: { command: 'ls' } })
    expect(to('claude-code', { type: 'search', pattern: 'x', include: '*.ts' })).toEqual({ name: 'Grep', input: { pattern: 'x', glob: '*.ts' } })
    expect(to('claude-code', { type: 'fetch', url: 'https://a' })).toEqual({ name: 'WebFetch', input: { url: 'https://a', prompt: 'Return the content of the page.' } })
    expect(to('claude-code', { type: 'subagent', prompt: 'Look at the git history of this repository and report' })).toEqual({
      name: 'Agent',
      input: { description: 'Look at the git history of', prompt: 'Look at the git history of this repository and report', subagent_type: 'general-purpose' },
    })
  })

  it('writes every intent Cline has a tool for, one item per call', () => {
    expect(to('cline', { type: 'read', path: '/a', offset: 3, limit: 5 })).toEqual({ name: 'read_files', input: { files: [{ path: '/a', start_line: 3, end_line: 7 }] } })
    expect(to('cline', { type: 'write', path: '/a', content: 'x' })).toEqual({ name: 'editor', input: { path: '/a', new_text: 'x' } })
    expect(to('cline', { type: 'glob', pattern: '*' })).toBeUndefined()
    expect(to('cline', { type: 'web-search', query: 'q' })).toBeUndefined()
    expect(to('cline', { type: 'list', path: '/a b' })).toEqual({ name: 'run_commands', input: { commands: ["ls -la '/a b'"] } })
  })
})

describe('compareTranscripts', () => {
  it('names what differs in plain words', () => {
    const a = newSession('cline', 'a', 't', [])
    a.nodes = [
      { nodeId: '1', role: 'user', content: 'hello   world' },
      { nodeId: '2', role: 'assistant', content: 'ok', toolCalls: [call('Bash', { command: 'ls' }, { id: 'x' })] },
      { nodeId: '3', role: 'tool', content: 'out', toolCallId: 'x' },
    ]
    const b = structuredClone(a)
    b.nodes[0]!.content = 'hello world'
    expect(compareTranscripts(transcriptOf(a), transcriptOf(b))).toEqual([])
    b.nodes[1]!.content = 'changed'
    b.nodes.pop()
    expect(compareTranscripts(transcriptOf(a), transcriptOf(b))).toEqual([
      'tool results: wrote 1, read back 0',
      'tool calls with a result: wrote 1, read back 0',
      'turn 2 (assistant): text differs: wrote "ok", read back "changed"',
      'turn 3 (tool) is missing after reading back: "out"',
    ])
  })
})
