/** Legacy Cline task folders: the real CLI 2.18.0 home, API-history-only tasks, damaged files, forks. */
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { expectGolden } from '../../../../tests/helpers/golden'
import { countPairedToolCalls, finishSession, newSession } from '../../ir/build'
import { salvageJsonArray } from '../../util/json'
import { NodeIds } from './common'
import { cline, kiloCode, pearai, rooCode } from './index'
import { apiHistoryToNodes } from './legacy-api'
import { copyFixture, fingerprint, readHome, removeTempDirs, REPO, tempDir, writeJson } from '../../../../tests/builders/cline/test-helpers'

afterAll(removeTempDirs)

const HOME = join(REPO, 'fixtures/real/cline-legacy/home')
const TOOLS = '1796022270019'
const HAND = join(REPO, 'fixtures/real/cline-legacy/handwritten')

/** Read an api_conversation_history.json alone, as a task without ui_messages.json is read. */
function readApi(path: string) {
  const s = newSession('cline', 'api', 'cline-legacy-task', [path])
  const parsed = salvageJsonArray(readFileSync(path, 'utf8'))
  apiHistoryToNodes(parsed.items, s, path, new NodeIds())
  return { session: finishSession(s), parsed }
}

describe('legacy tasks (fixtures/real/cline-legacy)', () => {
  it('lists the 3 tasks from ui_messages.json and matches the goldens', async () => {
    const h = await readHome(cline, HOME)
    expect(h.diagnostics).toEqual([])
    expect(h.refs.map((r) => [r.sessionId, r.format])).toEqual([
      ['1796022253554', 'cline-legacy-task'],
      [TOOLS, 'cline-legacy-task'],
      ['1796022286548', 'cline-legacy-task'],
    ])
    expect(h.refs.every((r) => r.files[0]!.endsWith('ui_messages.json'))).toBe(true)
    for (const s of h.sessions) expectGolden(`cline-legacy/${s.id}`, s)
  })

  it('reads the tools task: commands paired with their output, file tools with their results', async () => {
    const s = (await readHome(cline, HOME)).byId(TOOLS)
    expect(s.workingDirectory).toBe('/home/ana/src/weather-cli')
    expect(s.title).toBe('[tools] List the files, then create NOTES.md and mark its TODO line as done.')
    expect(s.model).toBe('mock-model')
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => c.name)).toEqual(['execute_command', 'write_to_file', 'replace_in_file', 'execute_command'])
    expect(countPairedToolCalls(s)).toEqual({ calls: 4, paired: 4 })
    expect(calls[0]!.arguments).toEqual({ command: 'ls -la && git status --short' })
    expect(calls[0]!.exitCode).toBe(0)
    const out = s.nodes.find((n) => n.toolCallId === calls[0]!.id)!
    expect(out.role).toBe('tool')
    expect(out.content).toContain('Makefile')
    expect(calls[2]!.diffs).toEqual([{ path: 'NOTES.md', oldText: 'TODO: write tests for the parser', newText: 'DONE: write tests for the parser' }])
    expect(s.nodes.find((n) => n.toolCallId === calls[3]!.id)!.content).toBe('# Notes\n\nDONE: write tests for the parser\n')
    const first = s.nodes.find((n) => n.role === 'assistant')!
    expect(first.thinking).toBe('The user wants me to look at the project first, then create NOTES.md and change its second line.')
    expect(first.usage).toEqual({ inputTokens: 12318, outputTokens: 66, cacheWriteTokens: 0, cacheReadTokens: 0, cost: 0 })
    const users = s.nodes.filter((n) => n.role === 'user').map((n) => n.content)
    expect(users).toEqual(['[tools] List the files, then create NOTES.md and mark its TODO line as done.', '[resume] Continue: re-read NOTES.md.'])
    expect(s.usage).toEqual({ inputTokens: 83604, outputTokens: 268, cacheWriteTokens: 0, cacheReadTokens: 0, cost: 0 })
    expect(s.nodes.at(-1)!.content).toBe('NOTES.md still has the DONE line; nothing else to do. (resumed turn)')
  })

  it('keeps say reasoning as thinking (think task)', async () => {
    const s = (await readHome(cline, HOME)).byId('1796022286548')
    const a = s.nodes.filter((n) => n.role === 'assistant')
    expect(a).toHaveLength(1)
    expect(a[0]!.thinking).toBe('Step by step: 17 * 3 = 51, and 51 + 4 = 55.')
    expect(a[0]!.content).toBe('17 * 3 + 4 = 55.')
  })

  it('never changes the source home', async () => {
    const before = fingerprint(HOME)
    await readHome(cline, HOME)
    expect(fingerprint(HOME)).toEqual(before)
  })
})

