/**
 * Stores written by the real OpenCode 1.18.33 and Kilo Code CLI 7.7.7 (fixtures/real/opencode,
 * fixtures/real/kilo): goldens for every session, values checked against the databases, and the
 * hand-written variants (fixtures/real/<agent>/handwritten).
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { REPO_ROOT, expectGolden } from '../../../../tests/helpers/golden'
import type { AgentDefinition } from '../types'
import { closeStoreDbs, kiloCodeCli, opencode } from './index'
import { type ReadHome, readHome, testContext } from '../../../../tests/builders/opencode/testing'

interface Family {
  name: 'opencode' | 'kilo'
  agent: AgentDefinition
  cwd: string
  /** Input tokens of the tools session's first assistant message (from the database). */
  firstInput: number
  /** `session.tokens_input` of the tools session. */
  toolsInput: number
  /** Kilo keeps OpenCode's placeholder title; OpenCode's mock generated one. */
  titled: boolean
}

const FAMILIES: Family[] = [
  { name: 'opencode', agent: opencode, cwd: '/home/ana/src/todo-sync', firstInput: 2461, toolsInput: 16698, titled: true },
  { name: 'kilo', agent: kiloCodeCli, cwd: '/home/ana/src/image-resizer', firstInput: 3534, toolsInput: 23260, titled: false },
]

afterAll(() => closeStoreDbs())

describe.each(FAMILIES)('$name real store', (f) => {
  const REAL = join(REPO_ROOT, 'fixtures', 'real', f.name)
  const listed = JSON.parse(readFileSync(join(REAL, 'sessions.json'), 'utf8')) as { sessions: { scenario: string; id: string }[] }
  const idOf = (scenario: string): string => listed.sessions.find((s) => s.scenario === scenario)!.id
  let home: ReadHome
  beforeAll(async () => {
    home = await readHome(f.agent, join(REAL, 'home'))
  })

  it('finds the 5 sessions of sessions.json from the database, without diagnostics', () => {
    expect(home.sessions.map((s) => s.id).sort()).toEqual([...new Set(listed.sessions.map((s) => s.id))].sort())
    expect(new Set(home.refs.map((r) => r.format))).toEqual(new Set([`${f.name}-db`]))
    expect(home.diagnostics).toEqual([])
    for (const s of home.sessions) expect(s.diagnostics).toEqual([])
    for (const s of home.sessions) expect(s.workingDirectory).toBe(f.cwd)
  })

  it('matches the goldens', () => {
    for (const s of home.sessions) expectGolden(`${f.name}/${s.id}`, s)
  })

  it('tools session: prompt as stored, model, paired calls with diffs, reasoning, usage, checkpoints, resume', () => {
    const s = home.byId(idOf('tools'))
    const prompt = '"[tools] List the files, then create NOTES.md and mark its TODO line as done."'
    expect(summarize(s, '/h').firstPrompt).toBe(prompt)
    expect(s.model).toBe('mock-model')
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => [c.name, c.kind, c.status])).toEqual([
      ['bash', 'execute', 'completed'],
      ['write', 'edit', 'completed'],
      ['edit', 'edit', 'completed'],
      ['bash', 'execute', 'completed'],
    ])
    expect(countPairedToolCalls(s)).toEqual({ calls: 4, paired: 4 })
    expect(calls[0]!.arguments).toEqual({ command: 'ls -la && git status --short', description: 'List files and git status' })
    expect(calls[0]!.exitCode).toBe(0)
    expect(calls[1]!.diffs).toEqual([{ path: `${f.cwd}/NOTES.md`, newText: '# Notes\n\nTODO: write tests for the parser\n' }])
    expect(calls[2]!.diffs).toEqual([{ path: `${f.cwd}/NOTES.md`, oldText: 'TODO: write tests for the parser', newText: 'DONE: write tests for the parser' }])
    const first = s.nodes.find((n) => n.role === 'assistant')!
    expect(first.thinking).toBe('The user wants me to look at the project first, then create NOTES.md and change its second line.')
    expect(first.content).toBe('Let me look at the project first.')
    expect(first.finishReason).toBe('tool-calls')
    expect(first.usage).toEqual({ inputTokens: f.firstInput, outputTokens: 82, thinkingTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0 })
    const result = s.nodes[s.nodes.indexOf(first) + 1]!
    expect(result).toMatchObject({ role: 'tool', toolCallId: calls[0]!.id, toolName: 'bash', parentNodeId: first.nodeId })
    expect(result.content).toMatch(/^total 28\n/)
    expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual([prompt, '"[resume] Continue: re-read NOTES.md."'])
    expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(6)
    expect(s.checkpoints.map((c) => [c.kind, c.files])).toEqual([
      ['opencode-snapshot', [`${f.cwd}/NOTES.md`]],
      ['opencode-snapshot', [`${f.cwd}/NOTES.md`]],
    ])
    expect(s.usage?.inputTokens).toBe(f.toolsInput)
    // One thread: every node follows the one before it.
    s.nodes.slice(1).forEach((n, i) => expect(n.parentNodeId).toBe(s.nodes[i]!.nodeId))
    if (f.titled) expect(s.title).toBe('Mock session title')
    else {
      expect(s.title).toBe(prompt)
      expect(s.metadata.defaultTitle).toMatch(/^New session - 2026-11-30T/)
    }
  })

  it('think and qa sessions', () => {
    const think = home.byId(idOf('think'))
    expect(think.nodes.map((n) => n.role)).toEqual(['user', 'assistant'])
    expect(think.nodes[1]).toMatchObject({ content: '17 * 3 + 4 = 55.', thinking: 'Step by step: 17 * 3 = 51, and 51 + 4 = 55.', finishReason: 'stop' })
    expect(think.nodes[1]!.thinkingSignature).toBeUndefined()
    const qa = home.byId(idOf('qa'))
    expect(qa.nodes.map((n) => n.content)).toEqual(['"[qa] What is the capital of France?"', 'The capital of France is Paris. (mock answer)'])
  })

  it('agent session links its sub-agent both ways', () => {
    const parent = home.byId(idOf('agent'))
    const child = home.byId(idOf('sub-agent'))
    expect(parent.childSessionIds).toEqual([child.id])
    const task = parent.nodes.flatMap((n) => n.toolCalls ?? []).find((c) => c.name === 'task')!
    expect(task.subagentSessionId).toBe(child.id)
    expect(task.arguments).toMatchObject({ description: 'Summarize git history', subagent_type: 'general' })
    expect(child).toMatchObject({ parentSessionId: parent.id, parentToolCallId: task.id, agentName: 'general', title: 'Summarize git history (@general subagent)' })
    expect(child.nodes.map((n) => n.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(child.nodes[0]!.content).toBe('[subtask] Look at the git history of this repository and report the newest commits.')
    expect(countPairedToolCalls(child)).toEqual({ calls: 1, paired: 1 })
    expect(summarize(child, '/h').parentSessionId).toBe(parent.id)
  })
})

