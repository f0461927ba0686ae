/**
 * Shapes written into a temporary home: a 20 MB line, replayed records, redacted thinking,
 * unknown record and block types, images, errors, legacy sub-agents, unreadable files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SepiaError } from '../../../shared/api'
import { claudeCode } from './index'
import { readHome, testContext } from '../../../../tests/builders/claude-code/testing'

const SID = '11111111-2222-3333-4444-555555555555'
let home: string
let project: string

function write(name: string, records: unknown[]): string {
  const path = join(project, name)
  writeFileSync(path, records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n')
  return path
}

const user = (uuid: string, parentUuid: string | null, content: unknown, extra: object = {}) => ({
  type: 'user',
  uuid,
  parentUuid,
  sessionId: SID,
  timestamp: '2026-01-02T03:04:05.000Z',
  cwd: '/p',
  message: { role: 'user', content },
  ...extra,
})
const assistant = (uuid: string, parentUuid: string | null, id: string, content: unknown[], extra: object = {}) => ({
  type: 'assistant',
  uuid,
  parentUuid,
  sessionId: SID,
  timestamp: '2026-01-02T03:04:06.000Z',
  message: { id, role: 'assistant', model: 'claude-x', content },
  ...extra,
})

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'sepia-cc-'))
  project = join(home, '.claude', 'projects', '-p')
  mkdirSync(project, { recursive: true })
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('claude-code shapes', () => {
  it('reads a 20 MB single line', async () => {
    const big = 'x'.repeat(20 * 1024 * 1024)
    const path = write('big.jsonl', [user('u1', null, big)])
    const ref = { agent: 'claude-code' as const, sessionId: 'big', format: 'claude-code-jsonl', files: [path], size: 0, mtimeMs: 0, home }
    const s = await claudeCode.read(ref, testContext)
    expect(s.nodes).toHaveLength(1)
    expect(s.nodes[0]!.content.length).toBe(20 * 1024 * 1024)
    expect(s.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
  })

  it('handles replays, redacted thinking, unknown types, images, errors and interruptions', async () => {
    write(`${SID}.jsonl`, [
      user('u1', null, [
        { type: 'text', text: 'look at this' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
      ]),
      { type: 'attachment', uuid: 'att1', parentUuid: 'u1', attachment: { type: 'date' } },
      assistant('a1', 'att1', 'msg_1', [
        { type: 'redacted_thinking', data: 'SEALED' },
        { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/p/a.ts', offset: 10 } },
        { type: 'fancy_block', text: 'new kind of block' },
      ]),
      user('u2', 'a1', [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: [{ type: 'text', text: 'no such file' }] }]),
      { type: 'future-note', uuid: 'f1', parentUuid: 'u2', content: 'a note from the future' },
      { type: 'system', subtype: 'local_command', uuid: 's1', parentUuid: 'f1', content: '<local-command-stdout>ok</local-command-stdout>' },
      user('u3', 's1', '[Request interrupted by user]'),
      // A resumed file replays earlier records with the same uuids: ignored.
      user('u1', null, 'replayed copy'),
      { type: 'summary', summary: 'Looking at a file', leafUuid: 'u3' },
    ])
    mkdirSync(join(project, SID, 'tool-results'), { recursive: true })
    write('agent-legacy1.jsonl', [user('l1', null, 'legacy sub-agent task', { isSidechain: true, agentId: 'legacy1' })])
    const h = await readHome(home)
    const s = h.byId(SID)
    expect(s.title).toBe('Looking at a file')
    expect(s.metadata.replayedRecords).toBe(1)
    const [u1, a1, t1, f1, s1, u3] = s.nodes
    expect(s.nodes).toHaveLength(6)
    expect(u1).toMatchObject({ role: 'user', content: 'look at this' })
    expect(u1!.blocks).toEqual([
      { type: 'text', text: 'look at this' },
      { type: 'image', mediaType: 'image/png', data: 'iVBOR' },
    ])
    expect(a1).toMatchObject({ role: 'assistant', parentNodeId: 'u1', thinkingSignature: 'SEALED', content: 'new kind of block' })
    expect(a1!.thinking).toBeUndefined()
    expect(a1!.blocks).toEqual([{ type: 'unknown', originalType: 'fancy_block', text: 'new kind of block', raw: { type: 'fancy_block', text: 'new kind of block' } }])
    expect(a1!.toolCalls![0]).toMatchObject({ name: 'Read', kind: 'read', status: 'failed', isError: true, locations: [{ path: '/p/a.ts', line: 10 }] })
    expect(t1).toMatchObject({ role: 'tool', content: 'no such file', isError: true, toolCallId: 't1' })
    expect(f1).toMatchObject({ role: 'system', event: 'unknown-event', content: 'a note from the future', metadata: { recordType: 'future-note' } })
    expect(s1).toMatchObject({ role: 'system', event: 'command', content: 'ok', parentNodeId: 'f1', metadata: { subtype: 'local_command' } })
    expect(u3).toMatchObject({ role: 'user', event: 'interrupted', parentNodeId: 's1' })
    expect(s.metadata.recordTypes).toMatchObject({ user: 4, 'future-note': 1, attachment: 1, summary: 1 })

    const legacy = h.byId('legacy1')
    expect(legacy).toMatchObject({ parentSessionId: SID, agentName: 'legacy1', source: { format: 'claude-code-subagent' } })
    expect(s.childSessionIds).toEqual(['legacy1'])
  })

  it('names a user or assistant record whose message content has the wrong type, instead of dropping it silently', async () => {
    const path = write('wrongtype.jsonl', [
      user('u1', null, 'hello'),
      user('u2', 'u1', 123),
      { ...assistant('a1', 'u2', 'msg_1', []), message: 'not an object' },
      assistant('a2', 'a1', 'msg_2', [{ type: 'text', text: 'hi' }]),
    ])
    const ref = { agent: 'claude-code' as const, sessionId: 'wrongtype', format: 'claude-code-jsonl', files: [path], size: 0, mtimeMs: 0, home }
    const s = await claudeCode.read(ref, testContext)
    expect(s.nodes.map((n) => n.content).filter((c) => c !== '')).toEqual(['hello', 'hi'])
    const errors = s.diagnostics.filter((d) => d.severity === 'error')
    expect(errors).toEqual([
      expect.objectContaining({ path, line: 2, message: expect.stringContaining('content is a number') }),
      expect.objectContaining({ path, line: 3, message: expect.stringContaining('"message" is a string') }),
    ])
  })

  it('rejects with READ_FAILED when the transcript cannot be opened', async () => {
    const ref = { agent: 'claude-code' as const, sessionId: 'gone', format: 'claude-code-jsonl', files: [join(project, 'gone.jsonl')], size: 0, mtimeMs: 0, home }
    await expect(claudeCode.read(ref, testContext)).rejects.toMatchObject({ code: 'READ_FAILED' })
    await expect(claudeCode.read(ref, testContext)).rejects.toBeInstanceOf(SepiaError)
  })

  it('finds nothing (and no problem) in a home without Claude Code', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'sepia-cc-empty-'))
    try {
      const h = await readHome(empty)
      expect(h.refs).toEqual([])
      expect(h.diagnostics).toEqual([])
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })
})

describe('claude-code sub-agent linking', () => {
  it('links a sub-agent spawned by another sub-agent to that sub-agent', async () => {
    const h = mkdtempSync(join(tmpdir(), 'sepia-cc-nest-'))
    try {
      const dir = join(h, '.claude', 'projects', '-p')
      const subs = join(dir, SID, 'subagents')
      mkdirSync(subs, { recursive: true })
      const put = (path: string, records: unknown[]): void => writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
      const spawn = (callId: string, agentId: string) => [
        assistant(`a-${callId}`, null, `m-${callId}`, [{ type: 'tool_use', id: callId, name: 'Agent', input: { prompt: 'go' } }]),
        user(`r-${callId}`, `a-${callId}`, [{ type: 'tool_result', tool_use_id: callId, content: 'started' }], { toolUseResult: { agentId } }),
      ]
      put(join(dir, `${SID}.jsonl`), [user('root', null, 'start'), ...spawn('call-1', 'outer')])
      put(join(subs, 'agent-outer.jsonl'), [user('o1', null, 'outer task'), ...spawn('call-2', 'inner')])
      put(join(subs, 'agent-inner.jsonl'), [user('i1', null, 'inner task')])
      const r = await readHome(h)
      const root = r.byId(SID)
      const outer = r.byId('outer')
      const inner = r.byId('inner')
      expect(root.childSessionIds).toEqual(['outer'])
      expect(outer).toMatchObject({ parentSessionId: SID, parentToolCallId: 'call-1', childSessionIds: ['inner'] })
      expect(inner).toMatchObject({ parentSessionId: 'outer', parentToolCallId: 'call-2' })
      expect(outer.nodes.flatMap((n) => n.toolCalls ?? [])[0]!.subagentSessionId).toBe('inner')
    } finally {
      rmSync(h, { recursive: true, force: true })
    }
  })
})

describe('claude-code assistant blocks', () => {
  it('keeps an empty thinking block only as its signature, and completes server tool calls', async () => {
    const h = mkdtempSync(join(tmpdir(), 'sepia-cc-blocks-'))
    try {
      const dir = join(h, '.claude', 'projects', '-p')
      mkdirSync(dir, { recursive: true })
      const records = [
        user('u1', null, 'search the web'),
        assistant('a1', 'u1', 'msg_w', [{ type: 'thinking', thinking: '', signature: 'SIG' }]),
        assistant('a2', 'a1', 'msg_w', [
          { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: { query: 'sepia' } },
          { type: 'web_search_tool_result', tool_use_id: 'srv_1', content: [{ type: 'web_search_result', url: 'https://x' }] },
          { type: 'text', text: 'Found it.' },
        ]),
      ]
      writeFileSync(join(dir, `${SID}.jsonl`), records.map((r) => JSON.stringify(r)).join('\n') + '\n')
      const s = (await readHome(h)).byId(SID)
      const a = s.nodes[1]!
      expect(s.nodes).toHaveLength(2)
      expect(a.thinking).toBeUndefined()
      expect(a.thinkingSignature).toBe('SIG')
      expect(a.content).toBe('Found it.')
      expect(a.toolCalls).toEqual([{ id: 'srv_1', name: 'web_search', kind: 'fetch', arguments: { query: 'sepia' }, status: 'completed' }])
      expect(a.blocks?.map((b) => b.type)).toEqual(['unknown', 'text'])
    } finally {
      rmSync(h, { recursive: true, force: true })
    }
  })
})
