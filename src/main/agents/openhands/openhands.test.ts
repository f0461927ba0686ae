/**
 * OpenHands reader on the home built from OpenHands' source shapes (fixtures/built/openhands).
 * Every count is taken from an independent reading of the raw event files here (JSON.parse of
 * each `events/<n>.json` and `metadata.json`), never from Sepia.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { snapshotTree } from '../../../../tests/helpers/snapshot'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { useEnv } from '../../../../tests/helpers/temp'
import { openhands } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'built', 'openhands', 'home')
// Event times carry no zone and are read as local time: UTC here, so goldens hold on any machine.
useEnv(() => ({ TZ: 'UTC' }))
const SESSIONS = join('.openhands', 'sessions')
const CLI = 'a1b2c3d4e5f60718293a4b5c6d7e8f90'
const SERVED = '0f9e8d7c6b5a49382716a5b4c3d2e1f0'

type Item = Record<string, any>

/** The raw events of one session, in id order. */
function rawEvents(home: string, sid: string): Item[] {
  const dir = join(home, SESSIONS, sid, 'events')
  return readdirSync(dir)
    .filter((n) => /^\d+\.json$/.test(n))
    .map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as Item)
    .sort((a, b) => a.id - b.id)
}

const NOT_TOOLS = new Set(['message', 'system', 'finish', 'reject', 'condensation', 'recall', 'change_agent_state', 'null', 'pause', 'resume', 'stop', 'condensation_request'])

/** What the raw events hold. */
function truth(events: Item[]) {
  const tools = events.filter((e) => e.action !== undefined && !NOT_TOOLS.has(e.action))
  const toolIds = new Set(tools.map((e) => e.id))
  const results = events.filter((e) => e.observation !== undefined && toolIds.has(e.cause))
  const last = [...events].reverse().find((e) => e.llm_metrics)?.llm_metrics
  return {
    prompts: events.filter((e) => e.action === 'message' && e.source === 'user').map((e) => e.args.content),
    agentTexts: events.filter((e) => e.action === 'message' && e.source === 'agent').map((e) => e.args.content),
    calls: tools.length,
    paired: results.length,
    failed: results.filter((e) => e.observation === 'error' || e.success === false || (e.extras?.metadata?.exit_code ?? 0) > 0).length,
    thoughts: tools.filter((e) => e.action === 'think').map((e) => e.args.thought),
    finish: events.filter((e) => e.action === 'finish').map((e) => e.args.final_thought),
    responses: [...new Map(events.filter((e) => e.tool_call_metadata && e.action).map((e) => [e.tool_call_metadata.model_response.id, e.tool_call_metadata.model_response.usage])).values()],
    last,
  }
}

