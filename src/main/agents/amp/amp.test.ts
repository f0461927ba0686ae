/**
 * Amp threads built in the store's shapes (fixtures/built/amp, see its README: Amp needs a vendor
 * login for every model call, so no real store exists here). Every count is taken from an
 * independent reading of the raw JSON, never from Sepia: messages by role, prompts, tool_use ids
 * paired with tool_result `toolUseID`s, failed runs, usage summed from the assistant messages.
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { amp } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'built', 'amp', 'home')
const DIR = join(HOME, '.local', 'share', 'amp', 'threads')
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()

function raw(file: string) {
  const t = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Record<string, any>
  const msgs = t.messages as Record<string, any>[]
  const blocks = (role: string, type: string) => msgs.filter((m) => m.role === role).flatMap((m) => (m.content as any[]).filter((b) => b.type === type))
  const callIds = blocks('assistant', 'tool_use').map((b) => b.id as string)
  const results = blocks('user', 'tool_result')
  const asst = msgs.filter((m) => m.role === 'assistant')
  return {
    t,
    id: file.replace(/\.json$/, ''),
    cwd: (t.env.initial.trees[0].uri as string).replace('file://', ''),
    prompts: msgs.filter((m) => m.role === 'user').map((m) => (m.content as any[]).filter((b) => b.type === 'text').map((b) => b.text).join('\n\n')).filter((x) => x),
    texts: asst.map((m) => (m.content as any[]).filter((b) => b.type === 'text').map((b) => b.text).join('\n\n')),
    calls: callIds.length,
    paired: callIds.filter((id) => results.some((r) => r.toolUseID === id)).length,
    failed: results.filter((r) => ['error', 'cancelled', 'rejected-by-user'].includes(r.run.status)).length,
    input: asst.reduce((a, m) => a + m.usage.inputTokens, 0),
    output: asst.reduce((a, m) => a + m.usage.outputTokens, 0),
    lastAt: Math.max(...msgs.map((m) => m.meta.sentAt as number)),
  }
}

describe('amp built threads', () => {
  it('sepia list shows both threads from the fixture home', async () => {
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const listed = JSON.parse(r.out).sessions.filter((s: { agent: string }) => s.agent === 'amp')
    expect(listed.map((s: { id: string }) => s.id).sort()).toEqual(FILES.map((f) => raw(f).id).sort())
  })

  for (const file of FILES) {
    it(`${file}: title, cwd, prompts, assistant text, tool pairs, usage and times equal the raw JSON`, async () => {
      const r = raw(file)
      const s = (await readHomeOf(amp, HOME)).byId(r.id)
      expect(s.diagnostics).toEqual([])
      if (r.t.title) expect(s.title).toBe(r.t.title)
      expect(s.workingDirectory).toBe(r.cwd)
      expect(s.createdAt).toBe(r.t.created)
      expect(s.lastActivityAt).toBe(r.lastAt)
      expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual(r.prompts)
      expect(s.nodes.filter((n) => n.role === 'assistant').map((n) => n.content)).toEqual(r.texts)
      expect(countPairedToolCalls(s)).toEqual({ calls: r.calls, paired: r.paired })
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(r.failed)
      const sum = s.nodes.reduce((a, n) => ({ i: a.i + (n.usage?.inputTokens ?? 0), o: a.o + (n.usage?.outputTokens ?? 0) }), { i: 0, o: 0 })
      expect(sum).toEqual({ i: r.input, o: r.output })
      expectGolden(`amp/${r.id}`, s)
    })
  }

  it('the edit thread: the edit diff, exit codes, thinking; the second: summary and cancelled turn', async () => {
    const home = await readHomeOf(amp, HOME)
    const s = home.byId('T-019b9d03-62e3-772f-9780-3e637f90eaec')
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.find((c) => c.name === 'edit_file')).toMatchObject({ kind: 'edit', status: 'completed', diffs: [{ oldText: 'TODO: write tests', newText: 'DONE: tests written' }] })
    expect(calls.filter((c) => c.name === 'Bash').map((c) => [c.status, c.exitCode])).toEqual([['completed', 0], ['failed', 2]])
    expect(s.nodes.filter((n) => n.thinking)).toHaveLength(1)
    const t = home.byId('T-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d')
    expect(t.nodes.filter((n) => n.event === 'compaction').map((n) => n.content)).toEqual(['Earlier: NOTES.md was marked done.'])
    expect(t.nodes.filter((n) => n.event === 'interrupted')).toHaveLength(1)
  })

  it('a thread cut short, and a message of an unknown role, are diagnostics naming file and line', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-amp-'))
    const dir = join(home, '.local', 'share', 'amp', 'threads')
    mkdirSync(dir, { recursive: true })
    const text = readFileSync(join(DIR, FILES[0]!), 'utf8')
    writeFileSync(join(dir, 'T-cut.json'), text.slice(0, 400))
    const odd = JSON.parse(text)
    odd.id = 'T-odd'
    odd.messages[2].role = 'robot'
    const oddText = JSON.stringify(odd, null, 2)
    writeFileSync(join(dir, 'T-odd.json'), oddText)
    const h = await readHomeOf(amp, home)
    const cut = h.byId('T-cut')
    expect(cut.diagnostics).toHaveLength(1)
    expect(cut.diagnostics[0]).toMatchObject({ path: join(dir, 'T-cut.json'), severity: 'error' })
    expect(cut.diagnostics[0]!.line).toBe(text.slice(0, 400).split('\n').length)
    const bad = h.byId('T-odd')
    const third = oddText.split('"messageId"').slice(0, 3).join('"messageId"').split('\n').length
    expect(bad.diagnostics.map((d) => [d.path, d.line])).toEqual([[join(dir, 'T-odd.json'), third]])
  })
})
