/**
 * OpenCode's JSON file storage (`<xdg data>/opencode/storage/`): the public samples
 * (fixtures/public/opencode, from luoyuctl/agenttrace testdata/opencode/storage) laid out at their
 * original paths, hand-built variants of every part type and field spelling, and damaged files.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { REPO_ROOT } from '../../../../tests/helpers/golden'
import { closeStoreDbs, opencode } from './index'
import { readHome } from '../../../../tests/builders/opencode/testing'

const PUBLIC = join(REPO_ROOT, 'fixtures', 'public', 'opencode')
const temps: string[] = []
afterEach(() => {
  closeStoreDbs()
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true })
})

/** A fresh home; returns it and its OpenCode storage folder. */
function newHome(): { home: string; storage: string } {
  const home = mkdtempSync(join(tmpdir(), 'sepia-oc-'))
  temps.push(home)
  return { home, storage: join(home, '.local', 'share', 'opencode', 'storage') }
}

function put(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2))
}

describe('opencode JSON storage', () => {
  it('reads the public samples at their storage paths', async () => {
    const { home, storage } = newHome()
    for (const [file, to] of [
      ['luoyuctl__agenttrace__session__ses_abc.json', 'session/project_alpha/ses_abc.json'],
      ['luoyuctl__agenttrace__message__msg_assistant.json', 'message/ses_abc/msg_assistant.json'],
      ['luoyuctl__agenttrace__part__part_tool.json', 'part/msg_assistant/part_tool.json'],
    ] as const) {
      mkdirSync(dirname(join(storage, to)), { recursive: true })
      copyFileSync(join(PUBLIC, file), join(storage, to))
    }
    const h = await readHome(opencode, home)
    expect(h.diagnostics).toEqual([])
    const s = h.byId('ses_abc')
    expect(s).toMatchObject({ title: 'Parser demo', workingDirectory: '/repo', createdAt: 1764750000000, lastActivityAt: 1764750004000, model: 'claude-sonnet-4' })
    expect(s.source.format).toBe('opencode-json')
    expect(s.metadata).toMatchObject({ slug: 'parser-demo', version: '0.4.0', projectID: 'project_alpha' })
    expect(s.nodes.map((n) => n.role)).toEqual(['assistant', 'tool'])
    const a = s.nodes[0]!
    expect(a.usage).toEqual({ inputTokens: 42, outputTokens: 17, thinkingTokens: 5, cacheReadTokens: 3, cacheWriteTokens: 2 })
    expect(a.metadata).toMatchObject({ providerID: 'anthropic', agent: 'build', parentID: 'msg_user' })
    expect(a.toolCalls).toEqual([
      { id: 'call_read', name: 'read', kind: 'read', arguments: { path: 'internal/engine/engine.go' }, status: 'completed', durationMs: 500, locations: [{ path: 'internal/engine/engine.go' }] },
    ])
    expect(s.nodes[1]).toMatchObject({ nodeId: 'part_tool', toolCallId: 'call_read', content: 'engine.go parsed', createdAt: 1764750003000, metadata: { title: 'Read file' } })
    // The user message is not in the sample: a diagnostic is not warranted, the session shows what exists.
    expect(s.diagnostics).toEqual([])
  })

  it('maps every part type and the field-name variants', async () => {
    const { home, storage } = newHome()
    put(join(storage, 'session/p1/ses_v.json'), { id: 'ses_v', project_id: 'p1', cwd: '/w', title: 'Child session - 2026-01-02T03:04:05.000Z', parent_id: 'ses_parent', created_at: 1767000000, updated_at: 1767000100, revert: { messageID: 'msg_4' } })
    put(join(storage, 'message/ses_v/msg_1.json'), { role: 'user', session_id: 'ses_v', created_at: 1767000001, agent: 'plan' })
    put(join(storage, 'part/msg_1/prt_1.json'), { type: 'text', text: 'look at @src/a.png and this' })
    put(join(storage, 'part/msg_1/prt_2.json'), { type: 'file', mime: 'image/png', filename: 'a.png', url: 'data:image/png;base64,iVBORw0=' })
    put(join(storage, 'part/msg_1/prt_3.json'), { type: 'text', text: 'Called the Read tool with the following input: {"filePath":"src/a.ts"}', synthetic: true })
    put(join(storage, 'part/msg_1/prt_4.json'), { type: 'agent', name: 'explore' })
    put(join(storage, 'message/ses_v/msg_2.json'), { role: 'assistant', created_at: 1767000002, model_id: 'gpt-9', tokens: { input: 10, output: 5, reasoning: 2, cache: { read: 100, write: 0 } }, cost: 0.25, finish: 'stop' })
    const parts = [
      { type: 'step-start', snapshot: 's0' },
      { type: 'reasoning', text: 'Think A.', metadata: { anthropic: { signature: 'sig-A' } }, time: { start: 1767000002100 } },
      { type: 'text', text: 'Step one.' },
      { type: 'tool', call_id: 'c1', tool: 'bash', state: { status: 'error', input: '{"command":"false"}', error: 'exit 1', time: { start: 1767000002200, end: 1767000002300 } } },
      { type: 'tool', callID: 'c2', tool: 'read', state: { status: 'running', input: { filePath: '/w/a.ts' }, time: { start: 1767000002310 } } },
      { type: 'step-finish', reason: 'tool-calls', snapshot: 's1', tokens: { input: 4, output: 2, reasoning: 1, cache: { read: 50, write: 0 } }, cost: 0.1 },
      { type: 'patch', hash: 's0', files: ['/w/a.ts'] },
      { type: 'step-start', snapshot: 's1', time: { start: 1767000003000 } },
      { type: 'tool', callID: 'c3', tool: 'grep', state: { status: 'pending', input: {}, raw: '{"pattern":"TODO"' } },
      { type: 'text', text: 'Step two.' },
      { type: 'step-finish', reason: 'stop', tokens: { input: 6, output: 3, reasoning: 1, cache: { read: 50, write: 0 } }, cost: 0.15 },
      { type: 'shiny-new-part', text: 'a part type from the future' },
      { type: 'silent-new-part', value: 1 },
    ]
    parts.forEach((p, i) => put(join(storage, `part/msg_2/prt_2${String(i).padStart(2, '0')}.json`), p))
    put(join(storage, 'message/ses_v/msg_3.json'), { role: 'user', time: { created: 1767000004000 } })
    put(join(storage, 'part/msg_3/prt_31.json'), { type: 'compaction', auto: true })
    put(join(storage, 'message/ses_v/msg_4.json'), { role: 'assistant', time: { created: 1767000005000 }, modelID: 'gpt-9', summary: true, error: { name: 'MessageAbortedError', data: { message: 'aborted' } } })

    const s = (await readHome(opencode, home)).byId('ses_v')
    expect(s.diagnostics).toEqual([])
    expect(s).toMatchObject({ workingDirectory: '/w', parentSessionId: 'ses_parent', agentName: 'plan', createdAt: 1767000000000, lastActivityAt: 1767000100000 })
    expect(s.title).toBe('look at @src/a.png and this')
    expect(s.metadata.defaultTitle).toBe('Child session - 2026-01-02T03:04:05.000Z')
    expect(s.nodes.map((n) => [n.nodeId, n.role, n.event ?? '', n.isMeta ?? false])).toEqual([
      ['msg_1', 'user', '', false],
      ['prt_3', 'user', '', true],
      ['msg_2', 'assistant', '', false],
      ['prt_203', 'tool', '', false],
      ['msg_2#1', 'assistant', '', false],
      ['prt_211', 'system', 'unknown-event', false],
      ['prt_31', 'system', 'compaction', false],
      ['msg_4', 'assistant', '', false],
    ])
    const [user, meta, step1, failed, step2, unknown, compaction, aborted] = s.nodes
    expect(user!.content).toBe('look at @src/a.png and this')
    expect(user!.blocks).toEqual([{ type: 'text', text: 'look at @src/a.png and this' }, { type: 'image', mediaType: 'image/png', data: 'iVBORw0=' }])
    expect(user!.metadata).toEqual({ agent: 'plan', agentMentions: ['explore'] })
    expect(user!.createdAt).toBe(1767000001000)
    expect(meta!.metadata).toEqual({ synthetic: true })
    expect(step1).toMatchObject({ content: 'Step one.', thinking: 'Think A.', thinkingSignature: 'sig-A', model: 'gpt-9', finishReason: 'tool-calls', createdAt: 1767000002000 })
    expect(step1!.usage).toEqual({ inputTokens: 4, outputTokens: 2, thinkingTokens: 1, cacheReadTokens: 50, cacheWriteTokens: 0, cost: 0.1 })
    expect(step1!.toolCalls!.map((c) => [c.id, c.arguments, c.status, c.isError ?? false])).toEqual([
      ['c1', { command: 'false' }, 'failed', true],
      ['c2', { filePath: '/w/a.ts' }, 'in_progress', false],
    ])
    expect(failed).toMatchObject({ toolCallId: 'c1', isError: true, content: 'exit 1', createdAt: 1767000002300 })
    expect(step2).toMatchObject({ content: 'Step two.', finishReason: 'stop', createdAt: 1767000003000, usage: { inputTokens: 6, cost: 0.15 } })
    expect(step2!.toolCalls).toEqual([{ id: 'c3', name: 'grep', kind: 'search', arguments: '{"pattern":"TODO"', status: 'pending' }])
    expect(unknown).toMatchObject({ content: 'a part type from the future', metadata: { partType: 'shiny-new-part' } })
    expect(compaction!.metadata).toEqual({ auto: true })
    expect(aborted).toMatchObject({ content: '', metadata: { compactionSummary: true, error: { name: 'MessageAbortedError' }, reverted: true } })
    expect(s.checkpoints).toEqual([{ ref: 's0', kind: 'opencode-snapshot', nodeId: 'msg_2', files: ['/w/a.ts'] }])
    expect(s.metadata.unmodeledPartTypes).toEqual(['silent-new-part'])
    expect(s.metadata.partTypes).toMatchObject({ 'step-start': 2, tool: 3, 'shiny-new-part': 1, compaction: 1 })
    expect(countPairedToolCalls(s)).toEqual({ calls: 3, paired: 1 })
    expect(summarize(s, home).usage).toMatchObject({ inputTokens: 10, cost: 0.25 })
  })

  it('a part file cut short and a broken message file: diagnostics with lines, the rest loads', async () => {
    const { home, storage } = newHome()
    put(join(storage, 'session/p/ses_t.json'), { id: 'ses_t', directory: '/w', title: 'cut' })
    put(join(storage, 'message/ses_t/msg_1.json'), { role: 'user', time: { created: 1 } })
    put(join(storage, 'part/msg_1/prt_1.json'), { type: 'text', text: 'hello' })
    put(join(storage, 'message/ses_t/msg_2.json'), { role: 'assistant', time: { created: 2 } })
    put(join(storage, 'part/msg_2/prt_2.json'), { type: 'text', text: 'kept' })
    const cut = join(storage, 'part/msg_2/prt_3.json')
    put(cut, { type: 'text', text: 'this line is cut short by a crash' })
    const text = readFileSync(cut, 'utf8')
    writeFileSync(cut, text.slice(0, text.lastIndexOf('"')))
    const broken = join(storage, 'message/ses_t/msg_3.json')
    put(broken, '{\n  "role": "assistant",\n  "time": { "created": 3 },,\n  "x": 1\n}\n')
    const s = (await readHome(opencode, home)).byId('ses_t')
    expect(s.nodes.map((n) => n.content)).toEqual(['hello', 'kept'])
    expect(s.diagnostics.map((d) => [d.path, d.line, d.severity])).toEqual([
      [cut, 3, 'error'],
      [broken, 3, 'error'],
    ])
    expect(s.diagnostics[0]!.message).toMatch(/^not valid JSON/)
  })

  it('a session found in the database is not listed again from the JSON storage', async () => {
    const { home, storage } = newHome()
    const realDb = join(REPO_ROOT, 'fixtures/real/opencode/home/.local/share/opencode/opencode.db')
    mkdirSync(storage, { recursive: true })
    copyFileSync(realDb, join(dirname(storage), 'opencode.db'))
    copyFileSync(realDb, join(dirname(storage), 'opencode-dev.db'))
    put(join(storage, 'session/p/ses_dd4b9de86ffeUbdelA1z3AtxuC.json'), { id: 'ses_dd4b9de86ffeUbdelA1z3AtxuC', title: 'migrated copy' })
    put(join(storage, 'session/p/ses_only_json.json'), { id: 'ses_only_json', title: 'json only' })
    const h = await readHome(opencode, home)
    expect(h.refs).toHaveLength(6)
    expect(h.refs.filter((r) => r.format === 'opencode-json').map((r) => r.sessionId)).toEqual(['ses_only_json'])
    expect(new Set(h.refs.filter((r) => r.format === 'opencode-db').map((r) => r.files[0]))).toEqual(new Set([join(dirname(storage), 'opencode.db')]))
    expect(h.byId('ses_dd4b9de86ffeUbdelA1z3AtxuC').title).toBe('Mock session title')
  })

  it('links a task call to its child by description when the call does not name the child', async () => {
    const { home, storage } = newHome()
    put(join(storage, 'session/p/ses_p.json'), { id: 'ses_p', title: 'parent' })
    put(join(storage, 'message/ses_p/msg_1.json'), { role: 'assistant', time: { created: 1 } })
    put(join(storage, 'part/msg_1/prt_1.json'), { type: 'tool', callID: 'c1', tool: 'task', state: { status: 'completed', input: { description: 'Scan docs', prompt: 'scan' }, output: 'done' } })
    put(join(storage, 'session/p/ses_c.json'), { id: 'ses_c', parentID: 'ses_p', title: 'Scan docs (@general subagent)' })
    const h = await readHome(opencode, home)
    const call = h.byId('ses_p').nodes[0]!.toolCalls![0]!
    expect(call.subagentSessionId).toBe('ses_c')
    expect(h.byId('ses_c').parentToolCallId).toBe('c1')
    expect(h.byId('ses_p').childSessionIds).toEqual(['ses_c'])
  })
})
