/** Cline SDK store: the real CLI 3.0.65 home, the hand-written variants, damaged inputs, read-only. */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { expectGolden } from '../../../../tests/helpers/golden'
import { countPairedToolCalls } from '../../ir/build'
import { cline } from './index'
import { copyFixture, fingerprint, readHome, removeTempDirs, REPO, tempDir, writeJson } from '../../../../tests/builders/cline/test-helpers'

afterAll(removeTempDirs)

const HOME = join(REPO, 'fixtures/real/cline/home')
const TOOLS = '1796022183774_v75nv'
const AGENT = '1796022193411_yw3k7'
const SUB = '1796022193411_yw3k7__agent_1796022194075_qt5odd'

describe('Cline SDK sessions (fixtures/real/cline)', () => {
  it('lists 4 top-level sessions and the sub-agent as a child of the agent session', async () => {
    const h = await readHome(cline, HOME)
    expect(h.diagnostics).toEqual([])
    const top = h.refs.filter((r) => !r.parentSessionId).map((r) => r.sessionId).sort()
    expect(top).toEqual(['1796022179495_agv8g', TOOLS, '1796022188670_1nyn0', AGENT])
    const sub = h.refs.find((r) => r.sessionId === SUB)!
    expect(sub.parentSessionId).toBe(AGENT)
    expect(sub.format).toBe('cline-sdk-subagent')
    expect(h.refs).toHaveLength(5)

    const parent = h.byId(AGENT)
    const child = h.byId(SUB)
    expect(parent.childSessionIds).toEqual([SUB])
    expect(child.parentSessionId).toBe(AGENT)
    expect(child.agentName).toBe('agent_1796022194075_qt5odd')
    const spawn = parent.nodes.flatMap((n) => n.toolCalls ?? []).find((c) => c.name === 'spawn_agent')!
    expect(spawn.subagentSessionId).toBe(SUB)
    expect(child.parentToolCallId).toBe(spawn.id)
    expect(child.title).toBe('[subtask] Look at the git history of this repository and report the newest commits.')
    // spawn_agent's JSON result shows its text; the rest stays in metadata.
    const spawnResult = parent.nodes.find((n) => n.toolCallId === spawn.id)!
    expect(spawnResult.content).toBe('Sub-agent report: the repository has a short history; the newest commit is shown above.')
    expect(spawnResult.metadata?.result).toMatchObject({ iterations: 2, finishReason: 'completed' })
    for (const s of h.sessions) expectGolden(`cline/${s.id}`, s)
  })

  it('reads the tools session: unwrapped prompt, paired calls, thinking, usage, checkpoints', async () => {
    const s = (await readHome(cline, HOME)).byId(TOOLS)
    expect(s.source.format).toBe('cline-sdk')
    expect(s.title).toBe('[tools] List the files, then create NOTES.md and mark its TODO line as done.')
    expect(s.nodes[0]!.role).toBe('user')
    expect(s.nodes[0]!.content).toBe('[tools] List the files, then create NOTES.md and mark its TODO line as done.')
    expect(s.nodes[0]!.metadata?.rawText).toBe(
      '<user_input mode="act">[tools] List the files, then create NOTES.md and mark its TODO line as done.</user_input>',
    )
    expect(s.model).toBe('mock-model')
    expect(s.workingDirectory).toBe('/home/ana/src/invoice-service')
    expect(s.status).toBe('completed')
    expect(s.git).toEqual({ branch: 'main' })
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => c.name)).toEqual(['run_commands', 'editor', 'editor', 'run_commands'])
    expect(calls.map((c) => c.kind)).toEqual(['execute', 'edit', 'edit', 'execute'])
    expect(countPairedToolCalls(s)).toEqual({ calls: 4, paired: 4 })
    expect(calls.every((c) => c.status === 'completed')).toBe(true)
    expect(calls[2]!.diffs).toEqual([
      { path: '/home/ana/src/invoice-service/NOTES.md', oldText: 'TODO: write tests for the parser', newText: 'DONE: write tests for the parser' },
    ])
    const firstAssistant = s.nodes.find((n) => n.role === 'assistant')!
    expect(firstAssistant.thinking).toBe('The user wants me to look at the project first, then create NOTES.md and change its second line.')
    expect(firstAssistant.usage).toMatchObject({ inputTokens: 1114, outputTokens: 73 })
    const ls = s.nodes.find((n) => n.toolCallId === calls[0]!.id)!
    expect(ls.content).toContain('Makefile')
    // editor results are JSON strings {query, result, success}: shown as their result
    expect(s.nodes.find((n) => n.toolCallId === calls[1]!.id)!.content).toBe(
      'File created successfully at: /home/ana/src/invoice-service/NOTES.md',
    )
    expect(s.checkpoints).toEqual([
      { ref: '4a8248dd2aa6fea51dd294af347e6c12a0402036', kind: 'commit', createdAt: 1796022184149, runCount: 1 },
      { ref: 'e95b85770d55bcdf2956a609040317216101fb20', kind: 'stash', createdAt: 1796022222199, runCount: 2 },
    ])
    expect(s.usage).toEqual({ inputTokens: 8984, outputTokens: 289, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0 })
    expect(s.createdAt).toBe(Date.parse('2026-11-30T07:03:03.781Z'))
    expect(s.diagnostics).toEqual([])
  })

  it('keeps thinking in the think session', async () => {
    const s = (await readHome(cline, HOME)).byId('1796022188670_1nyn0')
    const a = s.nodes.find((n) => n.role === 'assistant')!
    expect(a.thinking).toBeTruthy()
    expect(a.content).not.toBe('')
  })

  it('never changes the source home (no new -wal/-shm/-journal files)', async () => {
    const before = fingerprint(HOME)
    await readHome(cline, HOME)
    const after = fingerprint(HOME)
    expect(after).toEqual(before)
    expect(Object.keys(after).filter((p) => /-(wal|shm|journal)$/.test(p))).toEqual([])
  })
})