describe('openhands: file store built from the source', () => {
  it('lists every session folder and reads prompts, tool calls paired by cause, exit codes, the edit, think, finish and usage', async () => {
    const before = snapshotTree(HOME)
    const home = await readHomeOf(openhands, HOME)
    expect(home.sessions.map((s) => s.id).sort()).toEqual(readdirSync(join(HOME, SESSIONS)).sort())
    const ev = rawEvents(HOME, CLI)
    const t = truth(ev)
    const s = home.byId(CLI)
    expect(s.diagnostics).toEqual([])
    expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(t.prompts)
    expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
    expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(t.failed)
    expect(s.nodes.map((n) => n.thinking).filter(Boolean)).toEqual(t.thoughts)
    expect(s.nodes.filter((n) => n.metadata?.finish).map((n) => n.content)).toEqual(t.finish)
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    const runs = ev.filter((e) => e.observation === 'run')
    expect(calls.filter((c) => c.kind === 'execute').map((c) => c.exitCode)).toEqual(runs.map((e) => e.extras.metadata.exit_code))
    expect(calls.filter((c) => c.kind === 'execute').map((c) => c.status)).toEqual(runs.map((e) => (e.success ? 'completed' : 'failed')))
    const editEvent = ev.find((e) => e.action === 'edit')!
    const edit = calls.find((c) => c.id === editEvent.tool_call_metadata.tool_call_id)!
    expect(edit.kind).toBe('edit')
    expect(edit.diffs).toEqual([{ path: editEvent.args.path, oldText: editEvent.args.old_str, newText: editEvent.args.new_str }])
    expect(s.workingDirectory).toBe(runs[0]!.extras.metadata.working_dir)
    const acc = t.last.accumulated_token_usage
    expect(s.usage).toEqual({ inputTokens: acc.prompt_tokens - acc.cache_read_tokens, outputTokens: acc.completion_tokens, cacheReadTokens: acc.cache_read_tokens, cost: t.last.accumulated_cost })
    const outputs = s.nodes.map((n) => n.usage?.outputTokens ?? 0).reduce((a, b) => a + b, 0)
    expect(outputs).toBe(t.responses.reduce((a, u) => a + u.completion_tokens, 0))
    expect(s.model).toBe(ev.find((e) => e.tool_call_metadata)!.tool_call_metadata.model_response.model)
    expect(s.createdAt).toBe(Date.parse(`${ev[0]!.timestamp.slice(0, 23)}Z`))
    expect(s.nodes.find((n) => n.role === 'system')!.isMeta).toBe(true)
    expectGolden(`openhands/${CLI}`, s)
    expect(snapshotTree(HOME)).toEqual(before)
  })

  it('zone-less event times are the local time of the machine reading them (Asia/Tokyo: 9 hours before UTC); metadata.json times keep their offset', async () => {
    const ev = rawEvents(HOME, CLI)
    expect(ev[0]!.timestamp).not.toMatch(/([zZ]|[+-]\d\d:?\d\d)$/)
    const before = process.env.TZ
    process.env.TZ = 'Asia/Tokyo' // +09:00 all year
    try {
      const read = await readHomeOf(openhands, HOME)
      const s = read.byId(CLI)
      expect(s.createdAt).toBe(Date.parse(`${ev[0]!.timestamp.slice(0, 23)}+09:00`))
      expect(s.metadata.timeZone).toMatch(/local time of the machine reading it/)
      const meta = JSON.parse(readFileSync(join(HOME, SESSIONS, SERVED, 'metadata.json'), 'utf8')) as Item
      expect(read.byId(SERVED).createdAt).toBe(Date.parse(meta.created_at))
    } finally {
      process.env.TZ = before ?? 'UTC'
    }
  })

  it('metadata.json gives the title, model and times; an agent text and an unpaired error', async () => {
    const ev = rawEvents(HOME, SERVED)
    const t = truth(ev)
    const meta = JSON.parse(readFileSync(join(HOME, SESSIONS, SERVED, 'metadata.json'), 'utf8')) as Item
    const s = (await readHomeOf(openhands, HOME)).byId(SERVED)
    expect(s.diagnostics).toEqual([])
    expect(s.title).toBe(meta.title)
    expect(s.model).toBe(meta.llm_model)
    expect(s.createdAt).toBe(Date.parse(meta.created_at))
    expect(s.lastActivityAt).toBe(Date.parse(meta.last_updated_at))
    expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(t.prompts)
    expect(s.nodes.filter((n) => n.role === 'assistant').map((n) => n.content)).toEqual(t.agentTexts)
    const errors = ev.filter((e) => e.observation === 'error')
    expect(s.nodes.filter((n) => n.event === 'api-error').map((n) => n.content)).toEqual(errors.map((e) => e.content))
    expect(s.usage).toEqual({ inputTokens: t.last.accumulated_token_usage.prompt_tokens, outputTokens: t.last.accumulated_token_usage.completion_tokens, cost: t.last.accumulated_cost })
    expectGolden(`openhands/${SERVED}`, s)
  })

  it('a damaged event file is a warning naming it; the other events load', async () => {
    const home = mkdtempSync(join(tmpdir(), 'openhands-bad-'))
    cpSync(HOME, home, { recursive: true })
    const ev = rawEvents(HOME, CLI)
    const think = ev.find((e) => e.action === 'think')!
    const path = join(home, SESSIONS, CLI, 'events', `${think.id}.json`)
    const text = readFileSync(path, 'utf8')
    writeFileSync(path, text.slice(0, Math.floor(text.length / 2)))
    const s = (await readHomeOf(openhands, home)).byId(CLI)
    const d = s.diagnostics.filter((x) => x.severity !== 'info')
    expect(d.map((x) => [x.severity, x.path])).toEqual([['warning', path]])
    const t = truth(ev.filter((e) => e.id !== think.id))
    expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(t.prompts)
    expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
  })

  it('sepia list --home shows both sessions', async () => {
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const data = JSON.parse(r.out) as { sessions: { agent: string; id: string }[] }
    expect(data.sessions.filter((x) => x.agent === 'openhands').map((x) => x.id).sort()).toEqual(readdirSync(join(HOME, SESSIONS)).sort())
  })
})
