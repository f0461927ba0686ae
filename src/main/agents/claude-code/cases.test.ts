/**
 * The messy real-world shapes in fixtures/cases/claude-code/01..07 (each folder is a home).
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { REPO_ROOT } from '../../../../tests/helpers/golden'
import { readHome } from '../../../../tests/builders/claude-code/testing'

const CASES = join(REPO_ROOT, 'fixtures', 'cases', 'claude-code')
const id = (n: string): string => `00000000-0000-0000-0000-000000000${n}`

describe('claude-code cases', () => {
  it('01 unknown record types: counted as metadata, the messages around them show', async () => {
    const s = (await readHome(join(CASES, '01-unknown-record-types'))).byId(id('101'))
    expect(s.nodes.map((n) => [n.role, n.content])).toEqual([
      ['user', 'count the csv rows'],
      ['assistant', 'There are 42 rows.'],
    ])
    expect(s.nodes[1]!.parentNodeId).toBe(s.nodes[0]!.nodeId)
    expect(s.metadata.recordTypes).toEqual({ user: 1, progress: 1, assistant: 1 })
    expect(s.diagnostics).toEqual([])
    expect(s.model).toBe('claude-sonnet-4-5')
  })

  it('02 metadata lines set the title (custom title wins) and are never messages', async () => {
    const s = (await readHome(join(CASES, '02-metadata-lines'))).byId(id('102'))
    expect(s.title).toBe('Module rename (done)')
    expect(s.nodes).toHaveLength(2)
    expect(s.nodes.map((n) => n.role)).toEqual(['user', 'assistant'])
    expect(s.metadata).toMatchObject({
      aiTitle: 'Rename the module',
      customTitle: 'Module rename (done)',
      lastPrompt: 'rename the module',
      version: '2.1.300',
      recordTypes: { user: 1, assistant: 1, 'ai-title': 1, 'custom-title': 1, 'last-prompt': 1 },
    })
    expect(s.git).toEqual({ branch: 'main' })
  })

  it('03 streamed duplicates: one message, blocks in order, usage is the last snapshot', async () => {
    const s = (await readHome(join(CASES, '03-streamed-duplicates'))).byId(id('103'))
    const assistants = s.nodes.filter((n) => n.role === 'assistant')
    expect(assistants).toHaveLength(1)
    const a = assistants[0]!
    expect(a.nodeId).toBe(id('016'))
    expect(a.thinking).toBe('Use ls.')
    expect(a.thinkingSignature).toBe('sig-abc')
    expect(a.content).toBe('Listing them now.')
    expect(a.toolCalls).toEqual([{ id: 'toolu_03', name: 'Bash', kind: 'execute', arguments: { command: 'ls' }, status: 'completed' }])
    expect(a.usage).toEqual({ inputTokens: 900, outputTokens: 412, cacheReadTokens: 4000 })
    expect(a.requestId).toBe('req_1')
    expect(a.model).toBe('claude-opus-4-5')
    const tool = s.nodes.find((n) => n.role === 'tool')!
    expect(tool).toMatchObject({ toolCallId: 'toolu_03', content: 'a.csv\nb.csv', toolName: 'Bash', parentNodeId: id('016') })
    expect(tool.isError).toBeUndefined()
    expect(tool.metadata?.toolUseResult).toEqual({ stdout: 'a.csv\nb.csv', stderr: '', interrupted: false })
  })

  it('04 broken lines: every readable record loads, one diagnostic per bad line', async () => {
    const s = (await readHome(join(CASES, '04-broken-lines'))).byId(id('104'))
    expect(s.nodes.map((n) => n.nodeId)).toEqual([id('01f'), id('021'), id('023'), id('024')])
    const glued = s.nodes[1]!
    expect(glued.toolCalls?.[0]).toMatchObject({ id: 'toolu_04', name: 'Read', kind: 'read', status: 'completed' })
    expect(glued.toolCalls?.[0]?.locations).toEqual([{ path: '/home/ana/src/ledger/test/emoji.test.ts' }])
    expect(s.nodes[2]!.content).toBe("expect(face).toBe('\uFFFD')")
    expect(s.nodes[3]!.content).toBe('The test expects a full emoji; fixed.')
    expect(s.diagnostics.map((d) => [d.line, d.severity])).toEqual([
      [2, 'error'],
      [3, 'warning'],
      [4, 'error'],
      [5, 'warning'],
    ])
    for (const d of s.diagnostics) {
      expect(d.path).toMatch(/000000000104\.jsonl$/)
      expect(d.sessionId).toBe(id('104'))
      expect(d.agent).toBe('claude-code')
    }
    expect(s.diagnostics[2]!.message).toContain('NUL')
    expect(s.metadata.recordTypes).toEqual({ user: 2, 'pr-link': 1, assistant: 2 })
  })

  it('05 windows project: cwd keeps its backslashes, never decoded from the folder name', async () => {
    const home = await readHome(join(CASES, '05-windows-project'))
    expect(home.sessions.map((s) => s.id).sort()).toEqual([id('150'), id('151')])
    for (const s of home.sessions) expect(s.workingDirectory).toBe('C:\\Users\\ana\\src\\deja-vu')
    expect(home.byId(id('150')).title).toBe('windows task 0')
  })

  it('06 compact boundary: one thread with a compaction node and the summary, no broken chain', async () => {
    const s = (await readHome(join(CASES, '06-compact-boundary'))).byId(id('106'))
    expect(s.diagnostics).toEqual([])
    const roots = s.nodes.filter((n) => n.parentNodeId === undefined)
    expect(roots.map((n) => n.nodeId)).toEqual([id('033')])
    const c = s.nodes.find((n) => n.event === 'compaction')!
    expect(c).toMatchObject({ nodeId: id('035'), role: 'system', content: 'Conversation compacted', parentNodeId: id('034') })
    expect(c.metadata?.compactMetadata).toEqual({ trigger: 'auto', preTokens: 160000 })
    const summary = s.nodes.find((n) => n.parentNodeId === id('035'))!
    expect(summary.content).toBe('This session is being continued from a previous conversation. Summary: step one done.')
    expect(summary.isMeta).toBe(true)
    expect(summary.metadata).toMatchObject({ isCompactSummary: true, isVisibleInTranscriptOnly: true })
    // One thread: every node's parent is the node before it.
    s.nodes.slice(1).forEach((n, i) => expect(n.parentNodeId).toBe(s.nodes[i]!.nodeId))
    expect(summarize(s, '/h').firstPrompt).toBe('long refactor')
  })

  it('07 sub-agents: linked through agentId; workflows/journal.jsonl is not a session', async () => {
    const home = await readHome(join(CASES, '07-subagents'))
    expect(home.sessions.map((s) => s.id).sort()).toEqual([id('107'), 'a7f3c2'])
    expect(home.refs.some((r) => r.files.some((f) => f.includes('journal')))).toBe(false)
    const parent = home.byId(id('107'))
    const child = home.byId('a7f3c2')
    expect(parent.childSessionIds).toEqual(['a7f3c2'])
    const task = parent.nodes.flatMap((n) => n.toolCalls ?? []).find((c) => c.name === 'Task')!
    expect(task).toMatchObject({ id: 'toolu_07', subagentSessionId: 'a7f3c2', durationMs: 29000, status: 'completed' })
    expect(child).toMatchObject({
      agent: 'claude-code',
      parentSessionId: id('107'),
      parentToolCallId: 'toolu_07',
      agentName: 'a7f3c2',
      source: { format: 'claude-code-subagent' },
    })
    expect(child.nodes.map((n) => n.content)).toEqual(['Review the staged diff', 'Diff looks fine.'])
    expect(child.diagnostics).toEqual([])
    expect(countPairedToolCalls(parent)).toEqual({ calls: 1, paired: 1 })
  })
})