/** Expected shape of the hand-written sessions (same five variants for both agents). */
const HANDWRITTEN: Record<string, { roles: string; paired?: number; warnings?: number }> = {
  '00-project-session-message-part-rows': { roles: 'user,assistant' },
  '01-same-with-a-bash-tool-part': { roles: 'user,assistant,tool,assistant', paired: 1 },
  '02-session-message-part-rows-no-project-row': { roles: 'user,assistant' },
  '03-session-message-rows-without-parts': { roles: 'user,assistant', warnings: 2 },
  '04-import-of-a-hand-written-info-messages-info-parts-file': { roles: 'user,assistant' },
}

describe.each(FAMILIES)('$name hand-written variants', (f) => {
  const root = join(REPO_ROOT, 'fixtures', 'real', f.name, 'handwritten')
  const folders = readdirSync(root).filter((d) => /^\d\d-/.test(d)).sort()

  it('has the 5 variants', () => {
    expect(folders).toEqual(Object.keys(HANDWRITTEN))
  })

  it.each(folders)('%s reads with the expected messages', async (folder) => {
    const want = HANDWRITTEN[folder]!
    const home = await readHome(f.agent, join(root, folder, 'home'))
    expect(home.diagnostics).toEqual([])
    expect(home.sessions).toHaveLength(1)
    const s = home.sessions[0]!
    expect(s.id).toBe(`ses_0000handwritten${folder.slice(0, 2)}xxxxxxxx`)
    expect(s.title).toBe('Hand-written session')
    expect(s.workingDirectory).toBe(f.cwd)
    expect(s.nodes.map((n) => n.role).join(',')).toBe(want.roles)
    expect(countPairedToolCalls(s).paired).toBe(want.paired ?? 0)
    if (want.warnings) {
      expect(s.nodes.map((n) => n.content)).toEqual(['', ''])
      expect(s.diagnostics.map((d) => [d.severity, d.message])).toEqual([
        ['warning', expect.stringMatching(/^table message, row msg_0000hw0000000000000001: has no parts/)],
        ['warning', expect.stringMatching(/^table message, row msg_0000hw0000000000000003: has no parts/)],
      ])
      expect(s.diagnostics[0]!.path).toMatch(new RegExp(`${f.name}\\.db$`))
      return
    }
    expect(s.diagnostics).toEqual([])
    expect(s.nodes[0]!.content).toBe('HANDWRITTEN-USER: please list the files')
    expect(s.nodes[s.nodes.length - 1]!.content).toBe('HANDWRITTEN-ASSISTANT: there is one file, README.md.')
    if (want.paired) expect(s.nodes[2]).toMatchObject({ role: 'tool', toolCallId: 'call_hand_1', content: 'HANDWRITTEN-TOOL-OUTPUT: README.md' })
    expect(summarize(s, root).messageCount).toBe(want.roles.split(',').filter((r) => r !== 'tool').length)
  })

  it('the import file of variant 04 reads like the session it made', async () => {
    const folder = '04-import-of-a-hand-written-info-messages-info-parts-file'
    const file = join(root, folder, 'import.json')
    const fromFile = await f.agent.read({ agent: f.agent.id, sessionId: 'import', format: `${f.name}-export`, files: [file], size: 0, mtimeMs: 0, home: root }, testContext)
    const fromDb = (await readHome(f.agent, join(root, folder, 'home'))).sessions[0]!
    expect(fromFile.id).toBe(fromDb.id)
    expect(fromFile.diagnostics).toEqual([])
    expect(fromFile.nodes.map((n) => [n.nodeId, n.role, n.content])).toEqual(fromDb.nodes.map((n) => [n.nodeId, n.role, n.content]))
    expect(fromFile.workingDirectory).toBe(f.cwd)
  })
})
