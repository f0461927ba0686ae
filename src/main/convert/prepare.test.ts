/** prepareForTarget on hand-built sessions: every rule of the IR-level conversion, with counts. */
import { describe, expect, it } from 'vitest'
import type { ConvertWarning } from '../../shared/convert'
import type { MessageNode, Session, ToolCall } from '../../shared/ir'
import { newSession } from '../ir/build'
import { toolKind } from '../ir/toolkind'
import { NO_RESULT_TEXT, prepareForTarget, type TargetProfile } from './prepare'
import { SEE_FIRST_PART } from './fanout'
import { VOCABULARIES } from './vocab'

const claude: TargetProfile = { agent: 'claude-code', displayName: 'Claude Code', providerFamily: 'anthropic', vocabulary: VOCABULARIES['claude-code']! }
const cline: TargetProfile = { agent: 'cline', displayName: 'Cline', providerFamily: 'any', vocabulary: VOCABULARIES.cline! }

const call = (id: string, name: string, args: unknown): ToolCall => ({ id, name, kind: toolKind(name), arguments: args })
const user = (nodeId: string, content: string, extra: Partial<MessageNode> = {}): MessageNode => ({ nodeId, role: 'user', content, ...extra })
const assistant = (nodeId: string, content: string, extra: Partial<MessageNode> = {}): MessageNode => ({ nodeId, role: 'assistant', content, ...extra })
const result = (nodeId: string, toolCallId: string, content: string, extra: Partial<MessageNode> = {}): MessageNode => ({ nodeId, role: 'tool', toolCallId, content, ...extra })

function session(agent: Session['agent'], nodes: MessageNode[], extra: Partial<Session> = {}): Session {
  const s = newSession(agent, 'src-1', 'test', ['/src/file'])
  nodes.forEach((n, i) => {
    if (i > 0 && n.parentNodeId === undefined) n.parentNodeId = nodes[i - 1]!.nodeId
  })
  return { ...s, workingDirectory: '/home/ana/src/app', nodes, ...extra }
}

const warning = (ws: ConvertWarning[], kind: ConvertWarning['kind']) => ws.filter((w) => w.kind === kind)
const shape = (s: Session) => s.nodes.map((n) => `${n.role}:${n.toolCalls?.map((c) => c.name).join(',') ?? ''}${n.toolCallId ? `@${n.toolCallId}` : ''}`)

