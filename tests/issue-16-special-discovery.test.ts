/**
 * Issue 16 ("every dropped or skipped thing has a diagnostic"): a FIFO or a link to /dev/zero
 * named like a Claude Code, Cursor agent, Gemini or Codex transcript is skipped at discovery with a warning
 * naming it, instead of disappearing silently (found by `npm run fuzz`).
 */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { AGENTS } from '../src/main/agents/registry'
import { layoutForHome } from '../src/main/platform'

const made: string[] = []
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })))

async function discover(agentId: string, home: string) {
  const agent = AGENTS.find((a) => a.id === agentId)!
  return agent.discover(await layoutForHome({ home }), { now: () => 0 })
}

describe.skipIf(process.platform === 'win32')('special files named like a session are named, not dropped', () => {
  it('Claude Code: a FIFO transcript and a /dev/zero sub-agent transcript', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-special-cc-'))
    made.push(home)
    const project = join(home, '.claude/projects/-home-ana-src-api')
    const sub = join(project, '11111111-1111-4111-8111-111111111111/subagents')
    mkdirSync(sub, { recursive: true })
    const fifo = join(project, '22222222-2222-4222-8222-222222222222.jsonl')
    execFileSync('mkfifo', [fifo])
    const zero = join(sub, 'agent-a3f2b5aeb6dc75f4e.jsonl')
    symlinkSync('/dev/zero', zero)
    const found = await discover('claude-code', home)
    expect(found.refs).toEqual([])
    for (const path of [fifo, zero]) {
      const named = found.diagnostics.filter((d) => d.path === path)
      expect(named, path).toHaveLength(1)
      expect(named[0]!.message).toMatch(/not a regular file/)
    }
  })

  it('Cursor agent: a FIFO transcript, a /dev/zero sub-agent and a FIFO store.db', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-special-ca-'))
    made.push(home)
    const dir = join(home, '.cursor/projects/home-ana-src-api/agent-transcripts')
    const id = '8a0f3e4b-5d77-4c3b-8c6e-bf4d5b9a7ea3'
    mkdirSync(join(dir, id, 'subagents'), { recursive: true })
    const fifo = join(dir, id, `${id}.jsonl`)
    execFileSync('mkfifo', [fifo])
    const zero = join(dir, id, 'subagents', 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e.jsonl')
    symlinkSync('/dev/zero', zero)
    const acp = join(home, '.cursor/acp-sessions/6e8d1c2f-3b55-4a1f-8a4c-9d2b3f7e5c81')
    mkdirSync(acp, { recursive: true })
    const db = join(acp, 'store.db')
    execFileSync('mkfifo', [db])
    const found = await discover('cursor-agent', home)
    for (const path of [fifo, zero, db]) expect(found.diagnostics.filter((d) => d.path === path).map((d) => d.message), path).toEqual([expect.stringMatching(/not a regular file/)])
  })

  it('Gemini: a chats file linked to /dev/zero', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-special-gemini-'))
    made.push(home)
    const chats = join(home, '.gemini/tmp/notes-app/chats')
    mkdirSync(chats, { recursive: true })
    const zero = join(chats, 'session-2026-11-30T07-08-bff94a84.jsonl')
    symlinkSync('/dev/zero', zero)
    const found = await discover('gemini', home)
    expect(found.refs).toEqual([])
    expect(found.diagnostics.filter((d) => d.path === zero).map((d) => d.message)).toEqual([expect.stringMatching(/not a regular file/)])
  })

  it('Cline: a FIFO as state/taskHistory.json does not block discovery (a blocked open would hold a libuv thread forever)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-special-cline-'))
    made.push(home)
    cpSync(join(__dirname, '../fixtures/real/cline-legacy/home/.cline'), join(home, '.cline'), { recursive: true })
    const history = join(home, '.cline/data/state/taskHistory.json')
    rmSync(history, { force: true })
    execFileSync('mkfifo', [history])
    const found = await discover('cline', home)
    expect(found.refs.filter((r) => r.format === 'cline-legacy-task')).toHaveLength(3)
    expect(found.diagnostics.filter((d) => d.path === history).map((d) => d.message)).toEqual([expect.stringMatching(/not a regular file/)])
  }, 10_000)

  it('Codex: a rollout linked to /dev/zero', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-special-codex-'))
    made.push(home)
    const day = join(home, '.codex/sessions/2026/11/30')
    mkdirSync(day, { recursive: true })
    const zero = join(day, 'rollout-2026-11-30T07-02-46-01a22b43-64f5-7001-a0f5-62902c07c581.jsonl')
    symlinkSync('/dev/zero', zero)
    const found = await discover('codex', home)
    expect(found.refs).toEqual([])
    expect(found.diagnostics.filter((d) => d.path === zero).map((d) => d.message)).toEqual([expect.stringMatching(/not a regular file/)])
  })
})
