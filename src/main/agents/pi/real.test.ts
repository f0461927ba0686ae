/**
 * Pi sessions the real CLI wrote (fixtures/real/pi, pi 0.73.1, see its README). Every count is
 * taken from an independent reading of the raw JSONL here, never from Sepia: entries by type,
 * messages by role, tool calls and results paired by `toolCallId`, the path from the root to the
 * last entry by `parentId`, usage summed from the assistant messages.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { pi } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'real', 'pi', 'home')
const DIR = join(HOME, '.pi', 'agent', 'sessions', '--home-pat-src-todo-cli--')

interface RawEntry {
  type: string
  id: string
  parentId?: string | null
  message?: Record<string, any>
  [k: string]: any
}

function raw(file: string) {
  const entries = readFileSync(join(DIR, file), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as RawEntry)
  const [header, ...rest] = entries
  const byId = new Map(rest.map((e) => [e.id, e]))
  const path = new Set<string>()
  for (let e: RawEntry | undefined = rest.at(-1); e; e = e.parentId ? byId.get(e.parentId) : undefined) path.add(e.id)
  const msgs = rest.filter((e) => e.type === 'message')
  const role = (r: string) => msgs.filter((e) => e.message!.role === r)
  const callIds = role('assistant').flatMap((e) => (e.message!.content as any[]).filter((b) => b.type === 'toolCall').map((b) => b.id as string))
  const resultIds = role('toolResult').map((e) => e.message!.toolCallId as string)
  const usage = role('assistant').reduce((a, e) => ({ input: a.input + e.message!.usage.input, output: a.output + e.message!.usage.output, cost: a.cost + e.message!.usage.cost.total }), { input: 0, output: 0, cost: 0 })
  const ofType = (t: string) => rest.filter((e) => e.type === t)
  // Entries that are no node: extension state, labels, the session name.
  const nodeEntries = rest.filter((e) => !['custom', 'label', 'session_info'].includes(e.type))
  return {
    header,
    id: file.replace(/\.jsonl$/, '').split('_')[1]!,
    path: join(DIR, file),
    prompts: role('user').map((e) => (e.message!.content as any[]).map((b) => b.text).join('\n\n')),
    assistants: role('assistant').length,
    calls: callIds.length,
    paired: callIds.filter((id) => resultIds.includes(id)).length,
    failed: role('toolResult').filter((e) => e.message!.isError).length,
    usage,
    modelChanges: ofType('model_change').map((e) => e.modelId as string),
    compactions: ofType('compaction').length,
    branchSummaries: ofType('branch_summary').length,
    bash: role('bashExecution').length,
    name: ofType('session_info').at(-1)?.name as string | undefined,
    nodeIds: nodeEntries.map((e) => e.id),
    mainThread: nodeEntries.filter((e) => path.has(e.id)).map((e) => e.id),
    offThread: nodeEntries.filter((e) => !path.has(e.id)).map((e) => e.id),
    /** The nearest node entry above each node entry (labels, names and extension state are no nodes). */
    parents: new Map(nodeEntries.map((e) => {
      let p = e.parentId ? byId.get(e.parentId) : undefined
      while (p && ['custom', 'label', 'session_info'].includes(p.type)) p = p.parentId ? byId.get(p.parentId) : undefined
      return [e.id, p?.id]
    })),
    labels: ofType('label').map((e) => [e.targetId as string, e.label as string]),
  }
}

const FILES = readdirSync(DIR).filter((f) => f.endsWith('.jsonl')).sort()

describe('pi real sessions', () => {
  it('sepia list shows both sessions from the fixture home', async () => {
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const listed = JSON.parse(r.out).sessions.filter((s: { agent: string }) => s.agent === 'pi')
    expect(listed.map((s: { id: string }) => s.id).sort()).toEqual(FILES.map((f) => raw(f).id).sort())
  })

  for (const file of FILES) {
    it(`${file}: prompts, assistants, tool pairs, usage, markers and the tree equal the raw JSONL`, async () => {
      const t = raw(file)
      const home = await readHomeOf(pi, HOME)
      const s = home.byId(t.id)
      expect(s.source.files[0]).toBe(t.path)
      expect(s.diagnostics).toEqual([])
      expect(s.workingDirectory).toBe(t.header!.cwd)
      expect(s.createdAt).toBe(Date.parse(t.header!.timestamp))
      expect(s.nodes.map((n) => n.nodeId)).toEqual(t.nodeIds)
      expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual(t.prompts)
      expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(t.assistants)
      expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(t.failed)
      for (const c of s.nodes.flatMap((n) => n.toolCalls ?? [])) expect(['completed', 'failed']).toContain(c.status)
      const sum = s.nodes.reduce((a, n) => ({ input: a.input + (n.usage?.inputTokens ?? 0), output: a.output + (n.usage?.outputTokens ?? 0), cost: a.cost + (n.usage?.cost ?? 0) }), { input: 0, output: 0, cost: 0 })
      expect(sum.input).toBe(t.usage.input)
      expect(sum.output).toBe(t.usage.output)
      expect(sum.cost).toBeCloseTo(t.usage.cost, 9)
      expect(s.nodes.filter((n) => n.event === 'model-change').map((n) => n.metadata?.modelId)).toEqual(t.modelChanges)
      expect(s.nodes.filter((n) => n.event === 'compaction')).toHaveLength(t.compactions)
      expect(s.nodes.filter((n) => n.metadata?.piType === 'branch_summary')).toHaveLength(t.branchSummaries)
      expect(s.nodes.filter((n) => n.event === 'command')).toHaveLength(t.bash)
      if (t.name) expect(s.title).toBe(t.name)
      // The tree: parents as recorded (through entries that are no node), the shown thread is the root→last-entry path, everything else is a kept branch.
      for (const n of s.nodes) expect(n.parentNodeId).toBe(t.parents.get(n.nodeId))
      expect(s.metadata.mainThread).toEqual(t.mainThread)
      expect(s.nodes.filter((n) => n.metadata?.branch === true).map((n) => n.nodeId)).toEqual(t.offThread)
      for (const [target, label] of t.labels) expect(s.nodes.find((n) => n.nodeId === target)?.metadata?.label).toBe(label)
      expectGolden(`pi/${t.id}`, s)
    })
  }

  it('the branched session: the first attempt is a branch, the thread restarts at the branch summary', async () => {
    const t = raw(FILES[0]!)
    expect(t.branchSummaries).toBe(1)
    expect(t.offThread.length).toBeGreaterThan(0)
    const s = (await readHomeOf(pi, HOME)).byId(t.id)
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    const edit = calls.find((c) => c.name === 'edit')!
    expect(edit).toMatchObject({ kind: 'edit', status: 'completed', diffs: [{ path: 'NOTES.md', oldText: 'TODO: write tests', newText: 'DONE: tests written' }] })
    expect(calls.find((c) => c.status === 'failed')).toMatchObject({ name: 'bash', exitCode: 1 })
  })
})
