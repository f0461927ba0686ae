/**
 * Record shapes the real fixtures do not show, in small synthetic homes: rewinds, snapshots,
 * failed and cancelled calls, CLI notices, display content, signatures, the model-history form,
 * unknown records, damaged files, split sessions, prompt logs and hash-named project folders.
 */
import { createHash } from 'node:crypto'
import { rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { header, jsonl, makeHome, readHome } from '../../../../tests/builders/gemini/testing'

const homes: string[] = []
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true })
})
const CHATS = '.gemini/tmp/proj/chats'
const T = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString()
const user = (id: string, text: string, s = 1): Record<string, unknown> => ({ id, timestamp: T(s), type: 'user', content: [{ text }] })
const model = (id: string, content: unknown, extra: Record<string, unknown> = {}, s = 2): Record<string, unknown> => ({
  id,
  timestamp: T(s),
  type: 'gemini',
  content,
  model: 'gemini-3-pro',
  ...extra,
})

/** Read a home made of one chats file `session-x.jsonl` holding `records` (plus other files). */
async function one(records: unknown[], files: Record<string, string> = {}) {
  const home = makeHome({ [`${CHATS}/session-2026-01-01T00-00-s1.jsonl`]: jsonl(records), ...files })
  homes.push(home)
  const h = await readHome(home)
  return { home, h, s: h.sessions[0]! }
}

