/**
 * Continue reader on the home built from Continue's source shapes (fixtures/built/continue, see
 * its README.md). Every count comes from an independent reading of the raw files here
 * (`JSON.parse` of each session file and of `sessions.json`; history items counted by role,
 * `toolCalls` and `toolCallStates` by id), never Sepia against itself.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { continueAgent } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'built', 'continue', 'home')
const DIR = join(HOME, '.continue', 'sessions')

type Rec = Record<string, any>
const files = () => readdirSync(DIR).filter((n) => n.endsWith('.json') && n !== 'sessions.json')
const load = (dir: string, f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Rec
const text = (c: unknown): string => (typeof c === 'string' ? c : (c as Rec[]).filter((p) => p.type === 'text').map((p) => p.text).join('\n\n'))

function truth(s: Rec) {
  const h = s.history as Rec[]
  const calls = h.filter((x) => x.message.role === 'assistant').flatMap((x) => x.message.toolCalls ?? []) as Rec[]
  const states = h.flatMap((x) => x.toolCallStates ?? []) as Rec[]
  const toolItems = new Set(h.filter((x) => x.message.role === 'tool').map((x) => x.message.toolCallId as string))
  const withResult = states.filter((st) => toolItems.has(st.toolCallId) || ((st.status === 'done' || st.status === 'errored') && st.output))
  return {
    prompts: h.filter((x) => x.message.role === 'user').map((x) => text(x.message.content)),
    assistants: h.filter((x) => x.message.role === 'assistant').length,
    calls: calls.length,
    paired: withResult.length,
    failed: states.filter((st) => st.status === 'errored').length,
    thinking: h.filter((x) => x.message.role === 'thinking').length + h.filter((x) => x.reasoning?.text).length,
    output: h.reduce((a, x) => a + (x.message.usage?.completionTokens ?? 0), 0),
  }
}

describe('continue: built home', () => {
  it('every session file is one session: prompts, tool calls paired by id, failures, thinking, usage, folder, index date', async () => {
    const home = await readHomeOf(continueAgent, HOME)
    expect(home.diagnostics).toEqual([])
    expect(home.sessions.map((s) => s.id).sort()).toEqual(files().map((f) => f.replace(/\.json$/, '')).sort())
    const index = load(DIR, 'sessions.json') as Rec[]
    for (const f of files()) {
      const raw = load(DIR, f)
      const t = truth(raw)
      const s = home.byId(raw.sessionId)
      expect(s.diagnostics).toEqual([])
      expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(t.prompts)
      expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(t.assistants)
      expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
      expect(s.nodes.flatMap((n) => n.toolCalls ?? []).filter((c) => c.status === 'failed')).toHaveLength(t.failed)
      expect(s.nodes.filter((n) => n.thinking)).toHaveLength(t.thinking)
      expect(s.nodes.reduce((a, n) => a + (n.usage?.outputTokens ?? 0), 0)).toBe(t.output)
      expect(s.workingDirectory).toBe(raw.workspaceDirectory.replace(/^file:\/\//, ''))
      expect(s.createdAt).toBe(Number(index.find((e) => e.sessionId === raw.sessionId)!.dateCreated))
      if (raw.title !== 'New Session') expect(s.title).toBe(raw.title)
      expectGolden(`continue/${s.id}`, s)
    }
  })

  it('a cancelled call has no result and is marked interrupted; an edit result kept only in its state becomes a result node', async () => {
    const s = (await readHomeOf(continueAgent, HOME)).sessions.find((x) => x.title === 'Fix the failing add test')!
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.find((c) => c.id === 'tc4')).toMatchObject({ status: 'pending', metadata: { interrupted: true } })
    expect(s.nodes.find((n) => n.role === 'tool' && n.toolCallId === 'tc3')!.content).toBe('Edited src/add.js')
    expect(s.nodes.find((n) => n.role === 'tool' && n.toolCallId === 'tc2')!.isError).toBe(true)
  })

  it('damaged files are diagnostics naming the file; the rest loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'continue-bad-'))
    cpSync(HOME, home, { recursive: true })
    const dir = join(home, '.continue', 'sessions')
    const [a, b] = files()
    const pa = join(dir, a!)
    const pb = join(dir, b!)
    writeFileSync(pa, readFileSync(pa, 'utf8').slice(0, 120))
    const rb = load(dir, b!)
    writeFileSync(pb, JSON.stringify({ ...rb, history: [7, ...rb.history] }))
    writeFileSync(join(dir, 'sessions.json'), '[{"sessionId":')
    const read = await readHomeOf(continueAgent, home)
    expect(read.sessions).toHaveLength(2)
    expect(read.diagnostics.map((d) => [d.severity, d.path])).toEqual([['warning', join(dir, 'sessions.json')]])
    const ida = a!.replace(/\.json$/, '')
    const idb = b!.replace(/\.json$/, '')
    expect(read.byId(ida).diagnostics.map((d) => [d.severity, d.path])).toEqual([['error', pa]])
    expect(read.byId(idb).diagnostics.map((d) => [d.severity, d.path])).toEqual([['warning', pb]])
    expect(read.byId(idb).nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(truth(rb).prompts)
  })

  it('sepia list --home shows the Continue sessions', async () => {
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const data = JSON.parse(r.out) as { sessions: { agent: string; id: string }[] }
    expect(data.sessions.filter((x) => x.agent === 'continue').map((x) => x.id).sort()).toEqual(files().map((f) => f.replace(/\.json$/, '')).sort())
  })
})