describe('prepareForTarget', () => {
  it('maps Cline tools to Claude Code and splits a fan-out call per item with its own result', () => {
    const s = session('cline', [
      user('u1', 'list and read'),
      assistant('a1', 'Running two commands.', { toolCalls: [call('c1', 'run_commands', { commands: ['ls', 'pwd'] })] }),
      result('r1', 'c1', '> ls\nREADME.md\n\n> pwd\n/home/ana/src/app', { metadata: { results: [{ query: 'ls', success: true }, { query: 'pwd', success: false }] } }),
      assistant('a2', 'Now a file.', { toolCalls: [call('c2', 'read_files', { files: [{ path: 'src/a.ts', start_line: 3, end_line: 7 }] }), call('c3', 'editor', { path: '/x/n.md', new_text: 'hi' })] }),
      result('r2', 'c2', 'const a = 1'),
      result('r3', 'c3', 'File created'),
    ])
    const { session: out, warnings } = prepareForTarget(s, claude, { textOnly: false })
    expect(shape(out)).toEqual(['user:', 'assistant:Bash,Bash', 'tool:@c1', 'tool:@c1_2', 'assistant:Read,Write', 'tool:@c2', 'tool:@c3'])
    expect(out.nodes[1]!.toolCalls!.map((c) => c.arguments)).toEqual([{ command: 'ls' }, { command: 'pwd' }])
    expect(out.nodes[2]).toMatchObject({ content: 'README.md' })
    expect(out.nodes[3]).toMatchObject({ content: '/home/ana/src/app', isError: true })
    expect(out.nodes[4]!.toolCalls!.map((c) => c.arguments)).toEqual([{ file_path: '/home/ana/src/app/src/a.ts', offset: 3, limit: 5 }, { file_path: '/x/n.md', content: 'hi' }])
    expect(warning(warnings, 'tool-split')).toEqual([{ kind: 'tool-split', count: 1, name: 'run_commands', into: 2 }])
    expect(warning(warnings, 'tool-mapped').map((w) => [w.count, (w as { from: string }).from, (w as { to: string }).to])).toEqual([
      [1, 'run_commands', 'Bash'],
      [1, 'read_files', 'Read'],
      [1, 'editor', 'Write'],
    ])
    // A linear chain.
    expect(out.nodes.every((n, i) => (i === 0 ? n.parentNodeId === undefined : n.parentNodeId === out.nodes[i - 1]!.nodeId))).toBe(true)
  })

  it('maps Claude Code tools to Cline, folds a cwd into the command, keeps a tool with no counterpart', () => {
    const s = session('claude-code', [
      user('u1', 'go'),
      assistant('a1', '', {
        toolCalls: [
          call('t1', 'Bash', { command: 'ls', description: 'list' }),
          call('t2', 'Edit', { file_path: '/p/a', old_string: 'x', new_string: 'y' }),
          call('t3', 'TodoWrite', { todos: [] }),
          call('t4', 'Glob', { pattern: '*.ts' }),
        ],
      }),
      result('r1', 't1', 'a b'),
      result('r2', 't2', 'edited'),
      result('r3', 't3', 'ok'),
      result('r4', 't4', 'a.ts'),
    ])
    const { session: out, warnings } = prepareForTarget(s, cline, { textOnly: false })
    expect(out.nodes[1]!.toolCalls!.map((c) => [c.name, c.arguments])).toEqual([
      ['run_commands', { commands: ['ls'] }],
      ['editor', { path: '/p/a', old_text: 'x', new_text: 'y' }],
      ['TodoWrite', { todos: [] }],
      ['Glob', { pattern: '*.ts' }],
    ])
    expect(warning(warnings, 'tool-kept').map((w) => (w as { name: string }).name).sort()).toEqual(['Glob', 'TodoWrite'])

    const codex = session('codex', [user('u', 'x'), assistant('a', '', { toolCalls: [call('e1', 'exec_command', { cmd: 'make', workdir: '/elsewhere' })] }), result('r', 'e1', 'ok')])
    expect(prepareForTarget(codex, claude, { textOnly: false }).session.nodes[1]!.toolCalls![0]!.arguments).toEqual({ command: 'cd /elsewhere && make' })
  })

  it('keeps signed thinking only for the provider that sealed it, drops unsigned thinking, and says so', () => {
    const nodes = () => [
      user('u', 'think'),
      assistant('a1', 'one', { thinking: 'signed', thinkingSignature: 'sig-1', model: 'claude-sonnet-4-5' }),
      user('u2', 'again'),
      assistant('a2', 'two', { thinking: 'plain' }),
    ]
    const toClaude = prepareForTarget(session('claude-code', nodes()), claude, { textOnly: false })
    expect(toClaude.session.nodes[1]).toMatchObject({ thinking: 'signed', thinkingSignature: 'sig-1' })
    expect(toClaude.session.nodes[3]!.thinking).toBeUndefined()
    expect(warning(toClaude.warnings, 'thinking-unsigned-dropped')).toEqual([{ kind: 'thinking-unsigned-dropped', count: 1 }])
    expect(warning(toClaude.warnings, 'thinking-other-provider-dropped')).toEqual([])

    const toCline = prepareForTarget(session('claude-code', nodes()), cline, { textOnly: false })
    expect(toCline.session.nodes.some((n) => n.thinking !== undefined || n.thinkingSignature !== undefined)).toBe(false)
    expect(warning(toCline.warnings, 'thinking-other-provider-dropped')).toEqual([{ kind: 'thinking-other-provider-dropped', count: 1, from: 'anthropic', to: 'any' }])

    const devin = prepareForTarget(session('devin', nodes()), claude, { textOnly: false })
    expect(warning(devin.warnings, 'thinking-other-provider-dropped')).toEqual([{ kind: 'thinking-other-provider-dropped', count: 1, from: 'devin', to: 'anthropic' }])
  })

  it('pairs every call: moves a late result, adds a placeholder for a missing one, turns an orphan into text', () => {
    const s = session('claude-code', [
      user('u', 'go'),
      assistant('a1', 'calls', { toolCalls: [call('t1', 'Bash', { command: 'a' }), call('t2', 'Bash', { command: 'b' })] }),
      result('r2', 't2', 'B out'),
      user('u2', 'meanwhile'),
      result('r1', 't1', 'A out'),
      result('rx', 'gone', 'orphan out', { toolName: 'Read' }),
    ])
    const { session: out, warnings } = prepareForTarget(s, claude, { textOnly: false })
    expect(shape(out)).toEqual(['user:', 'assistant:Bash,Bash', 'tool:@t1', 'tool:@t2', 'user:', 'user:'])
    expect(out.nodes[2]!.content).toBe('A out')
    expect(out.nodes[5]!.content).toBe('[Result of a tool call (Read) that is not in this conversation]\norphan out')
    expect(warning(warnings, 'orphan-result-as-text')[0]!.count).toBe(1)
    expect(warning(warnings, 'result-moved')[0]!.count).toBeGreaterThanOrEqual(1)

    const unpaired = prepareForTarget(session('claude-code', [user('u', 'go'), assistant('a', '', { toolCalls: [call('t9', 'Bash', { command: 'x' })] })]), claude, { textOnly: false })
    expect(shape(unpaired.session)).toEqual(['user:', 'assistant:Bash', 'tool:@t9'])
    expect(unpaired.session.nodes[2]!.content).toBe(NO_RESULT_TEXT)
    expect(warning(unpaired.warnings, 'unpaired-call-result-added')).toEqual([{ kind: 'unpaired-call-result-added', count: 1 }])
  })

  it('keeps the main thread, drops events, injected context and system messages, folds twins', () => {
    const s = session('devin', [
      { nodeId: 's', role: 'system', content: 'You are Devin' },
      user('u', 'hello', { parentNodeId: 's' }),
      assistant('a', 'hi', { parentNodeId: 'u', toolCalls: [call('x1', 'exec', { command: 'ls' })] }),
      assistant('a-twin', 'hi', { parentNodeId: 'a', toolCalls: [call('x1', 'exec', { command: 'ls' })] }),
      result('r', 'x1', 'files', { parentNodeId: 'a-twin' }),
      user('m', '<system-reminder>x</system-reminder>', { parentNodeId: 'r', isMeta: true }),
      { nodeId: 'e', role: 'system', content: 'Model: a → b', event: 'model-change', parentNodeId: 'm' },
      assistant('b', 'done', { parentNodeId: 'e' }),
      assistant('branch', 'abandoned', { parentNodeId: 'u', metadata: { branch: true } }),
    ])
    s.metadata.mainThread = ['s', 'u', 'a', 'a-twin', 'r', 'm', 'e', 'b']
    const { session: out, warnings } = prepareForTarget(s, claude, { textOnly: false })
    expect(out.nodes.map((n) => n.content)).toEqual(['hello', 'hi', 'files', 'done'])
    expect(out.nodes[1]!.toolCalls!.map((c) => c.name)).toEqual(['Bash'])
    const counts = Object.fromEntries(warnings.map((w) => [w.kind, w.count]))
    expect(counts).toMatchObject({ 'branch-dropped': 1, 'twin-folded': 1, 'injected-context-dropped': 1, 'system-message-dropped': 1, 'event-dropped': 1 })
  })

  it('walks parent links past a broken link and keeps sibling results of a call', () => {
    const s = session('claude-code', [
      user('u1', 'first'),
      assistant('a1', 'two calls', { parentNodeId: 'u1', toolCalls: [call('p', 'Bash', { command: 'a' }), call('q', 'Bash', { command: 'b' })] }),
      result('rp', 'p', 'pa', { parentNodeId: 'a1' }),
      result('rq', 'q', 'qb', { parentNodeId: 'a1' }),
      user('u2', 'after a broken link', { parentNodeId: 'missing-uuid' }),
      assistant('a2', 'end', { parentNodeId: 'u2' }),
    ])
    s.nodes[4]!.parentNodeId = undefined
    const { session: out } = prepareForTarget(s, claude, { textOnly: false })
    expect(out.nodes.map((n) => n.content)).toEqual(['first', 'two calls', 'pa', 'qb', 'after a broken link', 'end'])
  })

  it('text-only renders calls and results as text and writes no tool blocks', () => {
    const s = session('cline', [user('u', 'go'), assistant('a', 'Listing.', { toolCalls: [call('c', 'run_commands', { commands: ['ls'] })] }), result('r', 'c', 'README.md', { isError: true })])
    const { session: out, warnings } = prepareForTarget(s, claude, { textOnly: true })
    expect(out.nodes.map((n) => [n.role, n.content])).toEqual([
      ['user', 'go'],
      ['assistant', 'Listing.\n\n[Tool call: run_commands]\n{\n  "commands": [\n    "ls"\n  ]\n}'],
      ['user', '[Tool result: run_commands (error)]\nREADME.md'],
    ])
    expect(out.nodes.some((n) => n.toolCalls?.length || n.role === 'tool')).toBe(false)
    expect(warning(warnings, 'tools-as-text')).toEqual([{ kind: 'tools-as-text', count: 1 }])
  })

  it('rewrites ids the target refuses, keeps them unique, and notes images a target cannot hold', () => {
    const s = session('devin', [
      user('u', 'see', { blocks: [{ type: 'text', text: 'see' }, { type: 'image', mediaType: 'image/png', data: 'AAAA' }] }),
      assistant('a', '', { toolCalls: [call('exec_0#a1', 'exec', { command: 'ls' }), call('exec_0_a1', 'exec', { command: 'pwd' })] }),
      result('r1', 'exec_0#a1', 'one', { blocks: [{ type: 'text', text: 'one' }, { type: 'image', data: 'BBBB', mediaType: 'image/png' }] }),
      result('r2', 'exec_0_a1', 'two'),
    ])
    const toClaude = prepareForTarget(s, claude, { textOnly: false })
    expect(toClaude.session.nodes[1]!.toolCalls!.map((c) => c.id)).toEqual(['exec_0_a1', 'exec_0_a1_2'])
    expect(toClaude.session.nodes.slice(2).map((n) => n.toolCallId)).toEqual(['exec_0_a1', 'exec_0_a1_2'])
    expect(toClaude.session.nodes[0]!.blocks).toEqual([{ type: 'text', text: 'see' }, { type: 'image', mediaType: 'image/png', data: 'AAAA' }])
    expect(toClaude.session.nodes[2]!.blocks?.[1]).toEqual({ type: 'image', data: 'BBBB', mediaType: 'image/png' })
    expect(warning(toClaude.warnings, 'tool-id-rewritten')).toEqual([{ kind: 'tool-id-rewritten', count: 1 }])
    const toCline = prepareForTarget(s, cline, { textOnly: false })
    expect(toCline.session.nodes[2]!.content).toBe('one\n\n[Image (image/png), not carried over]')
    expect(warning(toCline.warnings, 'image-as-note')).toEqual([{ kind: 'image-as-note', count: 1 }])
  })

  it('splits a multi-hunk patch into edits; the first part gets the result, the others point to it', () => {
    const s = session('codex', [
      user('u', 'patch'),
      assistant('a', '', { toolCalls: [{ ...call('p1', 'apply_patch', '*** Begin Patch\n*** Update File: a.txt\n...'), diffs: [{ path: 'a.txt', oldText: 'x', newText: 'y' }, { path: 'a.txt', oldText: 'p', newText: 'q' }] }] }),
      result('r', 'p1', 'Success.'),
    ])
    const { session: out } = prepareForTarget(s, claude, { textOnly: false })
    expect(out.nodes[1]!.toolCalls!.map((c) => [c.name, c.arguments])).toEqual([
      ['Edit', { file_path: '/home/ana/src/app/a.txt', old_string: 'x', new_string: 'y' }],
      ['Edit', { file_path: '/home/ana/src/app/a.txt', old_string: 'p', new_string: 'q' }],
    ])
    expect(out.nodes.slice(2).map((n) => n.content)).toEqual(['Success.', SEE_FIRST_PART])
  })

  it('uses the cwd override and never changes the input session', () => {
    const s = session('cline', [user('u', 'go'), assistant('a', '', { toolCalls: [call('c', 'run_commands', { commands: ['ls'] })] }), result('r', 'c', 'x')])
    const before = JSON.stringify(s)
    const { session: out } = prepareForTarget(s, claude, { textOnly: false, cwd: '/tmp/elsewhere' })
    expect(out.workingDirectory).toBe('/tmp/elsewhere')
    expect(out.metadata.sourceWorkingDirectory).toBe('/home/ana/src/app')
    expect(JSON.stringify(s)).toBe(before)
  })
})