describe('api_conversation_history.json without ui_messages.json', () => {
  it('parses XML tool calls and pairs them with their [tool for ...] Result: text', () => {
    const { session: s } = readApi(join(HOME, '.cline/data/tasks', TOOLS, 'api_conversation_history.json'))
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => c.name)).toEqual(['execute_command', 'write_to_file', 'replace_in_file', 'execute_command'])
    expect(countPairedToolCalls(s)).toEqual({ calls: 4, paired: 4 })
    expect(calls[0]!.arguments).toEqual({ command: 'ls -la && git status --short', requires_approval: 'false' })
    expect(calls[0]!.exitCode).toBe(0)
    expect(calls[1]!.diffs).toEqual([{ path: 'NOTES.md', newText: '# Notes\n\nTODO: write tests for the parser' }])
    const visibleUsers = s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)
    expect(visibleUsers).toEqual(['[tools] List the files, then create NOTES.md and mark its TODO line as done.', '[resume] Continue: re-read NOTES.md.'])
    const meta = s.nodes.filter((n) => n.isMeta)
    expect(meta.length).toBeGreaterThan(0)
    expect(meta.every((n) => !n.content.includes('[tools] List the files'))).toBe(true)
    expect(s.nodes.some((n) => !n.isMeta && n.content.includes('<environment_details>'))).toBe(false)
    // attempt_completion is the final answer, not a pending call
    expect(s.nodes.at(-1)!.content).toBe('NOTES.md still has the DONE line; nothing else to do. (resumed turn)')
    expect(s.nodes.find((n) => n.role === 'assistant')!.thinking).toMatch(/look at the project first/)
  })

  it('pairs a result split over two text blocks (handwritten 01)', () => {
    const path = join(HAND, '01-same-with-an-execute-command-turn-and-its-result/home/.cline/data/tasks/1796020956535/api_conversation_history.json')
    const { session: s } = readApi(path)
    expect(countPairedToolCalls(s)).toEqual({ calls: 1, paired: 1 })
    expect(s.nodes.map((n) => [n.role, n.content])).toEqual([
      ['user', 'HANDWRITTEN-USER: please list the files'],
      ['assistant', ''],
      ['tool', 'Command executed.\nOutput:\nHANDWRITTEN-TOOL-OUTPUT: README.md'],
      ['assistant', 'HANDWRITTEN-ASSISTANT: there is one file, README.md.'],
    ])
  })

  it('reads the hand-written variants, one without ui_messages.json', async () => {
    const cases: [string, string][] = [
      ['00-taskhistory-json-entry-api-conversation-history-json-ui-mess', '1796020886104'],
      ['01-same-with-an-execute-command-turn-and-its-result', '1796020956535'],
      ['02-taskhistory-json-entry-api-conversation-history-json-no-ui-m', '1796021026487'],
      ['03-api-conversation-history-json-ui-messages-json-no-taskhistor', '1796021887211'],
    ]
    for (const [folder, id] of cases) {
      const h = await readHome(cline, join(HAND, folder, 'home'))
      expect(h.sessions.map((s) => s.id)).toEqual([id])
      const s = h.sessions[0]!
      expect(s.nodes.filter((n) => !n.isMeta).map((n) => [n.role, n.content])).toEqual([
        ['user', 'HANDWRITTEN-USER: please list the files'],
        ['assistant', 'HANDWRITTEN-ASSISTANT: there is one file, README.md.'],
      ])
      expectGolden(`cline-legacy/handwritten-${folder.slice(0, 2)}`, s)
    }
    const only = (await readHome(cline, join(HAND, cases[2]![0], 'home'))).sessions[0]!
    expect(only.source.files[0]).toMatch(/api_conversation_history\.json$/)
    expect(only.workingDirectory).toBe('/home/ana/src/weather-cli')
    // no taskHistory entry: still listed, with an info diagnostic
    const orphan = (await readHome(cline, join(HAND, cases[3]![0], 'home'))).sessions[0]!
    expect(orphan.diagnostics.map((d) => d.severity)).toEqual(['info'])
  })

  it('salvages nothing from the public broken task and says so', () => {
    const path = join(REPO, 'fixtures/public/cline/luoyuctl__agenttrace__cline-broken-task__api_conversation_history.json')
    const { parsed, session } = readApi(path)
    expect(parsed.complete).toBe(false)
    expect(parsed.items).toEqual([])
    expect(session.nodes).toEqual([])
  })
})

