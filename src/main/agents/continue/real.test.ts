/**
 * Continue reader on the store the real Continue CLI (`cn` 1.5.47) wrote offline
 * (fixtures/real/continue, see its README.md). Every count comes from an independent reading of the
 * raw files here (`JSON.parse` of each `<id>.json` and of `sessions.json`; history items by role,
 * `toolCalls` by id, `toolCallStates` by status and `output`, snake_case `usage`), never Sepia.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { continueAgent } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'real', 'continue', 'home')
const DIR = join(HOME, '.continue', 'sessions')

type Rec = Record<string, any>
const files = () => readdirSync(DIR).filter((n) => n.endsWith('.json') && n !== 'sessions.json').sort()
const load = (f: string) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Rec

function truth(s: Rec) {
  const h = s.history as Rec[]
  const role = (r: string) => h.filter((x) => x.message.role === r)
  const states = h.flatMap((x) => x.toolCallStates ?? []) as Rec[]
  return {
    prompts: role('user').map((x) => x.message.content as string),
    texts: role('assistant').map((x) => x.message.content as string),
    calls: role('assistant').flatMap((x) => x.message.toolCalls ?? []).length,
    paired: states.filter((st) => Array.isArray(st.output) && st.output.length > 0).length,
    failed: states.filter((st) => st.status === 'errored').length,
    results: states.map((st) => (st.output as Rec[]).map((o) => o.content).join('\n')),
    output: role('assistant').reduce((a, x) => a + (x.message.usage?.completion_tokens ?? 0), 0),
    input: role('assistant').reduce((a, x) => a + (x.message.usage?.prompt_tokens ?? 0), 0),
    toolItems: role('tool').length,
  }
}

describe('continue: real CLI store (cn 1.5.47)', () => {
  it('every session file is one session: prompts, texts, tool calls paired with their state output, the failed command, usage, folder, index date', async () => {
    const home = await readHomeOf(continueAgent, HOME)
    expect(home.diagnostics).toEqual([])
    expect(home.sessions.map((s) => s.id).sort()).toEqual(files().map((f) => f.replace(/\.json$/, '')))
    const index = load('sessions.json') as Rec[]
    expect(index.map((e) => e.sessionId).sort()).toEqual(files().map((f) => f.replace(/\.json$/, '')))
    for (const f of files()) {
      const raw = load(f)
      const t = truth(raw)
      expect(t.toolItems).toBe(0) // the CLI keeps results only in toolCallStates
      const s = home.byId(raw.sessionId)
      expect(s.diagnostics).toEqual([])
      expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(t.prompts)
      expect(s.nodes.filter((n) => n.role === 'assistant').map((n) => n.content)).toEqual(t.texts)
      expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
      expect(s.nodes.filter((n) => n.role === 'tool').map((n) => n.content)).toEqual(t.results)
      expect(s.nodes.flatMap((n) => n.toolCalls ?? []).filter((c) => c.status === 'failed')).toHaveLength(t.failed)
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(t.failed)
      // The file's own session total (`usage`) counts a fork's own turns only; a session that is
      // not a fork has per-item usage adding up to it.
      expect(s.nodes.reduce((a, n) => a + (n.usage?.outputTokens ?? 0), 0)).toBe(raw.usage.completionTokens)
      expect(s.nodes.reduce((a, n) => a + (n.usage?.inputTokens ?? 0), 0)).toBe(raw.usage.promptTokens)
      if (!t.prompts.some((p) => p.startsWith('[fork]'))) expect([t.input, t.output]).toEqual([raw.usage.promptTokens, raw.usage.completionTokens])
      else expect(t.input).toBeGreaterThan(raw.usage.promptTokens) // the copied items keep their usage in the file
      expect(s.workingDirectory).toBe(raw.workspaceDirectory)
      expect(s.createdAt).toBe(Number(index.find((e) => e.sessionId === raw.sessionId)!.dateCreated))
      // "Untitled Session" is the CLI's default title: Sepia shows the first prompt instead.
      expect(raw.title).toBe('Untitled Session')
      expect(s.title).not.toBe('Untitled Session')
      expectGolden(`continue-real/${s.id}`, s)
    }
  })

  it('the failed command is an errored state whose output is the error; the resumed and the forked turns are read', async () => {
    const home = await readHomeOf(continueAgent, HOME)
    const byPrompt = (p: string) => home.sessions.filter((s) => s.nodes.some((n) => n.role === 'user' && n.content.startsWith(p)))
    const raw = files().map(load)
    const rawFailed = raw.flatMap((s) => (s.history as Rec[]).flatMap((x) => x.toolCallStates ?? [])).find((st: Rec) => st.status === 'errored') as Rec
    expect(rawFailed.toolCall.function.name).toBe('Bash')
    const s = home.sessions.find((x) => x.nodes.some((n) => n.role === 'tool' && n.toolCallId === rawFailed.toolCallId))!
    const result = s.nodes.find((n) => n.role === 'tool' && n.toolCallId === rawFailed.toolCallId)!
    expect(result.isError).toBe(true)
    expect(result.content).toBe(rawFailed.output[0].content)
    // The resumed prompt sits in the first session's file; the fork holds it too, then its own prompt.
    expect(byPrompt('[resume]')).toHaveLength(2)
    const fork = byPrompt('[fork]')
    expect(fork).toHaveLength(1)
    const rawFork = raw.find((x) => x.sessionId === fork[0]!.id)!
    const last = (rawFork.history as Rec[]).filter((x) => x.toolCallStates?.length).at(-1)!
    expect(fork[0]!.nodes.flatMap((n) => n.toolCalls ?? []).slice(-2).map((c) => c.name)).toEqual(last.toolCallStates.map((st: Rec) => st.toolCall.function.name))
    // The fork's copy of the first session is marked replayed, up to its own '[fork]' prompt.
    const own = fork[0]!.nodes.findIndex((n) => n.role === 'user' && n.content.startsWith('[fork]'))
    expect(fork[0]!.nodes.slice(0, own).every((n) => n.metadata?.replayed === true && n.usage === undefined)).toBe(true)
    expect(fork[0]!.nodes.slice(own).some((n) => n.metadata?.replayed)).toBe(false)
    expect(fork[0]!.metadata.replayedNodes).toBe(own)
  })

  it("sepia usage counts a fork once: the copied turns are the parent session's", async () => {
    const r = await runCli('usage', '--by', 'session', '--json', '--home', HOME)
    expect(r.code).toBe(0)
    const rawIn = files().map(load).reduce((a, x) => a + x.usage.promptTokens, 0)
    const rawOut = files().map(load).reduce((a, x) => a + x.usage.completionTokens, 0)
    const rep = JSON.parse(r.out) as { totals: { inputTokens: number; outputTokens: number } }
    expect([rep.totals.inputTokens, rep.totals.outputTokens]).toEqual([rawIn, rawOut])
  })

  it('sepia list --home shows the three Continue sessions', async () => {
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const data = JSON.parse(r.out) as { sessions: { agent: string; id: string }[] }
    expect(data.sessions.filter((x) => x.agent === 'continue').map((x) => x.id).sort()).toEqual(files().map((f) => f.replace(/\.json$/, '')))
  })
})
