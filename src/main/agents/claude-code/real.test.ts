/**
 * Stores written by the real Claude Code 2.1.332 (fixtures/real/claude-code): goldens for every
 * session, values checked against the files, and the 36 hand-written variants.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Session } from '../../../shared/ir'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { REPO_ROOT, expectGolden } from '../../../../tests/helpers/golden'
import { type ReadHome, readHome } from '../../../../tests/builders/claude-code/testing'

const REAL = join(REPO_ROOT, 'fixtures', 'real', 'claude-code')
const listed = JSON.parse(readFileSync(join(REAL, 'sessions.json'), 'utf8')) as { sessions: { scenario: string; id: string }[] }
const idOf = (scenario: string): string => listed.sessions.find((s) => s.scenario === scenario)!.id
const SUBAGENT = 'a3f2b5aeb6dc75f4e'

describe('claude-code real store', () => {
  let home: ReadHome
  beforeAll(async () => {
    home = await readHome(join(REAL, 'home'))
  })

  it('finds the 5 sessions and the sub-agent, nothing else', () => {
    const top = home.sessions.filter((s) => s.source.format === 'claude-code-jsonl').map((s) => s.id)
    expect(top.sort()).toEqual([...new Set(listed.sessions.map((s) => s.id))].sort())
    expect(home.sessions.filter((s) => s.source.format === 'claude-code-subagent').map((s) => s.id)).toEqual([SUBAGENT])
    expect(home.diagnostics).toEqual([])
    for (const s of home.sessions) expect(s.diagnostics).toEqual([])
  })

  it('matches the goldens', () => {
    for (const s of home.sessions) expectGolden(`claude-code/${s.id}`, s)
  })

  it('tools session: prompt, model, cwd, paired calls, signed thinking, usage, branch, checkpoints', () => {
    const s = home.byId(idOf('tools'))
    const sum = summarize(s, join(REAL, 'home'))
    expect(sum.firstPrompt).toBe('[tools] List the files, then create NOTES.md and mark its TODO line as done.')
    expect(s.model).toBe('claude-opus-5-5')
    expect(s.workingDirectory).toBe('/home/ana/src/ledger-api')
    expect(s.git).toEqual({ branch: 'main' })
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => c.name)).toEqual(['Bash', 'Write', 'Edit', 'Bash'])
    expect(calls.map((c) => c.kind)).toEqual(['execute', 'edit', 'edit', 'execute'])
    expect(calls.every((c) => c.status === 'completed' && !c.isError)).toBe(true)
    expect(countPairedToolCalls(s)).toEqual({ calls: 4, paired: 4 })
    expect(calls[1]!.diffs).toEqual([{ path: '/home/ana/src/ledger-api/NOTES.md', newText: '# Notes\n\nTODO: write tests for the parser\n' }])
    expect(calls[2]!.diffs).toEqual([
      { path: '/home/ana/src/ledger-api/NOTES.md', oldText: 'TODO: write tests for the parser', newText: 'DONE: write tests for the parser' },
    ])
    const first = s.nodes.find((n) => n.role === 'assistant')!
    expect(first.thinking).toBe('The user wants me to look at the project first, then create NOTES.md and change its second line.')
    expect(first.thinkingSignature).toMatch(/^mocksig_/)
    expect(first.content).toBe('Let me look at the project first.')
    expect(first.usage).toMatchObject({ inputTokens: 4689, outputTokens: 99 })
    expect(first.finishReason).toBe('tool_use')
    expect(first.requestId).toMatch(/^req_mock_/)
    // 10 assistant records (one per block) are 6 API messages; the resumed turn appends to the file.
    expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(6)
    expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual([
      '[tools] List the files, then create NOTES.md and mark its TODO line as done.',
      '[resume] Continue: re-read NOTES.md.',
    ])
    expect(s.usage).toEqual({ cost: 0.12798, inputTokens: 30375, outputTokens: 324, cacheReadTokens: 0, cacheWriteTokens: 0, thinkingTokens: 0 })
    expect(s.checkpoints.map((c) => [c.ref, c.nodeId, c.files])).toEqual([
      ['c8f99279-f909-450f-a3cd-d2f1f9cd56fe', 'c8f99279-f909-450f-a3cd-d2f1f9cd56fe', ['NOTES.md']],
      ['4448b5b7-52dd-4503-adc9-aabd237237f8', '4448b5b7-52dd-4503-adc9-aabd237237f8', ['NOTES.md']],
    ])
    expect(s.metadata.version).toBe('2.1.332')
    // The chain runs through attachments: every node but the first has a parent in the session.
    const ids = new Set(s.nodes.map((n) => n.nodeId))
    expect(s.nodes.filter((n) => n.parentNodeId === undefined)).toHaveLength(1)
    for (const n of s.nodes.slice(1)) expect(ids.has(n.parentNodeId!)).toBe(true)
  })

  it('agent session links its sub-agent both ways', () => {
    const parent = home.byId(idOf('agent'))
    const child = home.byId(SUBAGENT)
    expect(parent.childSessionIds).toEqual([SUBAGENT])
    const agentCall = parent.nodes.flatMap((n) => n.toolCalls ?? []).find((c) => c.name === 'Agent')!
    expect(agentCall.id).toBe('toolu_mock_8664259fbd4d9ab7a5180e7a')
    expect(agentCall.subagentSessionId).toBe(SUBAGENT)
    expect(child.parentSessionId).toBe(parent.id)
    expect(child.parentToolCallId).toBe(agentCall.id)
    expect(child.title).toBe('Summarize git history')
    expect(child.nodes.map((n) => n.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(child.nodes[0]!.content).toBe('[subtask] Look at the git history of this repository and report the newest commits.')
    expect(countPairedToolCalls(child)).toEqual({ calls: 1, paired: 1 })
    // Issue 14: the CLI's <task-notification> is a marker with plain text, not a user turn.
    const notification = parent.nodes.find((n) => n.event === 'notification')!
    expect(notification).toMatchObject({ role: 'system', content: 'Agent "Summarize git history" finished\n\nSub-agent report: the repository has a short history; the newest commit is shown above.' })
    expect(notification.metadata).toEqual({ origin: 'task-notification', injected: true, status: 'completed' })
    expect(parent.nodes.some((n) => n.content.includes('<task-notification>'))).toBe(false)
  })

  it('think and qa sessions: one answer each, thinking sealed in the think session', () => {
    const think = home.byId(idOf('think'))
    expect(think.nodes.map((n) => n.role)).toEqual(['user', 'assistant'])
    expect(think.nodes[1]).toMatchObject({ content: '17 * 3 + 4 = 55.', thinking: 'Step by step: 17 * 3 = 51, and 51 + 4 = 55.' })
    expect(think.nodes[1]!.thinkingSignature).toMatch(/^mocksig_/)
    const qa = home.byId(idOf('qa'))
    expect(qa.nodes.map((n) => n.content)).toEqual(['[qa] What is the capital of France?', 'The capital of France is Paris. (mock answer)'])
  })

  it('tui session: turn_duration system records are metadata and the two turns stay chained', () => {
    const s = home.byId(idOf('tui'))
    expect(s.metadata.systemSubtypes).toEqual({ turn_duration: 2 })
    expect(s.metadata.permissionMode).toBe('bypassPermissions')
    const think = s.nodes.find((n) => n.content === '[think] What is 17 * 3 + 4? Think first.')!
    const before = s.nodes[s.nodes.indexOf(think) - 1]!
    expect(think.parentNodeId).toBe(before.nodeId)
    expect(before.role).toBe('assistant')
  })
})

/** Expected shape of each hand-written variant: node roles, paired calls, diagnostics. */
const ROLES = 'user,assistant,tool,assistant'
const HANDWRITTEN: Record<string, { roles?: string; paired?: number; diagnostics?: [number | undefined, string][]; id?: string; cwd?: string | null }> = {
  '02-without-uuid': { diagnostics: [[2, 'warning'], [3, 'warning'], [4, 'warning']] },
  '03-without-type': { diagnostics: [[undefined, 'warning']] },
  '05-without-cwd': { cwd: null },
  '17-only-type-uuid-parentuuid-message-role-content': { cwd: null },
  '18-only-type-and-message-role-content': { cwd: null },
  '19-parentuuid-of-record-3-names-an-unknown-uuid': { diagnostics: [[3, 'warning']] },
  '20-tool-result-tool-use-id-does-not-match-the-tool-use-id': { paired: 0 },
  '21-tool-use-without-its-tool-result': { roles: 'user,assistant,assistant', paired: 0 },
  '22-sessionid-field-differs-from-the-file-name': { diagnostics: [[undefined, 'info']] },
  '23-cwd-field-differs-from-the-real-cwd': { cwd: '/home/ana/src/elsewhere' },
  '28-cwd-with-dots-underscores-space-non-ascii-my-proj-v2-x-ü': { cwd: '/home/ana/src/My_Proj.v2 x (ü)' },
  '30-one-line-that-is-not-json': { diagnostics: [[3, 'error']] },
  '31-file-name-is-not-the-session-id': { id: 'not-the-id', diagnostics: [[undefined, 'info'], [undefined, 'info']] },
  '32-id-that-is-not-a-uuid-file-hand-written-jsonl-resume-hand-wr': { id: 'hand-written', diagnostics: [[undefined, 'info'], [undefined, 'info']] },
}