describe('damaged task files (fixtures/cases/cline/08-truncated-task)', () => {
  it('keeps the valid prefix, names the file, and leaves other tasks alone', async () => {
    const home = join(tempDir(), 'home')
    copyFixture('fixtures/cases/cline/08-truncated-task/.cline', join(home, '.cline'))
    copyFixture(`fixtures/real/cline-legacy/home/.cline/data/tasks/${TOOLS}`, join(home, '.cline/data/tasks', TOOLS))
    const h = await readHome(cline, home)
    expect(h.sessions.map((s) => s.id).sort()).toEqual(['1772000000000', TOOLS])
    const cut = h.byId('1772000000000')
    expect(cut.nodes.map((n) => [n.role, n.content])).toEqual([['user', 'add a health check'], ['assistant', 'I will add /health.']])
    expect(cut.title).toBe('add a health check')
    expect(cut.workingDirectory).toBe('/home/ana/src/api')
    const errors = cut.diagnostics.filter((d) => d.severity === 'error')
    expect(errors).toHaveLength(1)
    expect(errors[0]!.path).toMatch(/ui_messages\.json$/)
    expect(errors[0]!.line).toBe(1)
    expect(errors[0]!.message).toMatch(/ui_messages\.json/)
    const other = h.byId(TOOLS)
    expect(other.nodes.filter((n) => n.toolCalls).length).toBeGreaterThan(0)
    expect(other.diagnostics.map((d) => d.severity)).toEqual(['info']) // copied without its index entry
  })

  it('a damaged or unreadable API history beside a good ui_messages.json is named, not ignored (issue 16)', async () => {
    const home = join(tempDir(), 'home')
    const task = join(home, '.cline/data/tasks', TOOLS)
    copyFixture(`fixtures/real/cline-legacy/home/.cline/data/tasks/${TOOLS}`, task)
    const api = join(task, 'api_conversation_history.json')
    const raw = readFileSync(api, 'utf8')
    // Cut in the middle of the file: the line of the cut, counted from the raw text.
    const cutAt = Math.floor(raw.length / 2)
    writeFileSync(api, raw.slice(0, cutAt))
    const cut = (await readHome(cline, home)).byId(TOOLS)
    expect(cut.nodes.filter((n) => n.toolCalls).length).toBeGreaterThan(0) // still read from ui_messages.json
    const named = cut.diagnostics.filter((d) => d.path === api)
    expect(named).toHaveLength(1)
    expect(named[0]!.severity).toBe('warning')
    expect(named[0]!.line).toBeGreaterThanOrEqual(1)
    expect(named[0]!.line).toBeLessThanOrEqual(raw.slice(0, cutAt).split('\n').length)
    // A FIFO in its place: named, and the read does not block.
    rmSync(api)
    execFileSync('mkfifo', [api])
    const fifo = (await readHome(cline, home)).byId(TOOLS)
    expect(fifo.diagnostics.filter((d) => d.path === api).map((d) => d.message).join('\n')).toMatch(/not a regular file/)
  })

  it('the truncated API history of case 08 yields a diagnostic-worthy empty prefix', () => {
    const path = join(REPO, 'fixtures/cases/cline/08-truncated-task/.cline/data/tasks/1772000000000/api_conversation_history.json')
    const { parsed } = readApi(path)
    expect(parsed).toMatchObject({ items: [], complete: false, errorOffset: 1 })
  })
})

