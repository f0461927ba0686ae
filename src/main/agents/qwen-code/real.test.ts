/**
 * Qwen Code reader on the store the real CLI (0.15.10) wrote offline (fixtures/real/qwen-code,
 * see its README.md). Every count comes from an independent reading of the raw chats JSONL here:
 * records by `type`, `functionCall`/`functionResponse` parts by id, `usageMetadata`, never Sepia.
 */
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { qwenCode } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'real', 'qwen-code', 'home')
const PROJECT = join(HOME, '.qwen', 'projects', '-home-lin-src-notes-app')
const CHATS = join(PROJECT, 'chats')

type Rec = Record<string, any>
const recordsOf = (path: string): Rec[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Rec)
const parts = (r: Rec): Rec[] => r.message?.parts ?? []

function truth(recs: Rec[]) {
  const of = (t: string) => recs.filter((r) => r.type === t)
  const calls = of('assistant').flatMap((r) => parts(r).filter((p) => p.functionCall).map((p) => p.functionCall as Rec))
  const ids = new Set(calls.map((c) => c.id as string))
  const responses = of('tool_result').flatMap((r) => parts(r).filter((p) => p.functionResponse).map((p) => ({ fr: p.functionResponse as Rec, status: r.toolCallResult?.status as string })))
  return {
    prompts: of('user').map((r) => parts(r).map((p) => p.text ?? '').join('')),
    assistants: of('assistant').length,
    texts: of('assistant').map((r) => parts(r).filter((p) => p.text !== undefined && !p.thought).map((p) => p.text).join('')),
    thoughts: of('assistant').flatMap((r) => parts(r).filter((p) => p.thought).map((p) => p.text as string)),
    calls: calls.length,
    paired: responses.filter((x) => ids.has(x.fr.id)).length,
    failed: responses.filter((x) => x.status === 'error' || x.fr.response?.error !== undefined).length,
    exitCodes: responses.map((x) => /^Exit Code: (\d+)/m.exec(String(x.fr.response?.output ?? ''))).filter(Boolean).map((m) => Number(m![1])),
    fileDiffs: of('tool_result').filter((r) => typeof r.toolCallResult?.resultDisplay?.newContent === 'string').map((r) => r.toolCallResult.resultDisplay.newContent as string),
    output: of('assistant').reduce((a, r) => a + (r.usageMetadata?.candidatesTokenCount ?? 0), 0),
    cwd: recs[0]!.cwd as string,
    branch: recs[0]!.gitBranch as string,
    version: recs[0]!.version as string,
  }
}

describe('qwen-code: real CLI 0.15.10 store', () => {
  const files = readdirSync(CHATS).filter((n) => n.endsWith('.jsonl'))

  it('every chats file is one session: prompts, texts, thoughts, tool calls paired by id, exit codes, file diffs, usage, cwd, branch', async () => {
    const home = await readHomeOf(qwenCode, HOME)
    expect(home.diagnostics).toEqual([])
    expect(home.sessions.map((s) => s.id).sort()).toEqual(files.map((f) => f.replace(/\.jsonl$/, '')).sort())
    for (const f of files) {
      const t = truth(recordsOf(join(CHATS, f)))
      const s = home.byId(f.replace(/\.jsonl$/, ''))
      expect(s.diagnostics).toEqual([])
      expect(s.source.files).toEqual([join(CHATS, f), join(PROJECT, 'meta.json')])
      expect(s.workingDirectory).toBe(t.cwd)
      expect(s.git).toEqual({ branch: t.branch })
      expect(s.metadata.qwenVersion).toBe(t.version)
      expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(t.prompts)
      const assistants = s.nodes.filter((n) => n.role === 'assistant')
      expect(assistants.map((n) => n.content)).toEqual(t.texts)
      expect(assistants.map((n) => n.thinking).filter(Boolean)).toEqual(t.thoughts)
      expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(t.failed)
      const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
      expect(calls.filter((c) => c.exitCode !== undefined).map((c) => c.exitCode)).toEqual(t.exitCodes)
      expect(calls.flatMap((c) => c.diffs ?? []).map((d) => d.newText)).toEqual(t.fileDiffs)
      expect(assistants.reduce((a, n) => a + (n.usage?.outputTokens ?? 0), 0)).toBe(t.output)
      // Bookkeeping records (ui_telemetry, attribution_snapshot) are not shown.
      expect(s.nodes.filter((n) => n.role === 'system')).toHaveLength(0)
      expectGolden(`qwen-code/${s.id}`, s)
    }
  })

  it('the tools session holds a failed command (exit code 2), a file edit and an erroring tool call after resume', async () => {
    const home = await readHomeOf(qwenCode, HOME)
    const tools = home.sessions.find((s) => s.nodes.some((n) => n.content.startsWith('[tools]')))!
    const calls = tools.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.find((c) => c.name === 'run_shell_command' && c.exitCode === 2)).toBeDefined()
    expect(calls.find((c) => c.name === 'edit')!.diffs![0]).toMatchObject({ oldText: '# Notes\nTODO: ship it\n', newText: '# Notes\nDONE: ship it\n' })
    expect(calls.find((c) => c.name === 'read_file')!.status).toBe('failed')
    expect(tools.nodes.filter((n) => n.role === 'user').map((n) => n.content)[1]).toMatch(/^\[resume\]/)
  })

  it('a line cut short is a warning naming the file and line; the rest loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'qwen-bad-'))
    cpSync(HOME, home, { recursive: true })
    const f = files[0]!
    const path = join(home, '.qwen', 'projects', '-home-lin-src-notes-app', 'chats', f)
    const n = recordsOf(path).length
    appendFileSync(path, '{"uuid":"x","type":"assistant","message":{"ro')
    const s = (await readHomeOf(qwenCode, home)).byId(f.replace(/\.jsonl$/, ''))
    expect(s.diagnostics.map((d) => [d.severity, d.path, d.line])).toEqual([['warning', path, n + 1]])
    expect(s.nodes.filter((x) => x.role === 'assistant')).toHaveLength(truth(recordsOf(join(CHATS, f))).assistants)
  })

  it('sepia list --home shows the Qwen Code sessions', async () => {
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const data = JSON.parse(r.out) as { sessions: { agent: string; id: string }[] }
    expect(data.sessions.filter((x) => x.agent === 'qwen-code').map((x) => x.id).sort()).toEqual(files.map((f) => f.replace(/\.jsonl$/, '')).sort())
  })
})

describe('qwen-code: sepia doctor', () => {
  it('counts every record of the real store, by type and CLI version, none unknown', async () => {
    const files = readdirSync(CHATS).filter((n) => n.endsWith('.jsonl'))
    const lines = files.flatMap((f) => recordsOf(join(CHATS, f)))
    const r = await runCli('doctor', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.out) as { homes: { agents: { agent: string; records: number; unknownTypes: unknown[] }[] }[] }
    const a = report.homes[0]!.agents.find((x) => x.agent === 'qwen-code')!
    expect(a.records).toBe(lines.length)
    expect(a.unknownTypes).toEqual([])
  })
})
