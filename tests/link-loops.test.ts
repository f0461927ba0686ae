/**
 * A home with a symbolic link loop (`p/loop -> ..`, `a -> b -> a`) or a folder named like a
 * session file (`<id>.jsonl/`, `rollout-*.jsonl/`), found by session 9's new-user pass: each gets a
 * warning naming the path, marked `skipped` and counted by `sepia doctor` as a skipped file, shown by
 * `sepia list`; the rest of the home loads, and nothing hangs or is listed twice. Since session 11 the
 * same hostile store (a link to the folder above, a two-link loop named like sessions, a folder named
 * like a session file, beside one real session) is built for every other agent's walker (`STORES`),
 * plus the one-database stores (Crush, Zed, Cursor IDE), Gemini's chats and project folders and
 * OpenCode's JSON storage. Aider (project folders found from the catalog, no walk of its own) is not
 * in the table.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AGENTS } from '../src/main/agents/registry'
import { layoutForHome } from '../src/main/platform'
import type { HealthReport } from '../src/shared/health'
import type { Diagnostic } from '../src/shared/ir'
import { runCli } from './helpers/cli-run'
import { tempDirs } from './helpers/temp'

const temp = tempDirs()
/** Write `records` as a JSONL file. */
const jsonl = (file: string, records: object[]): void => writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n')

const CC_SID = '7d3c1e52-9a41-4b8e-b0c3-2f6d4a1e8b90'
const CODEX_ID = '01a22b43-64f5-7001-a0f5-62902c07c581'

async function discover(agentId: string, home: string) {
  const agent = AGENTS.find((a) => a.id === agentId)!
  return agent.discover(await layoutForHome({ home }), { now: () => 0 })
}

/** A two-link loop in `dir`: `a -> b -> a`. Returns both paths. */
function linkLoop(dir: string, a: string, b: string): [string, string] {
  const pa = join(dir, a)
  const pb = join(dir, b)
  symlinkSync(pb, pa)
  symlinkSync(pa, pb)
  return [pa, pb]
}

/** Every diagnostic is a skipped warning of `agent` naming its path in plain words. */
function expectSkippedWarnings(diagnostics: readonly Diagnostic[], agent: string): void {
  for (const d of diagnostics) {
    expect(d.message, d.path).toContain(d.path)
    expect(d.message, d.path).toMatch(/symbolic link loop|a folder that holds it|is a folder/)
    expect(d).toMatchObject({ severity: 'warning', skipped: 1, agent })
  }
}

/** A Claude Code home with one session, a loop to the projects folder, a two-link loop and a folder named like a transcript. */
function claudeHome(): { home: string; problems: string[] } {
  const home = temp('sepia-loop-cc-')
  const dir = join(home, '.claude/projects/-home-ana-app')
  mkdirSync(dir, { recursive: true })
  const base = { sessionId: CC_SID, cwd: '/home/ana/app', version: '2.1.300' }
  jsonl(join(dir, `${CC_SID}.jsonl`), [
    { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content: 'hello' } },
    { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: '2026-11-01T10:00:01.000Z', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-5', content: [{ type: 'text', text: 'hi' }] } },
  ])
  const loop = join(dir, 'loop')
  symlinkSync('..', loop)
  const [a, b] = linkLoop(dir, 'aaaa.jsonl', 'bbbb.jsonl')
  const folder = join(dir, '33333333-3333-4333-8333-333333333333.jsonl')
  mkdirSync(folder)
  const subFolder = join(dir, CC_SID, 'subagents', 'agent-a1b2c3.jsonl')
  mkdirSync(subFolder, { recursive: true })
  return { home, problems: [a, b, folder, loop, subFolder] }
}