describe('Cline SDK hand-written variants (fixtures/real/cline/handwritten)', () => {
  const dir = (name: string) => join(REPO, 'fixtures/real/cline/handwritten', name, 'home')

  it('reads every variant; a manifest-less session with a sessions.db row is listed as cline-sdk', async () => {
    const cases: [string, string, number][] = [
      ['00-manifest-id-json-id-messages-json-sessions-db-row', '1796000000000_hand0', 2],
      ['01-same-with-a-tool-use-tool-result-pair', '1796000000000_hand1', 4],
      ['02-manifest-messages-no-sessions-db-row', '1796000000000_hand2', 2],
      ['03-sessions-db-row-messages-no-manifest', '1796000000000_hand3', 2],
      ['04-messages-json-only', '1796000000000_hand4', 2],
      ['05-sessions-db-row-only-messages-path-names-a-missing-file', '1796000000000_hand5', 0],
      ['06-minimal-json-messages-version-messages-role-content-minimal-', '1796000000000_hand6', 2],
    ]
    for (const [folder, id, nodes] of cases) {
      const home = dir(folder)
      const before = fingerprint(home)
      const h = await readHome(cline, home)
      expect(h.sessions.map((s) => s.id), folder).toEqual([id])
      const s = h.sessions[0]!
      expect(s.source.format).toBe('cline-sdk')
      expect(s.nodes, folder).toHaveLength(nodes)
      expect(fingerprint(home)).toEqual(before)
      expectGolden(`cline/handwritten-${folder.slice(0, 2)}`, s)
    }
  })

  it('documents the odd ones with diagnostics', async () => {
    const h3 = (await readHome(cline, dir('03-sessions-db-row-messages-no-manifest'))).sessions[0]!
    expect(h3.title).toBe('Hand-written session')
    expect(h3.workingDirectory).toBe('/home/ana/src/invoice-service')
    expect(h3.nodes[0]!.content).toBe('HANDWRITTEN-USER: please list the files')
    expect(h3.source.files.some((f) => f.endsWith('sessions.db'))).toBe(true)

    // messages.json alone: the CLI does not list it; Sepia does, with an info diagnostic.
    const h4 = (await readHome(cline, dir('04-messages-json-only'))).sessions[0]!
    expect(h4.diagnostics.map((d) => d.severity)).toEqual(['info'])
    expect(h4.diagnostics[0]!.message).toMatch(/does not list it/)

    // row only, transcript missing: listed (as the CLI does), no nodes, a warning.
    const h5 = (await readHome(cline, dir('05-sessions-db-row-only-messages-path-names-a-missing-file'))).sessions[0]!
    expect(h5.title).toBe('Hand-written session')
    expect(h5.diagnostics.map((d) => d.severity)).toEqual(['warning'])

    const h1 = (await readHome(cline, dir('01-same-with-a-tool-use-tool-result-pair'))).sessions[0]!
    expect(countPairedToolCalls(h1)).toEqual({ calls: 1, paired: 1 })
    expect(h1.nodes.find((n) => n.role === 'tool')!.content).toBe('HANDWRITTEN-TOOL-OUTPUT: README.md')
  })
})

