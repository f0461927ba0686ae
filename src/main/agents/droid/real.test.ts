/**
 * Droid sessions the real CLI wrote (fixtures/real/droid, droid 0.225.2, see its README). Every
 * count is taken from an independent reading of the raw JSONL and settings here, never from Sepia:
 * messages by role, prompts (user text outside the `context-` message), tool_use ids paired with
 * tool_result ids, failed results, usage from the settings file.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { droid } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'real', 'droid', 'home')
const DIR = join(HOME, '.factory', 'sessions', '-home-pat-src-notes-cli')

function raw(file: string) {
  const events = readFileSync(join(DIR, file), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, any>)
  const start = events.find((e) => e.type === 'session_start')!
  const msgs = events.filter((e) => e.type === 'message')
  const blocks = (role: string, type: string) => msgs.filter((e) => e.message.role === role).flatMap((e) => (e.message.content as any[]).filter((b) => b.type === type))
  const callIds = blocks('assistant', 'tool_use').map((b) => b.id as string)
  const results = blocks('user', 'tool_result')
  const settings = JSON.parse(readFileSync(join(DIR, file.replace(/\.jsonl$/, '.settings.json')), 'utf8'))
  return {
    id: file.replace(/\.jsonl$/, ''),
    start,
    firstAt: Date.parse(msgs[0]!.timestamp),
    lastAt: Date.parse(msgs.at(-1)!.timestamp),
    prompts: msgs.filter((e) => e.message.role === 'user' && !String(e.id).startsWith('context-')).map((e) => (e.message.content as any[]).filter((b) => b.type === 'text').map((b) => b.text).join('\n\n')).filter((t) => t),
    assistants: msgs.filter((e) => e.message.role === 'assistant').length,
    texts: msgs.filter((e) => e.message.role === 'assistant').map((e) => (e.message.content as any[]).filter((b) => b.type === 'text').map((b) => b.text).join('\n\n')),
    calls: callIds.length,
    paired: callIds.filter((id) => results.some((r) => r.tool_use_id === id)).length,
    failed: results.filter((r) => r.is_error === true).length,
    thinking: blocks('assistant', 'thinking').length,
    settings,
  }
}

const FILES = readdirSync(DIR).filter((f) => f.endsWith('.jsonl')).sort()

describe('droid real sessions', () => {
  it('sepia list shows both sessions from the fixture home', async () => {
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const listed = JSON.parse(r.out).sessions.filter((s: { agent: string }) => s.agent === 'droid')
    expect(listed.map((s: { id: string }) => s.id).sort()).toEqual(FILES.map((f) => raw(f).id).sort())
  })

  for (const file of FILES) {
    it(`${file}: title, cwd, prompts, assistant text, tool pairs, usage and times equal the raw JSONL`, async () => {
      const t = raw(file)
      const s = (await readHomeOf(droid, HOME)).byId(t.id)
      expect(s.source.files).toEqual([join(DIR, file), join(DIR, file.replace(/\.jsonl$/, '.settings.json'))])
      expect(s.diagnostics).toEqual([])
      expect(s.title).toBe(t.start.title)
      expect(s.workingDirectory).toBe(t.start.cwd)
      expect(s.createdAt).toBe(t.firstAt)
      expect(s.lastActivityAt).toBe(t.lastAt)
      expect(s.model).toBe(t.settings.model)
      expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual(t.prompts)
      expect(s.nodes.filter((n) => n.role === 'assistant').map((n) => n.content)).toEqual(t.texts)
      expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(t.assistants)
      expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(t.failed)
      expect(s.nodes.filter((n) => n.thinking)).toHaveLength(t.thinking)
      expect(s.usage).toEqual({ inputTokens: t.settings.tokenUsage.inputTokens, outputTokens: t.settings.tokenUsage.outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 })
      expectGolden(`droid/${t.id}`, s)
    })
  }

  it('the edit session: the Edit diff, and the failed command with its exit code', async () => {
    const s = (await readHomeOf(droid, HOME)).byId('46e406a8-0608-4af3-9f6f-9ea0aef3a16a')
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.find((c) => c.name === 'Edit')).toMatchObject({ kind: 'edit', status: 'completed', diffs: [{ oldText: 'TODO: write tests', newText: 'DONE: tests written' }] })
    expect(calls.find((c) => c.name === 'Execute' && c.status === 'failed')).toMatchObject({ exitCode: 2 })
    expect(calls.find((c) => c.name === 'Execute' && c.status === 'completed')).toMatchObject({ exitCode: 0 })
    expect(s.nodes.find((n) => n.nodeId.startsWith('context-'))?.isMeta).toBe(true)
  })

  it('bad lines and a bad settings file are diagnostics naming file and line; the rest loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-droid-'))
    const dir = join(home, '.factory', 'sessions', '-p')
    mkdirSync(dir, { recursive: true })
    const good = readFileSync(join(DIR, '3139d38d-fc5c-4403-b7cf-58fa5806018b.jsonl'), 'utf8').split('\n')
    writeFileSync(join(dir, 'x1.jsonl'), [good[0], '{not json', JSON.stringify({ type: 'mystery' }), ...good.slice(1)].join('\n'))
    writeFileSync(join(dir, 'x1.settings.json'), '{"tokenUsage": ')
    const s = (await readHomeOf(droid, home)).byId('x1')
    // Line 1: the session_start names the session the file was copied from (info).
    expect(s.diagnostics.map((d) => [d.path, d.line])).toEqual([[join(dir, 'x1.jsonl'), 1], [join(dir, 'x1.jsonl'), 2], [join(dir, 'x1.jsonl'), 3], [join(dir, 'x1.settings.json'), 1]])
    expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(2)
  })
})
