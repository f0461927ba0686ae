/**
 * VS Code Copilot Chat reader on the homes built from VS Code's source shapes
 * (fixtures/built/vscode-copilot-chat, see its README.md). Every count comes from an independent
 * reading of the raw files here: `JSON.parse` of each `.json`, a replay of each `.jsonl` log by the
 * rules of objectMutationLog.ts written out below, then requests, prompts and
 * `toolInvocationSerialized` parts counted, never Sepia against itself.
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { vscodeCopilotChat } from '.'

const BUILT = join(REPO_ROOT, 'fixtures', 'built', 'vscode-copilot-chat')
const JSON_HOME = join(BUILT, 'json', 'home')
const JSONL_HOME = join(BUILT, 'jsonl', 'home')

type Rec = Record<string, any>

/** Every session file under a home (walk), with its parsed session object. */
function rawSessions(home: string): { id: string; path: string; data: Rec }[] {
  const out: { id: string; path: string; data: Rec }[] = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name)
      if (statSync(p).isDirectory()) walk(p)
      else if (/(chatSessions|emptyWindowChatSessions)$/.test(dir) && /\.jsonl?$/.test(name)) {
        const text = readFileSync(p, 'utf8')
        let data: Rec
        if (name.endsWith('.jsonl')) {
          data = {}
          for (const line of text.split('\n').filter((l) => l.trim())) {
            const e = JSON.parse(line) as Rec
            if (e.kind === 0) { data = e.v; continue }
            const parent = e.k.slice(0, -1).reduce((o: Rec, s: string | number) => o[s], data)
            const key = e.k[e.k.length - 1]
            if (e.kind === 1) parent[key] = e.v
            else if (e.kind === 3) delete parent[key]
            else {
              const arr = (parent[key] ?? []) as unknown[]
              if (e.i !== undefined) arr.length = e.i
              arr.push(...(e.v ?? []))
              parent[key] = arr
            }
          }
        } else data = JSON.parse(text) as Rec
        out.push({ id: name.replace(/\.jsonl?$/, ''), path: p, data })
      }
    }
  }
  walk(home)
  return out
}

function truth(data: Rec) {
  const requests = data.requests as Rec[]
  const tools = requests.flatMap((r) => (r.response ?? []).filter((p: Rec) => p.kind === 'toolInvocationSerialized')) as Rec[]
  return {
    prompts: requests.map((r) => (typeof r.message === 'string' ? r.message : r.message.text) as string),
    tools: tools.length,
    completed: tools.filter((t) => t.isComplete).length,
    errors: tools.filter((t) => t.resultDetails?.isError === true).length,
    exitCodes: tools.map((t) => t.toolSpecificData?.terminalCommandState?.exitCode).filter((x) => x !== undefined),
    edits: requests.flatMap((r) => (r.response ?? []).filter((p: Rec) => p.kind === 'textEditGroup')).length,
    title: data.customTitle ?? undefined,
    apiErrors: requests.filter((r) => r.result?.errorDetails?.message).length,
    canceled: requests.filter((r) => r.isCanceled === true).length,
  }
}