describe('claude-code hand-written variants', () => {
  const root = join(REAL, 'handwritten')
  const folders = readdirSync(root).filter((d) => /^\d\d-/.test(d)).sort()

  it('has all 36 variants', () => {
    expect(folders).toHaveLength(36)
  })

  it.each(folders)('%s reads with the expected messages', async (folder) => {
    const want = HANDWRITTEN[folder] ?? {}
    const home = await readHome(join(root, folder, 'home'))
    expect(home.sessions).toHaveLength(1)
    const s: Session = home.sessions[0]!
    if (want.id) expect(s.id).toBe(want.id)
    expect(s.nodes.map((n) => n.role).join(',')).toBe(want.roles ?? ROLES)
    expect(s.nodes[0]!.content).toBe('HANDWRITTEN-USER: please list the files')
    expect(s.nodes[s.nodes.length - 1]!.content).toBe('HANDWRITTEN-ASSISTANT: there is one file, README.md.')
    expect(countPairedToolCalls(s)).toEqual({ calls: 1, paired: want.paired ?? 1 })
    expect(s.diagnostics.map((d) => [d.line, d.severity])).toEqual(want.diagnostics ?? [])
    const cwd = want.cwd === undefined ? '/home/ana/src/ledger-api' : want.cwd
    if (cwd === null) expect(s.workingDirectory).toBeUndefined()
    else if (folder.startsWith('29-')) expect(s.workingDirectory).toMatch(/^\/home\/ana\/src\/a-very-long-project-folder-name/)
    else expect(s.workingDirectory).toBe(cwd)
    expect(summarize(s, root).messageCount).toBe(3)
  })
})