describe('forks share the legacy layout under their own globalStorage', () => {
  it('Roo Code, Kilo Code and PearAI each read only their own extension folder', async () => {
    const home = join(tempDir(), 'home')
    const gs = join(home, '.config/Code/User/globalStorage')
    copyFixture(`fixtures/real/cline-legacy/home/.cline/data/tasks/${TOOLS}`, join(gs, 'rooveterinaryinc.roo-cline/tasks', TOOLS))
    copyFixture('fixtures/real/cline-legacy/home/.cline/data/tasks/1796022253554', join(gs, 'kilocode.kilo-code/tasks/1796022253554'))
    copyFixture('fixtures/real/cline-legacy/home/.cline/data/tasks/1796022286548', join(gs, 'saoudrizwan.claude-dev/tasks/1796022286548'))
    copyFixture('fixtures/real/cline-legacy/home/.cline/data/state/taskHistory.json', join(gs, 'saoudrizwan.claude-dev/state/taskHistory.json'))
    const pear = join(home, '.config/PearAI/User/globalStorage/pearai.pearai-roo-cline/tasks/1767225700000')
    copyFixture('fixtures/real/cline-legacy/handwritten/00-taskhistory-json-entry-api-conversation-history-json-ui-mess/home/.cline/data/tasks/1796020886104', pear)
    copyFixture('fixtures/public/roo-code/vshulcz__deja-vu__history_item.json', join(pear, 'history_item.json'))
    writeJson(join(gs, 'unrelated.extension/tasks/1/ui_messages.json'), [])

    const roo = await readHome(rooCode, home)
    expect(roo.sessions.map((s) => [s.id, s.agent])).toEqual([[TOOLS, 'roo-code']])
    expect(roo.sessions[0]!.metadata.extensionId).toBe('rooveterinaryinc.roo-cline')
    const kilo = await readHome(kiloCode, home)
    expect(kilo.sessions.map((s) => [s.id, s.agent])).toEqual([['1796022253554', 'kilo-code']])
    const cl = await readHome(cline, home)
    expect(cl.sessions.map((s) => s.id)).toEqual(['1796022286548'])
    expect(cl.sessions[0]!.workingDirectory).toBe('/home/ana/src/weather-cli')
    const pearSessions = (await readHome(pearai, home)).sessions
    expect(pearSessions.map((s) => s.id)).toEqual(['1767225700000'])
    // Roo Code's per-task history_item.json gives the title and workspace
    expect(pearSessions[0]!.title).toBe('Fix the flaky test')
    expect(pearSessions[0]!.workingDirectory).toBe('/home/example/work/demo')
    expect(rooCode.capabilities).toEqual({ canWrite: false, hasCheckpoints: false, hasThinkingSignatures: true })
    expect(cline.capabilities).toEqual({ canWrite: true, hasCheckpoints: true, hasThinkingSignatures: true, providerFamily: 'any' })
  })
})

