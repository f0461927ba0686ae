/**
 * Bad input never crashes the Copilot CLI reader: a line that is not JSON and an event type it
 * does not model become diagnostics naming file and line; the rest loads. A result with
 * `success:false` fails its call; a request with no completion stays pending.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { readHomeOf } from '../../../../tests/builders/testing'
import { copilotCli } from '.'

it('reports bad lines and unknown event types by file and line, and pairs results by toolCallId', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sepia-copilot-edge-'))
  const dir = join(home, '.copilot', 'session-state', 's1')
  mkdirSync(dir, { recursive: true })
  const ev = (type: string, id: string, parentId: string | null, data: object) => JSON.stringify({ type, data, id, timestamp: '2026-01-01T00:00:00.000Z', parentId })
  const lines = [
    ev('session.start', 'e1', null, { sessionId: 's1', startTime: '2026-01-01T00:00:00.000Z', context: { cwd: '/w', branch: 'main' } }),
    ev('user.message', 'e2', 'e1', { content: 'hi' }),
    '{"type": "assistant.mess',
    ev('assistant.message', 'e3', 'e2', { content: 'ok', model: 'm', toolRequests: [{ toolCallId: 't1', name: 'bash', arguments: {} }, { toolCallId: 't2', name: 'view', arguments: {} }] }),
    ev('tool.execution_complete', 'e4', 'e3', { toolCallId: 't1', success: false, error: { message: 'boom' } }),
    ev('brand.new_event', 'e5', 'e4', { content: 'x' }),
  ]
  const path = join(dir, 'events.jsonl')
  writeFileSync(path, lines.join('\n') + '\n')
  const s = (await readHomeOf(copilotCli, home)).byId('s1')
  expect(s.diagnostics.map((d) => [d.path, d.line, d.severity])).toEqual([[path, 3, 'warning'], [path, 6, 'info']])
  expect(s.diagnostics[1]!.message).toContain('brand.new_event')
  const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
  expect(calls.map((c) => [c.id, c.kind, c.status])).toEqual([['t1', 'execute', 'failed'], ['t2', 'read', 'pending']])
  expect(s.nodes.find((n) => n.role === 'tool')).toMatchObject({ toolCallId: 't1', content: 'boom', isError: true, parentNodeId: 'e3' })
  expect(s.nodes.at(-1)).toMatchObject({ role: 'system', event: 'unknown-event', parentNodeId: 'e4' })
  expect(s).toMatchObject({ workingDirectory: '/w', git: { branch: 'main' } })
})

it('reads compaction and truncation events as the CLI\'s own schema describes them', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sepia-copilot-compact-'))
  const dir = join(home, '.copilot', 'session-state', 's2')
  mkdirSync(dir, { recursive: true })
  const ev = (type: string, id: string, parentId: string | null, data: object) => JSON.stringify({ type, data, id, timestamp: '2026-01-01T00:00:00.000Z', parentId })
  const lines = [
    ev('session.start', 'e1', null, { sessionId: 's2', startTime: '2026-01-01T00:00:00.000Z', context: { cwd: '/w' } }),
    ev('user.message', 'e2', 'e1', { content: 'hi' }),
    ev('session.compaction_start', 'e3', 'e2', { compactionAttemptId: 'c1', tokenLimit: 128000, trigger: 'threshold' }),
    ev('session.truncation', 'e4', 'e3', { tokenLimit: 128000, preTruncationTokensInMessages: 9, preTruncationMessagesLength: 9, postTruncationTokensInMessages: 1, postTruncationMessagesLength: 1, tokensRemovedDuringTruncation: 8, messagesRemovedDuringTruncation: 8, performedBy: 'BasicTruncator' }),
    ev('session.compaction_complete', 'e5', 'e4', { success: false, error: 'Compaction Cancelled', outcome: 'cancelled', compactionAttemptId: 'c1' }),
    ev('session.compaction_complete', 'e6', 'e5', { success: true, summaryContent: 'We listed the files.', messagesRemoved: 3, compactionAttemptId: 'c2' }),
  ]
  writeFileSync(join(dir, 'events.jsonl'), lines.join('\n') + '\n')
  const s = (await readHomeOf(copilotCli, home)).byId('s2')
  expect(s.diagnostics).toEqual([])
  expect(s.nodes.filter((n) => n.role === 'system').map((n) => [n.event, n.content, n.isMeta ?? false])).toEqual([
    ['notice', '8 earlier messages (8 tokens) left out of the requests to fit 128000 tokens', false],
    ['notice', 'Compaction did not complete: Compaction Cancelled', true],
    ['compaction', 'We listed the files.', false],
  ])
})
