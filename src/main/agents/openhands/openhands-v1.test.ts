/**
 * OpenHands reader on the openhands-cli ("V1", software-agent-sdk) home built from the SDK's source
 * shapes (fixtures/built/openhands-v1). Every count is taken from an independent reading of the
 * raw files here (JSON.parse of each `events/event-*.json` and `base_state.json`), never from Sepia.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { useEnv } from '../../../../tests/helpers/temp'
import { FORMAT_V1, openhands } from '.'
import { openhandsCensus } from './census'

const HOME = join(REPO_ROOT, 'fixtures', 'built', 'openhands-v1', 'home')
// Event times carry no zone and are read as local time: UTC here, so goldens hold on any machine.
useEnv(() => ({ TZ: 'UTC' }))
const CONVS = join(HOME, '.openhands', 'conversations')
const IDS = readdirSync(CONVS).sort()
const FIX = '6a1f0c9e2b7d4e58a3c1f0e9d8b7a6c5'
const ASK = 'c0ffee0012344abc9def0123456789ab'

type Item = Record<string, any>

function raw(id: string) {
  const dir = join(CONVS, id, 'events')
  const files = readdirSync(dir).filter((n) => /^event-\d{5,}-.+\.json$/.test(n)).sort()
  const events = files.map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as Item)
  const state = JSON.parse(readFileSync(join(CONVS, id, 'base_state.json'), 'utf8')) as Item
  const text = (c: Item[] | undefined) => (c ?? []).filter((b) => b.type === 'text').map((b) => b.text as string).join('\n\n')
  const actions = events.filter((e) => e.kind === 'ActionEvent')
  const answers = events.filter((e) => ['ObservationEvent', 'UserRejectObservation', 'AgentErrorEvent'].includes(e.kind))
  const metrics = Object.values(state.stats.usage_to_metrics) as Item[]
  const acc = (k: string) => metrics.reduce((a, m) => a + m.accumulated_token_usage[k], 0)
  return {
    files: files.map((n) => join(dir, n)),
    events,
    state,
    prompts: events.filter((e) => e.kind === 'MessageEvent' && e.source === 'user').map((e) => text(e.llm_message.content)),
    agentTexts: events.filter((e) => (e.kind === 'MessageEvent' && e.source === 'agent') || e.kind === 'ActionEvent').map((e) => (e.kind === 'MessageEvent' ? text(e.llm_message.content) : e.tool_name === 'finish' ? e.action.message : text(e.thought))),
    calls: actions.length,
    paired: actions.filter((a) => answers.some((o) => o.tool_call_id === a.tool_call_id)).length,
    failed: answers.filter((o) => o.kind !== 'ObservationEvent' || o.observation.is_error || (o.observation.exit_code ?? 0) !== 0).length,
    compactions: events.filter((e) => e.kind === 'Condensation' || e.kind === 'CondensationSummaryEvent').length,
    usage: { prompt: acc('prompt_tokens'), completion: acc('completion_tokens'), cacheRead: acc('cache_read_tokens'), cacheWrite: acc('cache_write_tokens'), reasoning: acc('reasoning_tokens'), cost: metrics.reduce((a, m) => a + m.accumulated_cost, 0) },
    perResponse: (metrics[0]!.token_usages as Item[]).map((u) => [u.response_id, u.prompt_tokens - u.cache_read_tokens - u.cache_write_tokens, u.completion_tokens]),
  }
}

describe('openhands V1 (openhands-cli) built conversations', () => {
  it('sepia list shows both conversations from the fixture home', async () => {
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const listed = JSON.parse(r.out).sessions.filter((s: { agent: string }) => s.agent === 'openhands')
    expect(listed.map((s: { id: string }) => s.id).sort()).toEqual(IDS)
  })

  for (const id of IDS) {
    it(`${id}: files, cwd, model, prompts, agent text, tool pairs, failures, compactions and usage equal the raw files`, async () => {
      const t = raw(id)
      const s = (await readHomeOf(openhands, HOME)).byId(id)
      expect(s.source.format).toBe(FORMAT_V1)
      expect(s.source.files).toEqual([...t.files, join(CONVS, id, 'base_state.json')])
      expect(s.diagnostics).toEqual([])
      expect(s.workingDirectory).toBe(t.state.workspace.working_dir)
      expect(s.model).toBe(t.state.agent.llm.model)
      expect(s.metadata.conversationId).toBe(t.state.id)
      expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual(t.prompts)
      expect(s.nodes.filter((n) => n.role === 'assistant').map((n) => n.content)).toEqual(t.agentTexts)
      expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(t.failed)
      expect(s.nodes.filter((n) => n.event === 'compaction')).toHaveLength(t.compactions)
      const u = t.usage
      expect(s.usage).toEqual({ inputTokens: u.prompt - u.cacheRead - u.cacheWrite, outputTokens: u.completion, cacheReadTokens: u.cacheRead, cacheWriteTokens: u.cacheWrite, ...(u.reasoning ? { thinkingTokens: u.reasoning } : {}), cost: u.cost })
      const perNode = s.nodes.filter((n) => n.usage).map((n) => [n.requestId, n.usage!.inputTokens, n.usage!.outputTokens])
      expect(perNode).toEqual(t.perResponse)
      expect(s.createdAt).toBe(Date.parse(t.events[0]!.timestamp + 'Z'))
      expectGolden(`openhands/${id}`, s)
    })
  }

  it('the fix conversation: exit codes, the str_replace diff, think, thinking signature and finish', async () => {
    const s = (await readHomeOf(openhands, HOME)).byId(FIX)
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => [c.name, c.kind, c.status, c.exitCode])).toEqual([
      ['terminal', 'execute', 'failed', 1],
      ['file_editor', 'read', 'completed', undefined],
      ['think', 'think', 'completed', undefined],
      ['file_editor', 'edit', 'completed', undefined],
      ['terminal', 'execute', 'completed', 0],
      ['finish', 'other', 'completed', undefined],
    ])
    expect(calls[3]!.diffs).toEqual([{ path: '/home/pat/src/todo-cli/todo.py', oldText: '    return a - b', newText: '    return a + b' }])
    expect(s.nodes.find((n) => n.toolCalls?.[0]?.name === 'think')?.thinking).toBe('add() subtracts; the test expects a sum.')
    expect(s.nodes.find((n) => n.thinkingSignature)?.thinking).toBe('One-character fix.')
    expect(s.nodes.filter((n) => n.role === 'system' && n.isMeta)).toHaveLength(1)
  })

  it('the second conversation: rejection, an unknown tool answered by AgentErrorEvent, condensation, interrupt, conversation error', async () => {
    const s = (await readHomeOf(openhands, HOME)).byId(ASK)
    const results = s.nodes.filter((n) => n.role === 'tool')
    expect(results.map((n) => [n.toolName, n.isError, n.content.slice(0, 20)])).toEqual([['terminal', true, 'User rejected the ac'], ['grep_files', true, "Tool 'grep_files' no"]])
    expect(s.nodes.filter((n) => n.event).map((n) => n.event)).toEqual(['compaction', 'interrupted', 'api-error'])
    expect(s.nodes.find((n) => n.event === 'api-error')?.content).toBe('LLMBadRequestError: litellm.BadRequestError: the request was cut off')
    expect(s.nodes.find((n) => n.role === 'assistant' && n.thinking)?.thinking).toBe('Answer from the README.')
  })

  it('census keys every event file by kind, base_state.json by nothing', () => {
    const t = raw(FIX)
    expect(t.events.flatMap((e) => openhandsCensus.keysOfJson!(e))).toEqual(t.events.map((e) => e.kind))
    expect(t.events.every((e) => openhandsCensus.known.has(e.kind))).toBe(true)
    expect(openhandsCensus.keysOfJson!(t.state)).toEqual([])
  })

  it('a cut event file, an unknown kind and a branch (parent_id) are read with diagnostics naming the file', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-oh1-'))
    cpSync(HOME, home, { recursive: true })
    const dir = join(home, '.openhands', 'conversations', FIX, 'events')
    const names = readdirSync(dir).sort()
    const cut = join(dir, names[5]!)
    writeFileSync(cut, readFileSync(cut, 'utf8').slice(0, 50))
    const odd = join(dir, names[7]!)
    writeFileSync(odd, JSON.stringify({ ...JSON.parse(readFileSync(odd, 'utf8')), kind: 'BrandNewEvent' }))
    // A new event branching off the user's prompt (event 2), written last: the shown thread is the path to it.
    const prompt = JSON.parse(readFileSync(join(dir, names[2]!), 'utf8'))
    const branch = { id: '6a1f0c9e-0000-4000-8000-00000000ffff', timestamp: '2026-11-30T09:05:00.000000', source: 'user', parent_id: prompt.id, llm_message: { role: 'user', content: [{ type: 'text', text: 'Actually, only explain the failure.' }] }, kind: 'MessageEvent' }
    writeFileSync(join(dir, `event-00099-${branch.id}.json`), JSON.stringify(branch))
    const s = (await readHomeOf(openhands, home)).byId(FIX)
    // The cut action's and the renamed action's observations then answer no action: each a warning naming its file.
    const orphan = (i: number) => [join(dir, names[i]!), 1, 'warning']
    expect(s.diagnostics.map((d) => [d.path, d.line, d.severity])).toEqual([[cut, 1, 'warning'], orphan(6), [odd, 1, 'info'], orphan(8)])
    expect(s.nodes.filter((n) => n.event === 'unknown-event')).toHaveLength(1)
    const main = s.metadata.mainThread as string[]
    expect(main).toEqual([s.nodes[0]!.nodeId, prompt.id, branch.id])
    expect(s.nodes.filter((n) => n.metadata?.branch).length).toBe(s.nodes.length - 3)
  })
})