describe('ui_messages.json shapes beyond the fixtures (ExtensionMessage.ts ClineAsk/ClineSay)', () => {
  it('maps followups, MCP calls, errors, checkpoints, images and unknown records', async () => {
    const home = join(tempDir(), 'home')
    const task = join(home, '.cline/data/tasks/1800000000000')
    writeJson(join(home, '.cline/data/state/taskHistory.json'), [{ id: '1800000000000', ts: 1800000009000, task: 'check the weather server', tokensIn: 5, tokensOut: 6, totalCost: 0.25, modelId: 'claude-x' }])
    writeJson(join(task, 'ui_messages.json'), [
      { ts: 1800000000000, type: 'say', say: 'task', text: 'check the weather server', images: ['data:image/png;base64,iVBORw0KGgo='] },
      { ts: 1800000000100, type: 'say', say: 'api_req_started', text: JSON.stringify({ request: '<task>x</task>', tokensIn: 10, tokensOut: 2, cacheReads: 3, cost: 0.01 }) },
      { ts: 1800000000200, type: 'ask', ask: 'followup', text: JSON.stringify({ question: 'Which city?', options: ['Paris', 'Oslo'] }), lastCheckpointHash: 'abc123' },
      { ts: 1800000000300, type: 'say', say: 'user_feedback', text: 'Oslo' },
      { ts: 1800000000400, type: 'say', say: 'api_req_started', text: JSON.stringify({ request: '[ask_followup_question] Result:\n<answer>Oslo</answer>' }) },
      { ts: 1800000000500, type: 'ask', ask: 'use_mcp_server', text: JSON.stringify({ serverName: 'weather', type: 'use_mcp_tool', toolName: 'forecast', arguments: '{"city":"Oslo"}' }) },
      { ts: 1800000000600, type: 'say', say: 'mcp_server_response', text: 'Snow, -3 C' },
      { ts: 1800000000700, type: 'say', say: 'error', text: 'Cline tried to use write_to_file without value for required parameter' },
      { ts: 1800000000800, type: 'say', say: 'shell_integration_warning', text: 'Shell integration unavailable' },
      { ts: 1800000000900, type: 'say', say: 'checkpoint_created', lastCheckpointHash: 'def456' },
      { ts: 1800000001000, type: 'ask', ask: 'resume_task' },
    ])
    const s = (await readHome(cline, home)).byId('1800000000000')
    expect(s.nodes.map((n) => [n.role, n.event ?? null, n.content])).toEqual([
      ['user', null, 'check the weather server'],
      ['assistant', null, 'Which city?'],
      ['user', null, 'Oslo'],
      ['assistant', null, ''],
      ['tool', null, 'Snow, -3 C'],
      ['system', null, 'Cline tried to use write_to_file without value for required parameter'],
      ['system', 'unknown-event', 'Shell integration unavailable'],
    ])
    expect(s.nodes[0]!.blocks).toEqual([{ type: 'text', text: 'check the weather server' }, { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }])
    expect(s.nodes[1]!.usage).toEqual({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 3, cost: 0.01 })
    expect(s.nodes[1]!.metadata).toEqual({ ui: 'followup', options: ['Paris', 'Oslo'] })
    const mcp = s.nodes[3]!.toolCalls![0]!
    expect(mcp).toMatchObject({ name: 'use_mcp_tool', kind: 'other', status: 'completed', arguments: { toolName: 'forecast', arguments: { city: 'Oslo' } } })
    expect(s.checkpoints).toEqual([
      { ref: 'abc123', kind: 'shadow-git', createdAt: 1800000000200 },
      { ref: 'def456', kind: 'shadow-git', createdAt: 1800000000900 },
    ])
    expect(s.usage).toEqual({ inputTokens: 5, outputTokens: 6, cost: 0.25 })
    expect(s.model).toBe('claude-x')
    expect(s.lastActivityAt).toBe(1800000009000)
  })
})