describe('vscode-copilot-chat: built homes', () => {
  for (const home of [JSON_HOME, JSONL_HOME]) {
    it(`every session file under ${home.split('/').slice(-2).join('/')} is one session: prompts, tool calls and results, exit codes, edits, markers, title`, async () => {
      const raw = rawSessions(home)
      const read = await readHomeOf(vscodeCopilotChat, home)
      expect(read.diagnostics).toEqual([])
      expect(read.sessions.map((s) => s.id).sort()).toEqual(raw.map((r) => r.id).sort())
      for (const r of raw) {
        const t = truth(r.data)
        const s = read.byId(r.id)
        expect(s.diagnostics).toEqual([])
        expect(s.source.files[0]).toBe(r.path)
        expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(t.prompts)
        expect(countPairedToolCalls(s)).toEqual({ calls: t.tools, paired: t.completed })
        expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(t.errors)
        const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
        expect(calls.filter((c) => c.exitCode !== undefined).map((c) => c.exitCode)).toEqual(t.exitCodes)
        expect(s.nodes.flatMap((n) => [...((n.metadata?.edits as unknown[]) ?? []), ...(n.toolCalls ?? []).flatMap((c) => (c.metadata?.edits as unknown[]) ?? [])])).toHaveLength(t.edits)
        expect(s.nodes.filter((n) => n.event === 'api-error')).toHaveLength(t.apiErrors)
        expect(s.nodes.filter((n) => n.event === 'interrupted')).toHaveLength(t.canceled)
        if (t.title) expect(s.title).toBe(t.title)
        expectGolden(`vscode-copilot-chat/${s.id}`, s)
      }
    })
  }

  it('the workspace folder (or .code-workspace file) comes from workspace.json; empty-window sessions have none', async () => {
    const read = await readHomeOf(vscodeCopilotChat, JSON_HOME)
    for (const r of rawSessions(JSON_HOME)) {
      const s = read.byId(r.id)
      const wsJson = join(r.path, '..', '..', 'workspace.json')
      if (r.path.includes('emptyWindowChatSessions')) {
        expect(s.workingDirectory).toBeUndefined()
        expect(s.metadata.emptyWindow).toBe(true)
        continue
      }
      const w = JSON.parse(readFileSync(wsJson, 'utf8')) as Rec
      if (w.folder) expect(s.workingDirectory).toBe(decodeURIComponent(new URL(w.folder).pathname))
      else {
        expect(s.workingDirectory).toBeUndefined()
        expect(s.metadata.workspaceFile).toBe(decodeURIComponent(new URL(w.workspace).pathname))
      }
      expect(s.source.files).toEqual([r.path, join(r.path, '..', '..', 'workspace.json')])
    }
    const remote = (await readHomeOf(vscodeCopilotChat, JSONL_HOME)).sessions[0]!
    expect(remote.workingDirectory).toMatch(/^vscode-remote:\/\//)
  })

  it('a terminal call keeps its command and exit code; the edit tool keeps the file it changed', async () => {
    const s = (await readHomeOf(vscodeCopilotChat, JSON_HOME)).sessions.find((x) => x.title === 'Fix the failing add test')!
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    const run = calls.find((c) => c.id === 'toolu_02')!
    expect(run).toMatchObject({ name: 'run_in_terminal', kind: 'execute', arguments: { command: 'npm test' }, exitCode: 1, status: 'completed' })
    const edit = calls.find((c) => c.name === 'copilot_replaceString')!
    expect(edit.kind).toBe('edit')
    expect(edit.locations).toEqual([{ path: '/home/ana/src/notes-app/src/add.js' }])
    expect(s.nodes.find((n) => n.role === 'assistant')!.thinking).toMatch(/Read the test first/)
  })

  it('damaged files are diagnostics naming the file; the rest loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'vscode-chat-bad-'))
    cpSync(JSON_HOME, home, { recursive: true })
    const raw = rawSessions(home)
    const [a, b, c] = raw
    writeFileSync(a!.path, readFileSync(a!.path, 'utf8').slice(0, 200))
    writeFileSync(b!.path, JSON.stringify({ ...b!.data, requests: 'nope' }))
    writeFileSync(c!.path, JSON.stringify({ ...c!.data, requests: [42, ...c!.data.requests.map((r: Rec) => ({ ...r, response: 7 }))] }))
    const read = await readHomeOf(vscodeCopilotChat, home)
    expect(read.sessions).toHaveLength(raw.length)
    const diags = (id: string) => read.byId(id).diagnostics.filter((d) => d.severity !== 'info')
    expect(diags(a!.id).map((d) => [d.severity, d.path])).toEqual([['error', a!.path]])
    expect(diags(b!.id).map((d) => d.path)).toEqual([b!.path])
    expect(diags(c!.id).length).toBe(1 + c!.data.requests.length)
    expect(read.byId(c!.id).nodes.filter((n) => n.role === 'user')).toHaveLength(c!.data.requests.length)

    const home2 = mkdtempSync(join(tmpdir(), 'vscode-chat-bad-log-'))
    cpSync(JSONL_HOME, home2, { recursive: true })
    const log = rawSessions(home2)[0]!
    const lines = readFileSync(log.path, 'utf8').split('\n').filter((l) => l.trim()).length
    appendFileSync(log.path, '{"kind":1,"k":["requests",9,"x"],"v":1}\n{"kind":2,"k":["requ')
    const s = (await readHomeOf(vscodeCopilotChat, home2)).byId(log.id)
    expect(s.diagnostics.map((d) => [d.severity, d.path, d.line])).toEqual([['warning', log.path, lines + 1], ['warning', log.path, lines + 2]])
    expect(s.nodes.filter((n) => n.role === 'user')).toHaveLength(log.data.requests.length)
  })

  it('sepia list --home shows the VS Code Copilot Chat sessions', async () => {
    for (const home of [JSON_HOME, JSONL_HOME]) {
      const r = await runCli('list', '--home', home, '--json')
      expect(r.code).toBe(0)
      const data = JSON.parse(r.out) as { sessions: { agent: string; id: string }[] }
      expect(data.sessions.filter((x) => x.agent === 'vscode-copilot-chat').map((x) => x.id).sort()).toEqual(rawSessions(home).map((x) => x.id).sort())
    }
  })
})
