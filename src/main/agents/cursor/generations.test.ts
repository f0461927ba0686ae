/**
 * Cursor IDE reader over generated stores, one per storage generation (FIXTURES.md): goldens plus
 * the values that matter, asserted.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { expectGolden } from '../../../../tests/helpers/golden'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { closeCursorSnapshots, cursor } from './index'
import { tempHome } from '../../../../tests/builders/cursor/fixtures'
import { MODERN, MODERN_WS, writeModernStore } from '../../../../tests/builders/cursor/fixtures-modern'
import { OLD, writeCursorHome, writeInlineStore, writeLegacyStore } from '../../../../tests/builders/cursor/fixtures-old'
import { readGenerated, withoutHome } from '../../../../tests/builders/cursor/testing'

const homes: (() => void)[] = []
function home(write: (h: string) => unknown): string {
  const t = tempHome()
  homes.push(t.cleanup)
  write(t.home)
  return t.home
}
afterAll(() => {
  closeCursorSnapshots()
  for (const c of homes) c()
})

describe('cursor: modern store (headers + bubbleId rows)', async () => {
  const h = home(writeModernStore)
  const r = await readGenerated(cursor, h)

  it('lists composers with messages, tasks and sub-composers; not drafts', () => {
    expect(r.sessions.map((s) => s.id)).toEqual([MODERN.A, MODERN.B, MODERN.C, MODERN.D, MODERN.E, MODERN.F, MODERN.G, MODERN.task].sort())
    expect(r.discovery).toEqual([])
    expect(r.refs.find((x) => x.sessionId === MODERN.A)?.format).toBe('cursor-composer-headers')
    expect(r.refs.find((x) => x.sessionId === MODERN.task)?.format).toBe('cursor-task')
  })

  it('matches the golden', () => {
    expectGolden('cursor/modern', withoutHome(r.sessions, h))
  })

  it('composer A (§A7 recipe): order, thinking, tool call, usage, model, project, no secrets', () => {
    const s = r.byId(MODERN.A)
    expect(summarize(s, h).firstPrompt).toBe('Make import.py skip blank rows')
    expect(s.title).toBe('Tidy the CSV importer')
    expect(s.workingDirectory).toBe('/home/ana/src/ledgerlite')
    expect(s.metadata.project).toEqual({ via: 'workspaceIdentifier.uri', workspaceId: MODERN_WS.linux })
    expect(s.model).toBe('claude-4.5-sonnet')
    expect(s.createdAt).toBe(1764410400000)
    expect(s.lastActivityAt).toBe(1764410525000)
    expect(s.nodes.map((n) => n.role)).toEqual(['user', 'assistant', 'assistant', 'tool', 'assistant'])
    expect(s.nodes[0]!.createdAt).toBe(Date.parse('2025-11-29T10:00:05.120Z'))
    expect(s.nodes[0]!.usage).toBeUndefined()
    expect(s.nodes[1]!.thinking).toBe('The loop should continue on empty lines.')
    expect(s.nodes[1]!.thinkingSignature).toBe('sig-aa02')
    const call = s.nodes[2]!.toolCalls![0]!
    expect(call).toMatchObject({ id: 'toolu_01Ab', name: 'edit_file', kind: 'edit', status: 'completed', arguments: { target_file: 'import.py', instructions: 'skip blanks' } })
    expect(countPairedToolCalls(s)).toEqual({ calls: 1, paired: 1 })
    expect(s.nodes[4]!.usage).toEqual({ inputTokens: 18120, outputTokens: 130 })
    expect(s.nodes.some((n) => n.content.includes('first draft'))).toBe(false)
    expect(s.metadata.orphanBubbles).toBe(2)
    expect(s.metadata.encryptionKeysPresent).toEqual(['blobEncryptionKey'])
    expect(JSON.stringify(s)).not.toContain('c2VjcmV0')
    expect(JSON.stringify(s)).not.toContain('originalFileStates')
    for (const n of s.nodes.slice(1)) expect(n.parentNodeId).toBeDefined()
  })

  it('composer B: Lexical-only user text, header times, newline call id, Windows folder from composer.composerHeaders', () => {
    const s = r.byId(MODERN.B)
    expect(s.nodes[0]!.content).toBe('Run npm test and tell me what fails')
    expect(s.nodes[0]!.createdAt).toBe(Date.parse('2026-03-14T09:26:53.589Z'))
    expect(s.workingDirectory).toBe('c:\\Users\\ana\\src\\tidepool')
    const call = s.nodes[1]!.toolCalls![0]!
    expect(call.id).toBe('call_b1\nfc_b1')
    expect(call.arguments).toEqual({ command: 'npm test', is_background: false })
    expect(call.exitCode).toBe(0)
    expect(s.nodes[2]!.content).toBe('3 passing')
    expect(s.nodes[3]!.usage).toBeUndefined()
  })

  it('composer C: remote folder via composerHeaders table, timingInfo times, rejected/error/invalid-args calls', () => {
    const s = r.byId(MODERN.C)
    expect(s.workingDirectory).toBe('/home/ana/src/api')
    expect(s.metadata.project).toMatchObject({ via: 'composerHeaders.workspaceId', remote: 'ssh-remote+buildbox' })
    expect(s.status).toBe('failed')
    expect(s.nodes[0]!.createdAt).toBeUndefined()
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => [c.id, c.status])).toEqual([['toolu_c_rej', 'failed'], ['toolu_c_err', 'failed'], ['toolu_c_bad', 'completed']])
    const rej = s.nodes.find((n) => n.toolCalls?.[0]?.id === 'toolu_c_rej')!
    expect(rej.createdAt).toBe(1751360005000)
    expect(rej.metadata).toMatchObject({ toolStatus: 'cancelled', userDecision: 'rejected' })
    expect(calls[0]!.diffs).toEqual([{ path: '/home/ana/src/api/server.ts', oldText: 'handle(', newText: 'onRequest(' }])
    const err = s.nodes.find((n) => n.toolCalls?.[0]?.id === 'toolu_c_err')!
    expect(err.createdAt).toBeUndefined()
    expect(calls[1]!.arguments).toEqual({ command: 'npm test' })
    expect(calls[2]!.arguments).toBe('{"target_file": "src/server.ts"')
    expect(s.nodes.find((n) => n.toolCalls?.[0]?.id === 'toolu_c_bad')!.createdAt).toBe(1751360020000)
  })

  it('no folder → no project; configured model used when not "default"', () => {
    const d = r.byId(MODERN.D)
    expect(d.workingDirectory).toBeUndefined()
    expect(d.model).toBe('gpt-5')
    expect(r.byId(MODERN.G).workingDirectory).toBe('/home/ana/src/scratch')
    expect(r.byId(MODERN.E).metadata.project).toMatchObject({ via: 'workspace membership' })
  })

  it('sub-composer and task_v2 sub-agent nest under their parent', () => {
    const e = r.byId(MODERN.E)
    const f = r.byId(MODERN.F)
    const t = r.byId(MODERN.task)
    expect(e.childSessionIds).toEqual([MODERN.F, MODERN.task])
    expect(f.parentSessionId).toBe(MODERN.E)
    expect(t.parentSessionId).toBe(MODERN.E)
    expect(t.parentToolCallId).toBe('toolu_task1')
    const call = e.nodes.flatMap((n) => n.toolCalls ?? []).find((c) => c.id === 'toolu_task1')!
    expect(call.subagentSessionId).toBe(MODERN.task)
    expect(e.nodes.find((n) => n.toolCallId === 'toolu_task1')!.content).toBe('found 3 callers')
    expect(t.nodes.map((n) => n.content)).toEqual(['List every caller of parse_row', 'Found 3 callers in importer.py.'])
  })
})

describe('cursor: inline conversation[] store (v0.43)', async () => {
  const h = home(writeInlineStore)
  const r = await readGenerated(cursor, h)

  it('reads inline bubbles, maps the project by workspace membership, matches the golden', () => {
    expectGolden('cursor/inline', withoutHome(r.sessions, h))
    const s = r.byId(OLD.inline1)
    expect(s.source.format).toBe('cursor-composer-inline')
    expect(s.workingDirectory).toBe('/home/ana/src/ledgerlite')
    expect(s.nodes.map((n) => n.content)).toEqual(['Add an export_csv() to report.py', '```python\ndef export_csv(rows):\n    ...\n```', 'Added export_csv().'])
    const s2 = r.byId(OLD.inline2)
    expect(s2.title).toBe('Why is the build slow?')
    expect(s2.nodes[1]!.createdAt).toBe(1733100004000)
    expect(s2.nodes[0]!.createdAt).toBeUndefined()
  })
})

describe('cursor: workspace ItemTable chat data (≤ v0.42)', async () => {
  const h = home(writeLegacyStore)
  const r = await readGenerated(cursor, h)

  it('reads chat-pane tabs (tabs and chatSessions) and inline workspace composers', () => {
    expectGolden('cursor/legacy', withoutHome(r.sessions, h))
    expect(r.sessions.map((s) => [s.id, s.source.format])).toEqual([
      [OLD.tab1, 'cursor-chat-pane'],
      [OLD.tab2, 'cursor-chat-pane'],
      [OLD.tab3, 'cursor-chat-pane'],
      [OLD.wsComposer, 'cursor-workspace-composer'],
    ])
    const t1 = r.byId(OLD.tab1)
    expect(t1.title).toBe('Fix flaky date parser')
    expect(t1.workingDirectory).toBe('/home/ana/src/dateparse')
    expect(t1.model).toBe('gpt-4o')
    expect(t1.lastActivityAt).toBe(1719830000000)
    expect(t1.nodes[0]!.metadata?.selections).toEqual([{ text: 'const d = parse(s)' }])
    expect(r.byId(OLD.tab2).nodes[0]!.content).toBe('explain the regex in tz.js')
    expect(r.byId(OLD.wsComposer).nodes.map((n) => n.role)).toEqual(['user', 'assistant'])
    expect(r.byId(OLD.wsComposer).model).toBe('claude-3.5-sonnet')
  })
})

describe('cursor: per-OS user folders', () => {
  for (const os of ['darwin', 'win32'] as const) {
    it(`finds the store in a copied ${os} home`, async () => {
      const h = home((x) => writeModernStore(x, os))
      const r = await readGenerated(cursor, h, os)
      expect(r.sessions).toHaveLength(8)
      expect(r.byId(MODERN.A).workingDirectory).toBe('/home/ana/src/ledgerlite')
    })
  }
})

describe('cursor: all generations in one home', () => {
  it('reads the modern, inline and legacy stores side by side (14 sessions, every call settled)', async () => {
    const h = home(writeCursorHome)
    const r = await readGenerated(cursor, h)
    expect(r.sessions).toHaveLength(14)
    expect(r.discovery).toEqual([])
    for (const s of r.sessions) {
      expect(s.nodes.length).toBeGreaterThan(0)
      expect(s.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
      for (const c of s.nodes.flatMap((n) => n.toolCalls ?? [])) expect(['completed', 'failed']).toContain(c.status)
    }
  })
})