describe('Cline SDK edge cases', () => {
  function sessionsHome(): string {
    return join(tempDir(), 'home')
  }
  const sdir = (home: string, id: string) => join(home, '.cline/data/sessions', id)

  it('reads the public deja-vu sample (thinking block with "text")', async () => {
    const home = sessionsHome()
    copyFixture('fixtures/public/cline/vshulcz__deja-vu__session_synthetic_01.json', join(sdir(home, 'session_synthetic_01'), 'session_synthetic_01.json'))
    copyFixture('fixtures/public/cline/vshulcz__deja-vu__session_synthetic_01.messages.json', join(sdir(home, 'session_synthetic_01'), 'session_synthetic_01.messages.json'))
    const s = (await readHome(cline, home)).byId('session_synthetic_01')
    expect(s.title).toBe('Synthetic parser example')
    expect(s.workingDirectory).toBe('/home/example/work/demo')
    expect(s.nodes.map((n) => [n.role, n.content])).toEqual([['user', 'Say hello'], ['assistant', 'Hello!']])
    expect(s.nodes[1]!.thinking).toBe('hidden')
    expect(s.model).toBe('synthetic-model')
  })

  it('marks model changes, joins per-item results, flags failures, keeps signatures and notes compaction', async () => {
    const home = sessionsHome()
    const id = '1800000000000_edge1'
    writeJson(join(sdir(home, id), `${id}.json`), { version: 1, session_id: id, started_at: '2027-01-15T08:00:00.000Z', cwd: '/p', model: 'a', prompt: 'go' })
    writeJson(join(sdir(home, id), `${id}.compaction.json`), { version: 1, messages: [{ role: 'user', content: 'summary' }] })
    writeJson(join(sdir(home, id), `${id}.messages.json`), {
      version: 1,
      sessionId: id,
      messages: [
        { id: 'u1', role: 'user', content: 'go', ts: 1 },
        { id: 'a1', role: 'assistant', ts: 2, modelInfo: { id: 'model-a', provider: 'p' }, content: [{ type: 'thinking', thinking: 'hm', signature: 'SIG' }, { type: 'tool_use', id: 'c1', name: 'read_files', input: { files: ['/p/a', '/p/b'] } }] },
        { id: 'u2', role: 'user', ts: 3, content: [{ type: 'tool_result', tool_use_id: 'c1', name: 'read_files', content: [{ query: '/p/a', result: 'A', success: true }, { query: '/p/b', result: 'no such file', success: false }] }] },
        { id: 'a2', role: 'assistant', ts: 4, modelInfo: { id: 'model-b', provider: 'p' }, content: [{ type: 'redacted_thinking', data: 'opaque' }, { type: 'text', text: 'done' }] },
      ],
    })
    const s = (await readHome(cline, home)).byId(id)
    // The lead transcript starts from the manifest model (seed 000 "Model rows"): a → model-a, then model-a → model-b.
    expect(s.nodes.filter((n) => n.event === 'model-change').map((n) => n.content)).toEqual(['Model: a → model-a', 'Model: model-a → model-b'])
    const change = s.nodes.filter((n) => n.event === 'model-change')[1]!
    expect(s.nodes.indexOf(change)).toBe(s.nodes.findIndex((n) => n.nodeId === 'a2') - 1)
    const a1 = s.nodes.find((n) => n.nodeId === 'a1')!
    expect(a1.thinkingSignature).toBe('SIG')
    expect(a1.toolCalls![0]!.locations).toEqual([{ path: '/p/a' }, { path: '/p/b' }])
    expect(a1.toolCalls![0]!.status).toBe('failed')
    const result = s.nodes.find((n) => n.role === 'tool')!
    expect(result.isError).toBe(true)
    expect(result.content).toBe('> /p/a\nA\n\n> /p/b\nno such file')
    const a2 = s.nodes.find((n) => n.nodeId === 'a2')!
    expect(a2.blocks?.find((b) => b.type === 'unknown')).toMatchObject({ originalType: 'redacted_thinking' })
    expect(s.metadata.compactionFile).toMatch(/edge1\.compaction\.json$/)
    expect(s.nodes.some((n) => n.content === 'summary')).toBe(false)
    expect(s.model).toBe('model-a')
  })

  it('keeps the messages before a cut in a truncated messages file', async () => {
    const home = sessionsHome()
    const id = '1800000000000_cut01'
    const full = JSON.stringify({ version: 1, sessionId: id, messages: [{ id: 'u1', role: 'user', content: 'first', ts: 1 }, { id: 'a1', role: 'assistant', content: 'reply', ts: 2 }, { id: 'u2', role: 'user', content: 'third', ts: 3 }] }, null, 1)
    writeJson(join(sdir(home, id), `${id}.json`), { session_id: id, started_at: '2027-01-15T08:00:00.000Z' })
    writeFileSync(join(sdir(home, id), `${id}.messages.json`), full.slice(0, full.indexOf('third') - 10))
    const s = (await readHome(cline, home)).byId(id)
    expect(s.nodes.map((n) => n.content)).toEqual(['first', 'reply'])
    expect(s.diagnostics).toHaveLength(1)
    expect(s.diagnostics[0]!.path).toMatch(/cut01\.messages\.json$/)
    expect(s.diagnostics[0]!.line).toBeGreaterThan(1)
  })

  it('a corrupt sessions.db is a diagnostic; the sessions in folders still load', async () => {
    const home = join(tempDir(), 'home')
    copyFixture('fixtures/real/cline/home/.cline/data/sessions', join(home, '.cline/data/sessions'))
    writeJson(join(home, '.cline/data/db/placeholder.json'), {})
    writeFileSync(join(home, '.cline/data/db/sessions.db'), 'this is not a database')
    const h = await readHome(cline, home)
    expect(h.diagnostics).toHaveLength(1)
    expect(h.diagnostics[0]!.path).toMatch(/sessions\.db$/)
    expect(h.sessions.map((s) => s.id).sort()).toEqual(['1796022179495_agv8g', TOOLS, '1796022188670_1nyn0', AGENT, SUB].sort())
    // Without the row, the sub-agent's id and parent come from its messages file.
    expect(h.byId(SUB).parentSessionId).toBe(AGENT)
    expect(h.byId(AGENT).childSessionIds).toEqual([SUB])
    expect(existsSync(join(home, '.cline/data/db/sessions.db-wal'))).toBe(false)
  })
})

