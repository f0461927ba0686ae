/**
 * Devin reader on the generated main home (fixtures-homes.ts `writeMainHome`): goldens for every
 * session, then the values each scenario exists for.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectGolden } from '../../../../tests/helpers/golden'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { closeDevinDbs } from './db'
import { writeMainHome } from '../../../../tests/builders/devin/fixtures-homes'
import { type ReadHome, readHome, stable, tempHome } from '../../../../tests/builders/devin/testing'

let home: string
let r: ReadHome
beforeAll(async () => {
  home = tempHome()
  writeMainHome(home)
  r = await readHome(home)
})
afterAll(() => {
  closeDevinDbs()
  rmSync(home, { recursive: true, force: true })
})

const calls = (id: string) => r.byId(id).nodes.flatMap((n) => n.toolCalls ?? [])

describe('devin main home', () => {
  it('discovers every session, the live sub-agent and the transcript-only session', () => {
    expect(r.refs.map((x) => [x.sessionId, x.format])).toEqual([
      ['quiet-harbor', 'devin-sqlite'],
      ['quiet-harbor/sidekick', 'devin-subagent'],
      ['pale-moon', 'devin-sqlite'],
      ['still-river', 'devin-sqlite'],
      ['amber-falcon', 'devin-sqlite'],
      ['lost-lantern', 'devin-atif'],
    ])
    expect(r.diagnostics).toEqual([])
    // The renamed export is matched by its session_id field.
    expect(r.refs.find((x) => x.sessionId === 'amber-falcon')!.files.at(-1)).toMatch(/transcripts\/export-0001\.json$/)
  })

  it('matches the goldens', () => {
    for (const s of r.sessions) expectGolden(`devin/${s.id.replace('/', '__')}`, stable(s, home))
  })

  it('quiet-harbor: main chain, copies folded once, abandoned branch kept and marked', () => {
    const s = r.byId('quiet-harbor')
    expect(s.title).toBe('Add a --dry-run flag')
    expect(s.model).toBe('swe-2-high')
    expect(s.workingDirectory).toBe('/home/ana/src/ledgerlite')
    expect(s.createdAt).toBe(Date.UTC(2026, 2, 2, 10, 0, 0))
    expect(s.metadata.mainThread).toEqual(['20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '30', '31', '32', '33', '34', '35'])
    const ids = s.nodes.map((n) => n.metadata?.messageId)
    expect(new Set(ids).size).toBe(ids.length)
    expect(s.metadata.foldedCopies).toBe(6)
    const branch = s.nodes.filter((n) => n.metadata?.branch === true)
    expect(branch.map((n) => [n.nodeId, n.parentNodeId, n.content])).toEqual([['5', '25', 'Let me rewrite the whole CLI instead.']])
    expect(s.nodes.find((n) => n.nodeId === '23')!.metadata?.copyNodeIds).toEqual(['2'])
    expect(summarize(s, home).firstPrompt).toBe('add a --dry-run flag')
    expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual(['add a --dry-run flag', 'now run the tests and add one for --dry-run'])
    expect(s.nodes.find((n) => n.nodeId === '29')!.isMeta).toBe(true)
    expect(s.nodes.filter((n) => n.role === 'system').every((n) => n.isMeta)).toBe(true)
    expect(s.nodes.find((n) => n.nodeId === '28')!.blocks?.[1]).toEqual({ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' })
    expect(s.promptHistory).toEqual(['add a --dry-run flag', 'now run the tests and add one for --dry-run', 'git status'])
    expect(s.metadata.shellPrompts).toBe(1)
  })

  it('quiet-harbor: thinking + seal, usage (input excludes cache reads), model, request id', () => {
    const a = r.byId('quiet-harbor').nodes.find((n) => n.nodeId === '24')!
    expect(a.thinking).toBe('Need to find argparse setup.')
    expect(a.thinkingSignature).toBe('sealed.v1.m-a1')
    expect(a.usage).toEqual({ inputTokens: 512, outputTokens: 87, cacheReadTokens: 11800 })
    expect([a.model, a.requestId, a.finishReason]).toEqual(['swe-2-high', 'req-a1', 'tool_calls'])
    // ATIF reasoning_content fills thinking the database lacks.
    const b = r.byId('quiet-harbor').nodes.find((n) => n.nodeId === '26')!
    expect(b.thinking).toBe('The flag belongs right before parse_args().')
    expect(b.metadata?.thinkingSource).toBe('atif')
    expect(r.byId('quiet-harbor').usage).toBeUndefined()
  })

  it('quiet-harbor: tool calls paired, tool_call_state status/diffs, exit codes, timing', () => {
    const s = r.byId('quiet-harbor')
    expect(countPairedToolCalls(s)).toEqual({ calls: 5, paired: 5 })
    const c = calls('quiet-harbor')
    expect(c.map((x) => [x.id, x.name, x.kind, x.status, x.isError ?? false, x.exitCode, x.durationMs])).toEqual([
      ['exec_0_9f2c#a1', 'exec', 'execute', 'completed', false, 0, 12],
      ['edit_0_77aa#b2', 'edit', 'edit', 'completed', false, undefined, 12],
      ['exec_1_aa01#c1', 'exec', 'execute', 'completed', false, 0, 2400],
      ['exec_1_aa02#c2', 'exec', 'execute', 'failed', true, 1, 3100],
      ['run_subagent_2_bb#d1', 'run_subagent', 'other', 'completed', false, undefined, 95000],
    ])
    expect(c[0]!.arguments).toEqual({ command: 'grep -n argparse cli.py' })
    expect(c[1]!.locations).toEqual([{ path: '/home/ana/src/ledgerlite/cli.py', line: 14 }])
    expect(c[1]!.diffs).toEqual([{ path: '/home/ana/src/ledgerlite/cli.py', oldText: 'args = p.parse_args()\n', newText: "p.add_argument('--dry-run', action='store_true')\nargs = p.parse_args()\n" }])
    const failed = s.nodes.find((n) => n.toolCallId === 'exec_1_aa02#c2')!
    expect([failed.isError, failed.toolName, failed.metadata?.cwd]).toEqual([true, 'exec', '/home/ana/src/ledgerlite'])
    expect(s.metadata.toolCallStates).toBe(3)
    expect(s.metadata.unmatchedToolCallStates).toBe(1)
  })

  it('quiet-harbor: the sub-agent chain is its own session, linked both ways; the dangling head is a diagnostic', () => {
    const parent = r.byId('quiet-harbor')
    const child = r.byId('quiet-harbor/sidekick')
    expect(parent.childSessionIds).toEqual(['quiet-harbor/sidekick'])
    expect(calls('quiet-harbor').find((x) => x.name === 'run_subagent')!.subagentSessionId).toBe('quiet-harbor/sidekick')
    expect(parent.nodes.some((n) => ['40', '41', '42', '43', '44'].includes(n.nodeId))).toBe(false)
    expect([child.parentSessionId, child.parentToolCallId, child.agentName]).toEqual(['quiet-harbor', 'run_subagent_2_bb#d1', 'sidekick'])
    expect(child.nodes.map((n) => n.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant'])
    expect(child.nodes[1]).toMatchObject({ content: 'Investigate why tests/cli/test_dry_run.py fails.', metadata: { subagentHandoff: true, leadModel: 'swe-2-high' } })
    expect(child.model).toBe('swe-1-6-fast')
    expect(child.lastActivityAt).toBe(Date.UTC(2026, 2, 2, 10, 6, 40))
    expect(countPairedToolCalls(child)).toEqual({ calls: 1, paired: 1 })
    expect(child.diagnostics).toEqual([])
    expect(parent.diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['warning', 'subagent_heads agent "ghost" names node_id 999, which has no row; no sub-agent session'],
    ])
    expect(parent.metadata.danglingSubagentHeads).toEqual([{ agentId: 'ghost', chainNodeId: 999 }])
  })

  it('amber-falcon: ms times, compaction pair → one compaction event, import twins → one message', () => {
    const s = r.byId('amber-falcon')
    expect(s.createdAt).toBe(Date.UTC(2026, 2, 3, 10, 0, 0))
    expect(s.nodes.find((n) => n.nodeId === '13')!.createdAt).toBe(Date.UTC(2026, 2, 3, 10, 0, 30))
    const events = s.nodes.filter((n) => n.event === 'compaction')
    expect(events.map((n) => n.nodeId)).toEqual(['11'])
    expect(events[0]!.metadata?.compaction).toEqual({
      summarizedFrom: '5', preTokens: 48100, source: 'async_file_compactor', editedFiles: ['/home/ana/src/ledgerlite/src/app.py'],
      todoList: [{ content: 'add tests', status: 'pending' }], historyPath: '/home/ana/.local/share/devin/cli/summaries/main/history_3fa2.md',
    })
    expect(s.nodes.find((n) => n.nodeId === '12')).toMatchObject({ isMeta: true, metadata: { compactionOf: '5' } })
    expect(s.nodes.some((n) => n.nodeId === '15')).toBe(false)
    const twin = s.nodes.find((n) => n.nodeId === '14')!
    expect(twin).toMatchObject({ requestId: 'req-tw', model: 'swe-1-6-slow', usage: { inputTokens: 640, outputTokens: 45, cacheReadTokens: 2048 } })
    expect(twin.metadata?.twinNodeIds).toEqual(['15'])
    expect(s.nodes.find((n) => n.toolCallId === 'edit_3_cc#f1')!.parentNodeId).toBe('14')
    expect(s.metadata.mainThread).toEqual(['10', '11', '12', '13', '14', '16', '17'])
    expect(s.nodes.filter((n) => n.metadata?.branch).map((n) => n.nodeId)).toEqual(['2', '3', '4', '5'])
    expect(s.nodes.find((n) => n.nodeId === '17')!.thinking).toBe('A short section is enough.')
    expect(s.metadata.workspaceDirs).toEqual(['/home/ana/src/ledgerlite/docs'])
  })

  it('pale-moon: hidden, model "" → last chain model, main_chain_id NULL → newest node, corrupt rows are diagnostics', () => {
    const s = r.byId('pale-moon')
    expect(s.metadata.hidden).toBe(true)
    expect(s.model).toBe('swe-2-high')
    expect(s.metadata.sessionModelEmpty).toBe(true)
    expect(s.metadata.mainChainFallback).toBe('null')
    expect(s.metadata.mainThread).toEqual(['1', '2', '3', '6'])
    expect(s.nodes.find((n) => n.nodeId === '6')!.parentNodeId).toBe('3')
    expect(s.title).toBe('check the build')
    expect(s.diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['warning', 'ATIF transcript is cut short or malformed (invalid JSON at character 954); 3 complete steps used'],
      ['warning', 'message_nodes row_id 43 (node_id 2): metadata is not valid JSON (invalid JSON at character 1); ignored'],
      ['error', 'message_nodes row_id 45 (node_id 4): chat_message is not valid JSON (invalid JSON at character 1); message skipped, the chain continues past it'],
      ['error', 'message_nodes row_id 46 (node_id 5): chat_message is null, not a JSON object; message skipped, the chain continues past it'],
      ['info', 'sessions.main_chain_id is NULL; the transcript ends at the newest node (node_id 6)'],
    ])
    expect(s.diagnostics.every((d) => d.sessionId === 'pale-moon' && d.agent === 'devin')).toBe(true)
    expect(s.diagnostics[0]!.path).toMatch(/transcripts\/pale-moon\.json$/)
    expect(s.diagnostics[2]!.path).toMatch(/devin\/cli\/sessions\.db$/)
    // The cut-short transcript still gave its complete steps' reasoning.
    expect(s.nodes.find((n) => n.nodeId === '3')!.thinking).toBe('make is the build entry point.')
    expect(calls('pale-moon')[0]!.status).toBe('pending')
  })

  it('still-river: an empty transcript is a diagnostic; all-zero metrics are no usage', () => {
    const s = r.byId('still-river')
    expect(s.diagnostics.map((d) => d.message)).toEqual(['ATIF transcript is empty (Devin rewrites it after every step); not used'])
    expect(s.nodes[1]).toMatchObject({ role: 'assistant', content: '', metadata: { zeroMetrics: true } })
    expect(s.nodes[1]!.usage).toBeUndefined()
    expect(s.metadata.hidden).toBeUndefined()
  })

  it('lost-lantern: a transcript without a database row reads from its ATIF steps', () => {
    const s = r.byId('lost-lantern')
    expect(s.nodes.map((n) => [n.nodeId, n.role, n.content])).toEqual([
      ['atif-1', 'user', 'print the version'],
      ['atif-2', 'assistant', 'Checking.'],
      ['atif-2-r1', 'tool', '1.4.0'],
      ['atif-3', 'assistant', 'Version 1.4.0.'],
    ])
    expect(s.nodes[1]).toMatchObject({ thinking: 'Use --version.', model: 'swe-2-high', usage: { inputTokens: 200, outputTokens: 20, cacheReadTokens: 800, cost: 0.002 } })
    expect(countPairedToolCalls(s)).toEqual({ calls: 1, paired: 1 })
  })
})
