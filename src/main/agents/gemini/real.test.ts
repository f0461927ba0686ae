/**
 * Store written by the real Gemini CLI 0.61.0 (fixtures/real/gemini): goldens for every session
 * and values checked against the files.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { REPO_ROOT, expectGolden } from '../../../../tests/helpers/golden'
import { type ReadHome, readHome } from '../../../../tests/builders/gemini/testing'

const REAL = join(REPO_ROOT, 'fixtures', 'real', 'gemini')
const listed = JSON.parse(readFileSync(join(REAL, 'sessions.json'), 'utf8')) as { sessions: { scenario: string; id: string }[] }
const idOf = (scenario: string): string => listed.sessions.find((s) => s.scenario === scenario)!.id
const CWD = '/home/ana/src/notes-app'

describe('gemini real store', () => {
  let home: ReadHome
  beforeAll(async () => {
    home = await readHome(join(REAL, 'home'))
  })

  it('finds the 4 sessions and the sub-agent, with no diagnostics', () => {
    expect(home.sessions.map((s) => s.id).sort()).toEqual([...new Set(listed.sessions.map((s) => s.id))].sort())
    expect(home.refs.filter((r) => r.format === 'gemini-subagent').map((r) => r.sessionId)).toEqual([idOf('sub-agent')])
    expect(home.diagnostics).toEqual([])
    for (const s of home.sessions) {
      expect(s.diagnostics).toEqual([])
      expect(s.workingDirectory).toBe(CWD)
      expect(s.metadata.cwdSource).toBe('projects.json')
      expect(s.model).toBe('gemini-2.5-flash')
    }
  })

  it('matches the goldens', () => {
    for (const s of home.sessions) expectGolden(`gemini/${s.id}`, s)
  })

  it('tools session: prompt, calls paired once, diffs, thinking, usage, resume appended', () => {
    const s = home.byId(idOf('tools'))
    expect(summarize(s, join(REAL, 'home')).firstPrompt).toBe('[tools] List the files, then create NOTES.md and mark its TODO line as done.')
    expect(s.title).toBe('Mock session summary')
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => c.name)).toEqual(['run_shell_command', 'write_file', 'replace', 'run_shell_command'])
    expect(calls.map((c) => c.kind)).toEqual(['execute', 'edit', 'edit', 'execute'])
    expect(calls.every((c) => c.status === 'completed' && !c.isError)).toBe(true)
    expect(countPairedToolCalls(s)).toEqual({ calls: 4, paired: 4 })
    // Each result is stored twice (toolCalls[].result and a user functionResponse line), and the
    // resume's $set snapshot repeats them: one tool node per call.
    expect(s.nodes.filter((n) => n.role === 'tool')).toHaveLength(4)
    expect(s.metadata.duplicateToolResults).toBe(7)
    expect(calls[1]!.diffs).toEqual([{ path: `${CWD}/NOTES.md`, newText: '# Notes\n\nTODO: write tests for the parser\n' }])
    expect(calls[2]!.diffs).toEqual([
      { path: `${CWD}/NOTES.md`, oldText: '# Notes\n\nTODO: write tests for the parser\n', newText: '# Notes\n\nDONE: write tests for the parser\n' },
    ])
    const first = s.nodes.find((n) => n.role === 'assistant')!
    expect(first.thinking).toBe('**Planning the change**\nThe user wants me to look at the project first, then create NOTES.md and change its second line.')
    expect(first.content).toBe('Let me look at the project first.')
    expect(first.usage).toEqual({ inputTokens: 200, outputTokens: 104, cacheReadTokens: 0, thinkingTokens: 30 })
    expect(first.model).toBe('gemini-2.5-flash')
    const shell = s.nodes.find((n) => n.toolCallId === calls[0]!.id)!
    expect(shell.content).toMatch(/^<untrusted_context>\nOutput: total 28/)
    expect(shell.createdAt).toBe(Date.parse('2026-11-30T07:08:45.461Z'))
    expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual([
      '[tools] List the files, then create NOTES.md and mark its TODO line as done.',
      '[resume] Continue: re-read NOTES.md.',
    ])
    // The model-history copies the resume wrote ($set messages, *_response) add no node.
    expect(s.nodes.some((n) => n.nodeId.endsWith('_response') || n.metadata?.fromSnapshot === true && !n.isMeta)).toBe(false)
    expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(6)
    expect(s.metadata.resumedAt).toEqual(['2026-11-30T07:08:59.960Z'])
    expect(s.createdAt).toBe(Date.parse('2026-11-30T07:08:45.193Z'))
    expect(s.lastActivityAt).toBe(Date.parse('2026-11-30T07:09:00.332Z'))
    // One thread: every node follows the one before it.
    s.nodes.slice(1).forEach((n, i) => expect(n.parentNodeId).toBe(s.nodes[i]!.nodeId))
  })

  it('the CLI context message is meta and keeps its first time', () => {
    for (const s of home.sessions.filter((x) => x.metadata.kind === 'main')) {
      const ctx = s.nodes[0]!
      expect(ctx.content).toMatch(/^<session_context>/)
      expect(ctx.isMeta).toBe(true)
      expect(ctx.createdAt).toBeLessThanOrEqual(s.nodes[1]!.createdAt!)
    }
  })

  it('think and qa sessions', () => {
    const think = home.byId(idOf('think'))
    expect(think.nodes.map((n) => n.role)).toEqual(['user', 'user', 'assistant'])
    expect(think.nodes[2]).toMatchObject({
      content: '17 * 3 + 4 = 55.',
      thinking: '**Doing the arithmetic**\nStep by step: 17 * 3 = 51, and 51 + 4 = 55.',
      usage: { inputTokens: 195, outputTokens: 32, cacheReadTokens: 0, thinkingTokens: 17 },
    })
    const qa = home.byId(idOf('qa'))
    expect(qa.nodes.filter((n) => !n.isMeta).map((n) => n.content)).toEqual(['[qa] What is the capital of France?', 'The capital of France is Paris. (mock answer)'])
    expect(summarize(qa, '/h').messageCount).toBe(2)
  })

  it('agent session links its sub-agent both ways', () => {
    const parent = home.byId(idOf('agent'))
    const child = home.byId(idOf('sub-agent'))
    const call = parent.nodes.flatMap((n) => n.toolCalls ?? []).find((c) => c.name === 'invoke_agent')!
    expect(call.id).toBe('invoke_agent__invoke_agent_1796022533805_0')
    expect(call.subagentSessionId).toBe(child.id)
    expect(parent.childSessionIds).toEqual([child.id])
    expect(child).toMatchObject({ parentSessionId: parent.id, parentToolCallId: call.id, agentName: 'generalist', source: { format: 'gemini-subagent' } })
    expect(child.metadata).toMatchObject({ kind: 'subagent', directories: [CWD] })
    expect(child.nodes.map((n) => n.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool'])
    expect(child.nodes[0]!.content).toBe('[subtask] Look at the git history of this repository and report the newest commits.')
    expect(child.nodes.flatMap((n) => n.toolCalls ?? []).map((c) => c.name)).toEqual(['run_shell_command', 'complete_task'])
    expect(countPairedToolCalls(child)).toEqual({ calls: 2, paired: 2 })
    const result = parent.nodes.find((n) => n.toolCallId === call.id)!
    expect(result.content).toContain('Termination Reason: GOAL')
  })
})
