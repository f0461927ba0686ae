/**
 * The store written by the real Codex CLI 0.171.0 (fixtures/real/codex): goldens for every
 * session, values checked against the rollout lines, and the sub-agent linked under its parent.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { REPO_ROOT, expectGolden } from '../../../../tests/helpers/golden'
import { type ReadHome, readHome } from '../../../../tests/builders/codex/testing'

const REAL = join(REPO_ROOT, 'fixtures', 'real', 'codex')
const listed = JSON.parse(readFileSync(join(REAL, 'sessions.json'), 'utf8')) as { sessions: { scenario: string; id: string }[] }
const idOf = (scenario: string): string => listed.sessions.find((s) => s.scenario === scenario)!.id
const CWD = '/home/ana/src/csv-tools'

describe('codex real store', () => {
  let home: ReadHome
  beforeAll(async () => {
    home = await readHome(join(REAL, 'home'))
  })

  it('finds the five threads listed in sessions.json, nothing else, without problems', () => {
    expect(home.sessions.map((s) => s.id).sort()).toEqual([...new Set(listed.sessions.map((s) => s.id))].sort())
    expect(home.refs.every((r) => r.format === 'codex-rollout' && r.files.length === 1)).toBe(true)
    expect(home.diagnostics).toEqual([])
    for (const s of home.sessions) expect(s.diagnostics).toEqual([])
  })

  it('matches the goldens', () => {
    for (const s of home.sessions) expectGolden(`codex/${s.id}`, s)
  })

  it('qa session: meta context hidden, one prompt and one answer with its usage', () => {
    const s = home.byId(idOf('qa'))
    const visible = s.nodes.filter((n) => !n.isMeta)
    expect(visible.map((n) => [n.role, n.content])).toEqual([
      ['user', '[qa] What is the capital of France?'],
      ['assistant', 'The capital of France is Paris. (mock answer)'],
    ])
    // The developer message and the <environment_context> user message are injected context.
    expect(s.nodes.filter((n) => n.isMeta).map((n) => [n.role, n.metadata?.role ?? n.content.slice(0, 21)])).toEqual([
      ['system', 'developer'],
      ['system', '<environment_context>'],
    ])
    expect(visible[1]).toMatchObject({ model: 'gpt-5.5', requestId: 'resp_mock_c6510568ed999a2411b830ab' })
    // token_usage_record line 12: input 6907, cached 0, output 52 (the token_count repeats it).
    expect(visible[1]!.usage).toEqual({ inputTokens: 6907, outputTokens: 52, cacheReadTokens: 0, cacheWriteTokens: 0, thinkingTokens: 0 })
    expect(s.usage).toEqual(visible[1]!.usage)
    expect(s).toMatchObject({ title: '[qa] What is the capital of France?', workingDirectory: CWD, model: 'gpt-5.5' })
    expect(s.git).toEqual({ branch: 'main', sha: 'b0e24dcbfad4917c4ad82ff1170ceaa102c63f21' })
    expect(s.createdAt).toBe(Date.parse('2026-11-30T07:02:46.791Z'))
    expect(s.lastActivityAt).toBe(Date.parse('2026-11-30T07:02:46.998Z'))
    expect(s.metadata).toMatchObject({ originator: 'codex_exec', cliVersion: '0.171.0', modelProvider: 'mock', source: 'exec' })
  })

  it('tools session (resumed): prompts, reasoning, exec and apply_patch calls paired, diffs, usage', () => {
    const s = home.byId(idOf('tools'))
    const sum = summarize(s, join(REAL, 'home'))
    expect(sum.firstPrompt).toBe('[tools] List the files, then create NOTES.md and mark its TODO line as done.')
    expect(sum.messageCount).toBe(8)
    expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual([
      '[tools] List the files, then create NOTES.md and mark its TODO line as done.',
      '[resume] Continue: re-read NOTES.md.',
    ])
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => [c.name, c.kind, c.status])).toEqual([
      ['exec_command', 'execute', 'completed'],
      ['apply_patch', 'edit', 'completed'],
      ['apply_patch', 'edit', 'completed'],
      ['exec_command', 'execute', 'completed'],
    ])
    expect(countPairedToolCalls(s)).toEqual({ calls: 4, paired: 4 })
    expect(calls[0]).toMatchObject({ id: 'call_mock_222e4bf59de7d25d81bb8b02', arguments: { cmd: 'ls -la' }, exitCode: 0 })
    expect(calls[1]!.arguments).toBe('*** Begin Patch\n*** Add File: NOTES.md\n+# Notes\n+\n+TODO: write tests for the parser\n*** End Patch\n')
    expect(calls[1]!.diffs).toEqual([{ path: `${CWD}/NOTES.md`, newText: '# Notes\n\nTODO: write tests for the parser\n' }])
    expect(calls[2]!.diffs).toEqual([{ path: `${CWD}/NOTES.md`, oldText: 'TODO: write tests for the parser', newText: 'DONE: write tests for the parser' }])
    expect(calls[2]!.locations).toEqual([{ path: `${CWD}/NOTES.md` }])
    const first = s.nodes.find((n) => n.role === 'assistant')!
    expect(first).toMatchObject({
      content: 'Let me look at the project first.',
      thinking: 'The user wants me to look at the project first, then create NOTES.md and change its second line.',
      model: 'gpt-5.5',
    })
    expect(first.thinkingSignature).toBeUndefined() // encrypted_content is null in this store
    expect(first.toolCalls?.map((c) => c.id)).toEqual(['call_mock_222e4bf59de7d25d81bb8b02'])
    expect(first.usage).toMatchObject({ inputTokens: 6917, outputTokens: 158 })
    const result = s.nodes.find((n) => n.role === 'tool')!
    expect(result).toMatchObject({ toolCallId: 'call_mock_222e4bf59de7d25d81bb8b02', toolName: 'exec_command' })
    expect(result.content).toContain('Process exited with code 0')
    // Six responses, one usage each: the total equals the last token_count's running total.
    expect(s.nodes.filter((n) => n.usage).length).toBe(6)
    expect(s.usage).toEqual({ inputTokens: 44511, outputTokens: 571, cacheReadTokens: 0, cacheWriteTokens: 0, thinkingTokens: 0 })
    expect(s.metadata.eventTypes).toMatchObject({ task_started: 2, token_count: 6 })
  })

  it('think session: the reasoning summary is the thinking of the answer', () => {
    const s = home.byId(idOf('think'))
    const visible = s.nodes.filter((n) => !n.isMeta)
    expect(visible.map((n) => n.role)).toEqual(['user', 'assistant'])
    expect(visible[1]).toMatchObject({ content: '17 * 3 + 4 = 55.', thinking: 'Step by step: 17 * 3 = 51, and 51 + 4 = 55.' })
  })

  it('agent session links its sub-agent both ways', () => {
    const parent = home.byId(idOf('agent'))
    const child = home.byId(idOf('sub-agent'))
    expect(parent.model).toBe('gpt-5-codex')
    expect(parent.childSessionIds).toEqual([child.id])
    const calls = parent.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => c.name)).toEqual(['spawn_agent', 'wait_agent'])
    const spawn = calls[0]!
    expect(spawn).toMatchObject({
      id: 'call_mock_886746c19ed0b502ac2008b3',
      arguments: { message: '[subtask] Look at the git history of this repository and report the newest commits.' },
      subagentSessionId: child.id,
      status: 'completed',
    })
    const spawnNode = parent.nodes.find((n) => n.toolCalls?.includes(spawn))!
    expect(spawnNode.metadata).toBeUndefined()
    expect(spawn.namespace).toBe('multi_agent_v1')
    expect(child).toMatchObject({ parentSessionId: parent.id, parentToolCallId: spawn.id, agentName: 'Bacon', title: '[subtask] Look at the git history of this repository and report the newest commits.' })
    expect(child.metadata).toMatchObject({ threadSource: 'subagent', spawnDepth: 1, rootSessionId: parent.id })
    expect(child.nodes.filter((n) => !n.isMeta).map((n) => n.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(countPairedToolCalls(child)).toEqual({ calls: 1, paired: 1 })
    const notification = parent.nodes.find((n) => n.content.startsWith('<subagent_notification>'))!
    // Another agent's report is injected context (issue 14 point 9): a marker, not the person's turn.
    expect(notification).toMatchObject({ role: 'system', isMeta: true, metadata: { injected: 'subagent-notification', origin: 'subagent-notification' } })
  })
})