describe('gemini record shapes', () => {
  it('a rewind keeps the removed turn as a branch off the message before it', async () => {
    const { s } = await one([
      header('s1'),
      user('u1', 'first'),
      model('a1', 'answer one'),
      user('u2', 'second (will be rewound)'),
      model('a2', 'answer two'),
      { $rewindTo: 'u2' },
      user('u3', 'second, again'),
      model('a3', 'answer three'),
    ])
    expect(s.nodes.map((n) => [n.nodeId, n.parentNodeId, n.metadata?.rewound])).toEqual([
      ['u1', undefined, undefined],
      ['a1', 'u1', undefined],
      ['u2', 'a1', true],
      ['a2', 'u2', true],
      ['u3', 'a1', undefined],
      ['a3', 'u3', undefined],
    ])
    expect(s.metadata.rewoundNodes).toBe(2)
    expect(s.diagnostics).toEqual([])
  })

  it('a rewound id written again starts a new message; the old one keeps a suffixed id', async () => {
    const { s } = await one([header('s1'), user('u1', 'a'), { $rewindTo: 'u1' }, user('u1', 'b')])
    expect(s.nodes.map((n) => [n.nodeId, n.content, n.parentNodeId])).toEqual([
      ['u1#1', 'a', undefined],
      ['u1', 'b', undefined],
    ])
  })

  it('failed and cancelled calls, a result error, an exit code; functionResponse with no id pairs by name', async () => {
    const calls = [
      { id: 'c1', name: 'run_shell_command', args: { command: 'false' }, status: 'error', timestamp: T(3), result: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'Command: false\nExit Code: 1' } } }] },
      { id: 'c2', name: 'write_file', args: { file_path: '/p/a.txt', content: 'x' }, status: 'cancelled', timestamp: T(3) },
      { id: 'c3', name: 'read_file', args: '{"file_path": "/p/b.txt"}', status: 'success', timestamp: T(3), result: [{ functionResponse: { id: 'c3', name: 'read_file', response: { error: 'ENOENT' } } }] },
      { id: 'c4', name: 'glob', args: { pattern: '*' }, status: 'executing', timestamp: T(3) },
    ]
    const { s } = await one([
      header('s1'),
      user('u1', 'go'),
      model('a1', '', { toolCalls: calls }),
      { id: 'u2', timestamp: T(4), type: 'user', content: [{ functionResponse: { name: 'glob', response: { output: 'a.txt' } } }] },
    ])
    const [c1, c2, c3, c4] = s.nodes[1]!.toolCalls!
    expect(c1).toMatchObject({ status: 'failed', isError: true, exitCode: 1, kind: 'execute' })
    expect(c2).toMatchObject({ status: 'failed', diffs: [{ path: '/p/a.txt', newText: 'x' }] })
    expect(c2!.isError).toBeUndefined()
    expect(c3).toMatchObject({ status: 'completed', isError: true, arguments: { file_path: '/p/b.txt' }, locations: [{ path: '/p/b.txt' }] })
    expect(c4).toMatchObject({ status: 'completed' })
    const results = s.nodes.filter((n) => n.role === 'tool')
    expect(results.map((n) => [n.toolCallId, n.content, n.isError])).toEqual([
      ['c1', 'Command: false\nExit Code: 1', true],
      ['c3', 'ENOENT', true],
      ['c4', 'a.txt', undefined],
    ])
    expect(countPairedToolCalls(s)).toEqual({ calls: 4, paired: 3 })
  })

  it('CLI notices: error visible, info and warning meta; unknown types and records kept', async () => {
    const { s } = await one([
      header('s1'),
      { id: 'i1', timestamp: T(1), type: 'info', content: 'Switched model' },
      { id: 'w1', timestamp: T(1), type: 'warning', content: [{ text: 'Low disk' }] },
      { id: 'e1', timestamp: T(1), type: 'error', content: 'Quota exceeded' },
      { id: 'x1', timestamp: T(1), type: 'compression', content: 'history was compressed' },
      { id: 'x2', timestamp: T(1), type: 'silent' },
      { kind: 'telemetry', value: 3 },
      { type: 'note', text: 'a free-standing note' },
    ])
    expect(s.nodes.map((n) => [n.role, n.content, n.isMeta, n.event])).toEqual([
      ['system', 'Switched model', true, undefined],
      ['system', 'Low disk', true, undefined],
      ['system', 'Quota exceeded', undefined, undefined],
      ['system', 'history was compressed', undefined, 'unknown-event'],
      ['system', 'a free-standing note', undefined, 'unknown-event'],
    ])
    expect(s.metadata.unknownMessageTypes).toEqual({ compression: 1, silent: 1 })
    expect(s.metadata.unknownRecords).toEqual({ 'kind,value': 1, note: 1 })
    expect(s.diagnostics).toEqual([])
  })

  it('displayContent, images, signatures, cached tokens and the model-history form', async () => {
    const { s } = await one([
      header('s1'),
      { ...user('u1', 'Explain @a.ts\n--- a.ts ---\ncode'), displayContent: [{ text: 'Explain @a.ts' }] },
      { id: 'u2', timestamp: T(1), type: 'user', content: [{ text: 'see' }, { inlineData: { mimeType: 'image/png', data: 'iVBO' } }] },
      model('a1', [
        { text: 'Reasoning here', thought: true, thoughtSignature: 'sig-1' },
        { text: 'Looking.' },
        { functionCall: { id: 'f1', name: 'list_directory', args: { dir_path: '/p' } }, thoughtSignature: 'sig-2' },
      ], { tokens: { input: 1000, output: 20, cached: 800, thoughts: 5, tool: 0, total: 1025 } }),
      { id: 'a1_response', timestamp: T(3), type: 'user', content: [{ functionResponse: { id: 'f1', name: 'list_directory', response: { output: 'a.ts' } } }] },
    ])
    const [u1, u2, a1, r1] = s.nodes
    expect(u1).toMatchObject({ content: 'Explain @a.ts', metadata: { modelContent: 'Explain @a.ts\n--- a.ts ---\ncode' } })
    expect(u2!.blocks).toEqual([{ type: 'text', text: 'see' }, { type: 'image', mediaType: 'image/png', data: 'iVBO' }])
    expect(a1).toMatchObject({ content: 'Looking.', thinking: 'Reasoning here', thinkingSignature: 'sig-1', model: 'gemini-3-pro' })
    expect(a1!.metadata?.thoughtSignatures).toEqual(['sig-1', 'sig-2'])
    expect(a1!.usage).toEqual({ inputTokens: 200, outputTokens: 20, cacheReadTokens: 800, thinkingTokens: 5 })
    expect(a1!.toolCalls).toEqual([{ id: 'f1', name: 'list_directory', kind: 'search', arguments: { dir_path: '/p' }, status: 'completed', locations: [{ path: '/p' }] }])
    expect(r1).toMatchObject({ role: 'tool', toolCallId: 'f1', content: 'a.ts', parentNodeId: 'a1' })
  })

  it('a $set snapshot adds unknown messages at their place and never replaces logged ones', async () => {
    const { s } = await one([
      header('s1'),
      user('u1', 'hello'),
      model('a1', 'full answer', { tokens: { input: 10, output: 2, cached: 0, total: 12 } }),
      { $set: { messages: [user('ctx', '<session_context>\nx\n</session_context>', 0), user('u1', 'hello'), model('a1', [{ text: 'lossy copy' }]), user('u9', 'inserted')] } },
      user('u2', 'later'),
    ])
    expect(s.nodes.map((n) => [n.nodeId, n.content])).toEqual([
      ['ctx', '<session_context>\nx\n</session_context>'],
      ['u1', 'hello'],
      ['a1', 'full answer'],
      ['u9', 'inserted'],
      ['u2', 'later'],
    ])
    expect(s.nodes[2]!.usage).toEqual({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 0 })
    expect(s.nodes[0]!.isMeta).toBe(true)
    expect(s.nodes[0]!.metadata).toEqual({ fromSnapshot: true })
  })

  it('bad lines: one error diagnostic each with its line, the rest loads', async () => {
    const { s } = await one([header('s1'), user('u1', 'one'), '{"id": "broken", ', '[1, 2]', model('a1', 'two'), { $rewindTo: 'nope' }])
    expect(s.nodes.map((n) => n.content)).toEqual(['one', 'two'])
    expect(s.diagnostics.map((d) => [d.line, d.severity])).toEqual([
      [4, 'warning'],
      [3, 'error'],
      [6, 'warning'],
    ])
    expect(s.diagnostics[1]!.message).toMatch(/not valid JSON/)
    // An unknown rewind target: the CLI drops everything; Sepia keeps it all as a branch.
    expect(s.nodes.every((n) => n.metadata?.rewound === true)).toBe(true)
  })

  it('a pretty-printed object in a .jsonl and a damaged .json are read whole or salvaged', async () => {
    const pretty = JSON.stringify({ ...header('p1'), messages: [user('u1', 'pretty')] }, null, 2)
    const damaged = JSON.stringify({ ...header('d1'), messages: [user('u1', 'kept'), model('a1', 'lost')] }, null, 2).slice(0, -40)
    const home = makeHome({ [`${CHATS}/session-2026-01-01T00-00-p1.jsonl`]: pretty, [`${CHATS}/session-2026-01-01T00-00-d1.json`]: damaged })
    homes.push(home)
    const h = await readHome(home)
    const p = h.byId('p1')
    expect(p.nodes.map((n) => n.content)).toEqual(['pretty'])
    expect(p.diagnostics).toEqual([])
    const d = h.byId('d1')
    expect(d.source.format).toBe('gemini-json')
    expect(d.nodes.map((n) => n.content)).toEqual(['kept'])
    expect(d.diagnostics).toHaveLength(1)
    expect(d.diagnostics[0]).toMatchObject({ severity: 'error' })
    expect(d.diagnostics[0]!.line).toBeGreaterThan(1)
  })

  it('two files of one session (resume in a later minute; .json migrated to .jsonl) read as one', async () => {
    const home = makeHome({
      [`${CHATS}/session-2026-01-01T00-00-abcdef12.json`]: JSON.stringify({ ...header('abcdef12-x'), messages: [user('u1', 'old')] }),
      [`${CHATS}/session-2026-01-01T00-00-abcdef12.jsonl`]: jsonl([header('abcdef12-x'), user('u1', 'old'), model('a1', 'new turn')]),
      [`${CHATS}/session-2026-01-01T00-05-abcdef12.jsonl`]: jsonl([header('abcdef12-x', { startTime: T(300) }), user('ctx', '<session_context>\ny\n</session_context>')]),
    })
    homes.push(home)
    const h = await readHome(home)
    expect(h.sessions).toHaveLength(1)
    const s = h.sessions[0]!
    expect(s.id).toBe('abcdef12-x')
    expect(s.source.files.filter((f) => f.includes('/chats/'))).toHaveLength(3)
    expect(s.nodes.map((n) => n.content)).toEqual(['old', 'new turn', '<session_context>\ny\n</session_context>'])
    expect(s.metadata.resumedAt).toEqual([T(0), T(300)])
  })

  it('project path by projectHash in a hash-named folder; prompt log and saved chats as metadata', async () => {
    const path = '/home/ana/src/hashed'
    const hash = createHash('sha256').update(path).digest('hex')
    const home = makeHome({
      '.gemini/projects.json': JSON.stringify({ projects: { [path]: 'hashed' } }),
      [`.gemini/tmp/${hash}/chats/session-2026-01-01T00-00-h1.jsonl`]: jsonl([header('h1', { projectHash: hash }), user('u1', 'hi')]),
      [`.gemini/tmp/${hash}/logs.json`]: JSON.stringify([
        { sessionId: 'h1', messageId: 1, timestamp: T(2), type: 'user', message: '/stats' },
        { sessionId: 'other', messageId: 0, timestamp: T(1), type: 'user', message: 'not mine' },
        { sessionId: 'h1', messageId: 0, timestamp: T(1), type: 'user', message: 'hi' },
      ]),
      [`.gemini/tmp/${hash}/checkpoint-my%20tag.json`]: JSON.stringify({ history: [{ role: 'user', parts: [{ text: 'saved prompt' }] }, { role: 'model', parts: [{ text: 'ok' }] }] }),
    })
    homes.push(home)
    const s = (await readHome(home)).byId('h1')
    expect(s.workingDirectory).toBe(path)
    expect(s.metadata.cwdSource).toBe('projectHash')
    expect(s.promptHistory).toEqual(['hi', '/stats'])
    expect(s.metadata.projectSavedChats).toEqual([{ tag: 'my tag', turns: 2, firstUserText: 'saved prompt' }])
  })

  it('an unreadable chats folder is a discovery diagnostic; other projects still load', async () => {
    const home = makeHome({ '.gemini/tmp/good/chats/session-2026-01-01T00-00-g1.jsonl': jsonl([header('g1'), user('u1', 'fine')]), '.gemini/tmp/bad/keep': '' })
    homes.push(home)
    symlinkSync('chats', join(home, '.gemini/tmp/bad/chats')) // a link to itself: ELOOP
    const h = await readHome(home)
    expect(h.sessions.map((s) => s.id)).toEqual(['g1'])
    expect(h.diagnostics).toHaveLength(1)
    expect(h.diagnostics[0]).toMatchObject({ severity: 'warning', agent: 'gemini' })
    expect(h.diagnostics[0]!.path).toMatch(/bad\/chats$/)
  })
})