describe('Cline SDK team tasks and recorded paths', () => {
  it('lists a __teamtask__ session once, as a child, with its transcript from the parent folder', async () => {
    const home = join(tempDir(), 'home')
    const sessions = join(home, '.cline/data/sessions')
    const parent = '1800000000000_lead1'
    const team = `${parent}__teamtask__t1__abc12`
    writeJson(join(sessions, parent, `${parent}.json`), { session_id: parent, started_at: '2027-01-15T08:00:00.000Z', prompt: 'lead' })
    writeJson(join(sessions, parent, `${parent}.messages.json`), {
      sessionId: parent,
      messages: [
        { id: 'u', role: 'user', content: 'lead', ts: 1 },
        { id: 'a', role: 'assistant', ts: 2, content: [{ type: 'tool_use', id: 'spawn1', name: 'spawn_agent', input: { task: 'other text' } }] },
      ],
    })
    writeJson(join(sessions, team, `${team}.json`), {
      session_id: team,
      started_at: '2027-01-15T08:00:01.000Z',
      messages_path: `C:\\Users\\ana\\.cline\\data\\sessions\\${parent}\\t1__abc12.messages.json`,
    })
    writeJson(join(sessions, parent, 't1__abc12.messages.json'), { agent: 'teammate', sessionId: team, messages: [{ role: 'user', content: 'team work', ts: 3 }] })
    const h = await readHome(cline, home)
    expect(h.refs.map((r) => [r.sessionId, r.format, r.parentSessionId ?? null])).toEqual([
      [parent, 'cline-sdk', null],
      [team, 'cline-sdk-subagent', parent],
    ])
    expect(h.byId(team).nodes.map((n) => n.content)).toEqual(['team work'])
    expect(h.byId(parent).childSessionIds).toEqual([team])
    // no text match: linked by order
    expect(h.byId(team).parentToolCallId).toBe('spawn1')
  })
})
