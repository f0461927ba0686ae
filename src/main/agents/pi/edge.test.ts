/**
 * Bad input never crashes or hangs the Pi reader: a cut-short line, an entry type and a message
 * role it does not model, a `parentId` loop, a parent that names no entry and a second header
 * become diagnostics naming file and line; the rest loads. Version 1 files (no ids) chain each
 * entry to the one before, as Pi's own `migrateV1ToV2` does.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { readHomeOf } from '../../../../tests/builders/testing'
import { pi } from '.'

const T = '2026-01-01T00:00:00.000Z'
const header = (id: string, version?: number) => JSON.stringify({ type: 'session', ...(version ? { version } : {}), id, timestamp: T, cwd: '/w' })
const msg = (id: string, parentId: string | null, message: object) => JSON.stringify({ type: 'message', id, parentId, timestamp: T, message })
const user = (text: string) => ({ role: 'user', content: text, timestamp: 1 })

function home(files: Record<string, string[]>): { home: string; path: (id: string) => string } {
  const h = mkdtempSync(join(tmpdir(), 'sepia-pi-edge-'))
  const dir = join(h, '.pi', 'agent', 'sessions', '--w--')
  mkdirSync(dir, { recursive: true })
  for (const [id, lines] of Object.entries(files)) writeFileSync(join(dir, `2026-01-01T00-00-00-000Z_${id}.jsonl`), lines.join('\n') + '\n')
  return { home: h, path: (id) => join(dir, `2026-01-01T00-00-00-000Z_${id}.jsonl`) }
}

it('reports bad lines, unknown types and roles, loops and missing parents by file and line; the rest loads', async () => {
  const h = home({
    s1: [
      header('s1', 3),
      msg('a1', null, user('hi')),
      msg('a2', 'a1', { role: 'assistant', content: [{ type: 'text', text: 'ok' }, { type: 'toolCall', id: 't1', name: 'bash', arguments: { command: 'false' } }, { type: 'toolCall', id: 't2', name: 'read', arguments: { path: 'x' } }], provider: 'p', model: 'm', usage: { input: 5, output: 2, cacheRead: 1, cacheWrite: 0, totalTokens: 8, cost: { total: 0 } }, stopReason: 'toolUse', timestamp: 2 }),
      msg('a3', 'a2', { role: 'toolResult', toolCallId: 't1', toolName: 'bash', content: [{ type: 'text', text: '\n\nCommand exited with code 1' }], isError: true, timestamp: 3 }),
      JSON.stringify({ type: 'brand_new_entry', id: 'a4', parentId: 'a3', timestamp: T, content: 'x' }),
      msg('a5', 'zz', user('orphan')), // names no entry
      msg('a6', 'a7', user('loop one')), // a6 → a7 → a6: a7 is a later line
      msg('a7', 'a6', user('loop two')),
      msg('a8', 'a8', user('self')), // its own parent
      msg('a9', 'a4', { role: 'mysteryRole', content: 'y' }),
      header('again', 3),
      '{"type":"message","id":"b1","parentId":"a9","mess',
    ],
  })
  const s = (await readHomeOf(pi, h.home)).byId('s1')
  const p = h.path('s1')
  expect(s.diagnostics.map((d) => [d.path, d.line, d.severity])).toEqual([
    [p, 5, 'info'],
    [p, 6, 'warning'],
    [p, 7, 'warning'],
    [p, 9, 'warning'],
    [p, 10, 'info'],
    [p, 11, 'warning'],
    [p, 12, 'warning'],
  ])
  expect(s.diagnostics[0]!.message).toContain('brand_new_entry')
  expect(s.diagnostics[3]!.message).toContain('loop')
  expect(s.diagnostics[4]!.message).toContain('mysteryRole')
  const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
  expect(calls.map((c) => [c.id, c.kind, c.status, c.exitCode])).toEqual([['t1', 'execute', 'failed', 1], ['t2', 'read', 'pending', undefined]])
  expect(s.nodes.find((n) => n.nodeId === 'a2')!.usage).toEqual({ inputTokens: 5, outputTokens: 2, cacheReadTokens: 1, cacheWriteTokens: 0 })
  const byId = new Map(s.nodes.map((n) => [n.nodeId, n]))
  expect(byId.get('a4')).toMatchObject({ role: 'system', event: 'unknown-event', parentNodeId: 'a3' })
  expect(byId.get('a5')!.parentNodeId).toBeUndefined()
  expect(byId.get('a6')!.parentNodeId).toBeUndefined()
  expect(byId.get('a7')!.parentNodeId).toBe('a6')
  expect(byId.get('a8')!.parentNodeId).toBeUndefined()
  // The leaf is the last entry read (a9): its path is a9 → a4 → a3 → a2 → a1.
  expect(s.metadata.mainThread).toEqual(['a1', 'a2', 'a3', 'a4', 'a9'])
  expect(s.nodes.filter((n) => n.metadata?.branch).map((n) => n.nodeId)).toEqual(['a5', 'a6', 'a7', 'a8'])
})

it('version 1 files chain entries in order; labels, names, hidden custom messages and errors', async () => {
  const h = home({
    v1: [header('v1'), JSON.stringify({ type: 'message', timestamp: T, message: user('one') }), JSON.stringify({ type: 'message', timestamp: T, message: { role: 'assistant', content: [], stopReason: 'error', errorMessage: '429 rate limited', model: 'm', timestamp: 5 } })],
    s2: [
      header('s2', 3),
      msg('c1', null, user('first')),
      JSON.stringify({ type: 'label', id: 'c2', parentId: 'c1', timestamp: T, targetId: 'c1', label: 'start' }),
      JSON.stringify({ type: 'custom', id: 'c3', parentId: 'c2', timestamp: T, customType: 'ext', data: {} }),
      JSON.stringify({ type: 'custom_message', id: 'c4', parentId: 'c3', timestamp: T, customType: 'ext', content: 'injected', display: false }),
      JSON.stringify({ type: 'session_info', id: 'c5', parentId: 'c4', timestamp: T, name: ' My name ' }),
      msg('c6', 'c5', { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', thinkingSignature: 'sig' }, { type: 'text', text: 'done' }], model: 'm', stopReason: 'stop', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { total: 0.5 } }, timestamp: 6 }),
    ],
  })
  const r = await readHomeOf(pi, h.home)
  const v1 = r.byId('v1')
  expect(v1.diagnostics).toEqual([])
  expect(v1.nodes.map((n) => [n.nodeId, n.parentNodeId, n.role, n.event])).toEqual([['line-2', undefined, 'user', undefined], ['line-3', 'line-2', 'system', 'api-error']])
  expect(v1.nodes[1]!.content).toBe('429 rate limited')
  const s2 = r.byId('s2')
  expect(s2.diagnostics).toEqual([])
  expect(s2.title).toBe('My name')
  expect(s2.nodes.map((n) => [n.nodeId, n.parentNodeId])).toEqual([['c1', undefined], ['c4', 'c1'], ['c6', 'c4']])
  expect(s2.nodes[0]!.metadata?.label).toBe('start')
  expect(s2.nodes[1]).toMatchObject({ role: 'user', isMeta: true, content: 'injected' })
  expect(s2.nodes[2]).toMatchObject({ thinking: 'hmm', thinkingSignature: 'sig', content: 'done', usage: { cost: 0.5 } })
  expect(s2.metadata.customEntries).toBe(1)
})