describe.skipIf(process.platform === 'win32')('link loops and folders named like session files', () => {
  it('Claude Code: each is named in a skipped warning; the session still loads', async () => {
    const { home, problems } = claudeHome()
    const found = await discover('claude-code', home)
    expect(found.refs.map((r) => r.sessionId)).toEqual([CC_SID])
    expect(found.diagnostics.map((d) => d.path).sort()).toEqual([...problems].sort())
    expectSkippedWarnings(found.diagnostics, 'claude-code')
  })

  it('sepia doctor counts them as skipped files; sepia list shows them and lists the session', async () => {
    const { home, problems } = claudeHome()
    const r = await runCli('doctor', '--home', home, '--json')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.out) as HealthReport
    const cc = report.homes[0]!.agents.find((a) => a.agent === 'claude-code')!
    expect(cc.sessions).toBe(1)
    expect(cc.skippedFiles.map((f) => f.path).sort()).toEqual([...problems].sort())
    expect(report.totals.skippedFiles).toBe(problems.length)
    // The text report names each path once, in the reason's own words.
    const text = await runCli('doctor', '--home', home)
    for (const p of problems) expect(text.out).toContain(`    file not read: ${p} is `)
    const l = await runCli('list', '--home', home)
    expect(l.code).toBe(0)
    expect(l.out).toContain(CC_SID.slice(0, 8))
    for (const p of problems) expect(l.err).toContain(p)
  })

  it('Codex: a link to a folder above is not followed (each rollout listed once), a link loop and a folder named like a rollout are named', async () => {
    const home = temp('sepia-loop-codex-')
    const day = join(home, '.codex/sessions/2026/11/30')
    mkdirSync(day, { recursive: true })
    const name = `rollout-2026-11-30T07-02-46-${CODEX_ID}.jsonl`
    jsonl(join(day, name), [
      { timestamp: '2026-11-30T07:02:46.000Z', type: 'session_meta', payload: { id: CODEX_ID, timestamp: '2026-11-30T07:02:46.000Z', cwd: '/home/ana/app', originator: 'codex_cli_rs', cli_version: '0.171.0' } },
      { timestamp: '2026-11-30T07:02:47.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] } },
    ])
    const up = join(day, 'up')
    symlinkSync('../..', up)
    const [a, b] = linkLoop(day, 'a', 'b')
    const folder = join(day, `rollout-2026-11-30T08-00-00-${'9'.repeat(8)}-1111-4111-8111-111111111111.jsonl`)
    mkdirSync(folder)
    const found = await discover('codex', home)
    expect(found.refs.map((r) => r.files[0])).toEqual([join(day, name)])
    expect(found.diagnostics.map((d) => d.path).sort()).toEqual([a, b, folder, up].sort())
    expectSkippedWarnings(found.diagnostics, 'codex')
  })

  it.each([
    ['gemini', '.gemini/tmp/notes-app/chats/session-2026-11-30T07-08-bff94a84.jsonl'],
    ['pi', '.pi/agent/sessions/--home-ana-app--/2026-11-30T07-08-00-000Z_0b1c2d3e.jsonl'],
    ['droid', '.factory/sessions/-home-ana-app/5c6d7e8f-0000-4000-8000-000000000001.jsonl'],
    ['qwen-code', '.qwen/projects/-home-ana-app/chats/5c6d7e8f-0000-4000-8000-000000000002.jsonl'],
  ])('%s: a folder named like a session file (%s) is named in a skipped warning', async (agent, rel) => {
    const home = temp(`sepia-folder-${agent}-`)
    const folder = join(home, rel)
    mkdirSync(folder, { recursive: true })
    const found = await discover(agent, home)
    expect(found.refs).toEqual([])
    expect(found.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', skipped: 1, path: folder, message: expect.stringMatching(/is a folder/) })])
  })

  it('a session file that is a link loop is named by statSessionFile (Pi)', async () => {
    const home = temp('sepia-loop-pi-')
    const dir = join(home, '.pi/agent/sessions/--home-ana-app--')
    mkdirSync(dir, { recursive: true })
    const [a, b] = linkLoop(dir, '2026-11-30T07-08-00-000Z_aaaa.jsonl', '2026-11-30T07-08-00-000Z_bbbb.jsonl')
    const found = await discover('pi', home)
    expect(found.diagnostics.map((d) => [d.path, d.skipped, /symbolic link loop/.test(d.message)])).toEqual([[a, 1, true], [b, 1, true]])
  })
})

/**
 * One store folder of an agent, for the hostile home below. `kind: 'file'`: the folder holds the
 * session files, named by `name(stem)`; `kind: 'folder'`: it holds one folder per session, named
 * by `name(stem)`, whose session file is `inner(stem)` inside it.
 */
interface StoreCase {
  agent: string
  /** Folders created first (a `globalStorage` folder the platform layout looks for). */
  mkdirs?: string[]
  store: string
  kind: 'file' | 'folder'
  name: (stem: string) => string
  inner?: (stem: string) => string
  /** The one real session: its id (as listed) and its file's text. */
  session: { stem: string; id: string; text: string }
}

const GS = '.config/Code/User/globalStorage'
const LETTA_KEY = Buffer.from('conversation:local-conv-1').toString('base64url')
const STORES: StoreCase[] = [
  { agent: 'amp', store: '.local/share/amp/threads', kind: 'file', name: (s) => `T-${s}.json`, session: { stem: 'one', id: 'T-one', text: '{}' } },
  { agent: 'continue', store: '.continue/sessions', kind: 'file', name: (s) => `${s}.json`, session: { stem: 'one', id: 'one', text: '{}' } },
  { agent: 'goose', store: '.local/share/goose/sessions', kind: 'file', name: (s) => `${s}.jsonl`, session: { stem: 'one', id: 'one', text: '{}\n' } },
  { agent: 'kiro', mkdirs: ['.config/Kiro/User/globalStorage'], store: '.config/Kiro/User/globalStorage/kiro.kiroagent/workspace-sessions/L2hvbWUvYW5hL2FwcA', kind: 'file', name: (s) => `${s}.json`, session: { stem: 'one', id: 'one', text: '{}' } },
  { agent: 'kiro', mkdirs: ['.config/Kiro/User/globalStorage'], store: '.config/Kiro/User/globalStorage/kiro.kiroagent/workspace-sessions', kind: 'folder', name: (s) => s, inner: () => 'x.json', session: { stem: 'one', id: 'x', text: '{}' } },
  { agent: 'vscode-copilot-chat', mkdirs: [GS], store: '.config/Code/User/workspaceStorage/0a1b2c/chatSessions', kind: 'file', name: (s) => `${s}.jsonl`, session: { stem: 'one', id: 'one', text: '{}\n' } },
  { agent: 'vscode-copilot-chat', mkdirs: [GS], store: '.config/Code/User/workspaceStorage', kind: 'folder', name: (s) => s, inner: () => 'chatSessions/x.json', session: { stem: 'one', id: 'x', text: '{}' } },
  { agent: 'devin', store: '.local/share/devin/cli/transcripts', kind: 'file', name: (s) => `${s}.json`, session: { stem: 'one', id: 'one', text: '{"session_id":"one"}' } },
  { agent: 'cursor-agent', store: '.cursor/projects/-home-ana-app/agent-transcripts', kind: 'file', name: (s) => `${s}.jsonl`, session: { stem: 'one', id: 'one', text: '{}\n' } },
  { agent: 'cursor-agent', store: '.cursor/projects', kind: 'folder', name: (s) => s, inner: () => 'agent-transcripts/x.jsonl', session: { stem: 'one', id: 'x', text: '{}\n' } },
  { agent: 'copilot-cli', store: '.copilot/session-state', kind: 'folder', name: (s) => s, inner: () => 'events.jsonl', session: { stem: 'one', id: 'one', text: '{}\n' } },
  { agent: 'letta-code', store: '.letta/lc-local-backend/conversations', kind: 'folder', name: (s) => (s === 'one' ? LETTA_KEY : s), inner: () => 'messages.jsonl', session: { stem: 'one', id: 'local-conv-1', text: '{}\n' } },
  { agent: 'openhands', store: '.openhands/sessions', kind: 'folder', name: (s) => s, inner: () => 'events/0.json', session: { stem: 'one', id: 'one', text: '{}' } },
  { agent: 'openhands', store: '.openhands/conversations', kind: 'folder', name: (s) => s, inner: () => 'events/event-00000-0a1b2c3d-0000-4000-8000-000000000000.json', session: { stem: 'one', id: 'one', text: '{}' } },
  { agent: 'cline', store: '.cline/data/tasks', kind: 'folder', name: (s) => s, inner: () => 'ui_messages.json', session: { stem: 'one', id: 'one', text: '[]' } },
  { agent: 'cline', store: '.cline/data/sessions', kind: 'folder', name: (s) => s, inner: (s) => `${s}.json`, session: { stem: 'one', id: 'one', text: '{}' } },
  { agent: 'kilo-code', mkdirs: [GS], store: `${GS}/kilocode.kilo-code/tasks`, kind: 'folder', name: (s) => s, inner: () => 'ui_messages.json', session: { stem: 'one', id: 'one', text: '[]' } },
  { agent: 'gemini', store: '.gemini/tmp/notes-app/chats', kind: 'file', name: (s) => `session-2026-11-30T07-08-${s}.jsonl`, session: { stem: 'one', id: 'session-2026-11-30T07-08-one', text: '{}\n' } },
  { agent: 'opencode', store: '.local/share/opencode/storage/session/global', kind: 'file', name: (s) => `ses_${s}.json`, session: { stem: 'one', id: 'ses_one', text: '{}' } },
  { agent: 'opencode', store: '.local/share/opencode/storage/session', kind: 'folder', name: (s) => s, inner: () => 'ses_x.json', session: { stem: 'one', id: 'ses_x', text: '{}' } },
  { agent: 'gemini', store: '.gemini/tmp', kind: 'folder', name: (s) => s, inner: (s) => `chats/session-2026-11-30T07-08-${s}.jsonl`, session: { stem: 'one', id: 'session-2026-11-30T07-08-one', text: '{}\n' } },
]

describe.skipIf(process.platform === 'win32')('every other agent: a hostile store finishes, names each path and lists its session once', () => {
  it.each(STORES.map((c) => [`${c.agent} ${c.store}`, c] as const))('%s', async (_label, c) => {
    const home = temp(`sepia-hostile-${c.agent}-`)
    for (const d of c.mkdirs ?? []) mkdirSync(join(home, d), { recursive: true })
    const store = join(home, c.store)
    mkdirSync(store, { recursive: true })
    const fileOf = (stem: string): string => (c.kind === 'file' ? join(store, c.name(stem)) : join(store, c.name(stem), c.inner!(stem)))
    const real = fileOf(c.session.stem)
    mkdirSync(dirname(real), { recursive: true })
    writeFileSync(real, c.session.text)
    // A link to the folder above, a two-link loop named like sessions, and a folder named like a session file.
    const up = join(store, 'up')
    symlinkSync('..', up)
    const loop = linkLoop(store, c.name('aaaa'), c.name('bbbb'))
    const folder = fileOf('cccc')
    mkdirSync(folder, { recursive: true })
    const found = await discover(c.agent, home)
    const ids = found.refs.map((r) => r.sessionId)
    expect(new Set(ids).size, ids.join(' ')).toBe(ids.length)
    expect(found.refs.filter((r) => r.files.includes(real)).map((r) => r.sessionId)).toEqual([c.session.id])
    const skipped = found.diagnostics.filter((d) => d.skipped)
    expect(skipped.map((d) => d.path).sort()).toEqual([up, ...loop, folder].sort())
    expectSkippedWarnings(skipped, c.agent)
  })
})

describe.skipIf(process.platform === 'win32')('one-database stores: a folder or a link loop in the database file\'s place is named', () => {
  it('Crush: crush.db a folder (global data dir), .crush/crush.db a link to itself', async () => {
    const home = temp('sepia-hostile-crush-')
    const global = join(home, '.local/share/crush')
    const folder = join(global, 'crush.db')
    mkdirSync(folder, { recursive: true })
    mkdirSync(join(global, '.crush'))
    const self = join(global, '.crush', 'crush.db')
    symlinkSync(self, self)
    const found = await discover('crush', home)
    expect(found.refs).toEqual([])
    expect(found.diagnostics.map((d) => d.path).sort()).toEqual([self, folder].sort())
    expectSkippedWarnings(found.diagnostics, 'crush')
  })

  it('Zed: threads/threads.db a folder', async () => {
    const home = temp('sepia-hostile-zed-')
    const folder = join(home, '.local/share/zed/threads/threads.db')
    mkdirSync(folder, { recursive: true })
    const found = await discover('zed', home)
    expect(found.refs).toEqual([])
    expect(found.diagnostics.map((d) => d.path)).toEqual([folder])
    expectSkippedWarnings(found.diagnostics, 'zed')
  })
})

describe.skipIf(process.platform === 'win32')('Cursor IDE: workspaceStorage and state.vscdb', () => {
  it('a link to the folder above and a link loop among the workspaces, and a folder named state.vscdb, are named', async () => {
    const home = temp('sepia-hostile-cursor-')
    const user = join(home, '.config/Cursor/User')
    const globalDb = join(user, 'globalStorage', 'state.vscdb')
    mkdirSync(globalDb, { recursive: true })
    const ws = join(user, 'workspaceStorage')
    const wsDb = join(ws, '0a1b2c3d', 'state.vscdb')
    mkdirSync(wsDb, { recursive: true })
    const up = join(ws, 'up')
    symlinkSync('..', up)
    const loop = linkLoop(ws, 'aaaa', 'bbbb')
    const found = await discover('cursor', home)
    expect(found.refs).toEqual([])
    expect(found.diagnostics.map((d) => d.path).sort()).toEqual([globalDb, wsDb, up, ...loop].sort())
    expectSkippedWarnings(found.diagnostics, 'cursor')
  })
})
