/**
 * `sepia usage` and the app's usage view on real published homes (fixtures/public-real, provenance
 * in each agent's SOURCES.md), each figure checked against an independent reading of the raw files:
 * - Crush `dbos-api-error`: the `sessions` table over a copy (better-sqlite3 here, not Sepia's
 *   reader). Crush overwrites `prompt_tokens`/`completion_tokens` with each response's counts and
 *   adds only `cost` up (github:charmbracelet/crush `internal/llm/agent/agent.go` TrackUsage at
 *   9d68f99e), so the report counts the cost and says the tokens are unknown.
 * - Codex `vscode-windows-041`: each rollout's first line (`session_meta.payload.cwd`) records the
 *   same folder as `c:\…` (VS Code extension) and `C:\…` (CLI); the report has one project for it,
 *   as `sepia list` and the library do.
 * - Gemini CLI `entire-write-file`: the chat file's `tokens` (`output` excludes `thoughts`); the
 *   session header's "out" (shared/usage-rules.ts `outputWithReasoning`, SessionHeader.vue) and the
 *   report's output both hold output + thoughts.
 */
import Database from 'better-sqlite3'
import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../../src/main/api'
import { findAppRoot } from '../../src/main/context'
import { formatUsage } from '../../src/cli/usage'
import { gemini } from '../../src/main/agents/gemini'
import { outputWithReasoning } from '../../src/shared/usage-rules'
import { readHomeOf } from '../builders/testing'

const ROOT = findAppRoot()
const tmp = mkdtempSync(join(tmpdir(), 'sepia-pr-usage-homes-'))
const crushHome = join(tmp, 'crush')
const codexHome = join(tmp, 'codex')
const CRUSH_DB = join('codeZ', 'dbos-transact-golang', '.crush', 'crush.db')

beforeAll(() => {
  cpSync(join(ROOT, 'fixtures', 'public-real', 'crush', 'dbos-api-error', 'home'), crushHome, { recursive: true })
  cpSync(join(ROOT, 'fixtures', 'public-real', 'codex', 'vscode-windows-041', 'home'), codexHome, { recursive: true })
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function api(homes: string[], name: string): ReturnType<typeof createApi> {
  return createApi({ mode: 'browser', version: 'test', platform: 'linux', homes, fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: homes[0]!, appDataDir: join(tmp, `data-${name}`), now: () => 1_800_000_000_000 })
}

/** The `sessions` rows of the Crush database, read on a copy. */
function crushSessions(): { id: string; prompt_tokens: number; completion_tokens: number; cost: number; parent_session_id: string | null }[] {
  const copy = join(tmp, 'crush-copy.db')
  copyFileSync(join(crushHome, CRUSH_DB), copy)
  const db = new Database(copy, { readonly: true })
  try {
    return db.prepare('SELECT id, prompt_tokens, completion_tokens, cost, parent_session_id FROM sessions').all() as never
  } finally {
    db.close()
  }
}

/** Every `.jsonl` under `dir`. */
function rollouts(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e)
    return statSync(p).isDirectory() ? rollouts(p) : e.endsWith('.jsonl') ? [p] : []
  })
}

describe('usage on real homes', () => {
  it('crush dbos-api-error: cost is the stored total; tokens are unknown (the store keeps only the last request’s), in JSON and in words', async () => {
    const raw = crushSessions()
    expect(raw).toHaveLength(2)
    expect(raw.every((s) => s.parent_session_id === null)).toBe(true)
    const a = api([crushHome], 'crush')
    await a.getLibrary()
    await a.library.whenIdle()
    const report = await a.getUsage({ by: 'session', timeZone: 'UTC' })
    expect(report.rows).toHaveLength(2)
    for (const s of raw) {
      const row = report.rows.find((r) => r.sessionId === s.id)!
      expect(row.cost).toBeCloseTo(s.cost, 9)
      expect(row.tokensUnknownMessages).toBe(row.messages)
      // Not the last request's counts passed off as the session's (127,170 + 64 for a20c5ed5).
      expect(row.totalTokens).toBe(0)
      expect(row.totalTokens).not.toBe(s.prompt_tokens + s.completion_tokens)
    }
    const cost = raw.reduce((t, s) => t + s.cost, 0)
    expect(report.totals.cost).toBeCloseTo(cost, 9)
    expect(report.totals.totalTokens).toBe(0)
    expect(report.tokensUnknown).toEqual([{ agent: 'crush', messages: 2, cost: expect.closeTo(cost, 9) }])
    const text = formatUsage(report)
    expect(text).toMatch(/Crush: tokens unknown, left out of the token totals; its cost \(3\.22 USD\) is counted\. Crush keeps only the last request’s token counts/)
    for (const line of text.split('\n').filter((l) => /Create and Enhance CRUSH\.md/.test(l))) expect(line).toMatch(/unknown.*3\.20$/)
    expect(text).toMatch(/^TOTAL +unknown +unknown +unknown +unknown +unknown +3\.22$/m)
  }, 60_000)

  it('codex vscode-windows-041: `c:\\…` and `C:\\…` cwds are one project; `--project` matches both spellings', async () => {
    // Raw: each rollout's session_meta cwd, and whether it records any token_count.
    const cwds = rollouts(join(codexHome, '.codex', 'sessions')).flatMap((f) => {
      const text = readFileSync(f, 'utf8')
      const first = JSON.parse(text.split('\n')[0]!) as { type?: string; payload?: { cwd?: string } }
      return first.type === 'session_meta' && first.payload?.cwd && text.includes('"token_count"') ? [first.payload.cwd] : []
    })
    const main = 'agentic-neurodata-conversion-2'
    const spellings = new Set(cwds.filter((c) => c.endsWith(main)))
    expect([...spellings].sort()).toEqual([`C:\\Users\\shahh\\OneDrive\\Desktop\\${main}`, `c:\\Users\\shahh\\OneDrive\\Desktop\\${main}`])
    const a = api([codexHome], 'codex')
    await a.getLibrary()
    await a.library.whenIdle()
    const byProject = await a.getUsage({ by: 'project', timeZone: 'UTC' })
    const bySession = await a.getUsage({ by: 'session', timeZone: 'UTC' })
    const folded = new Set(byProject.rows.map((r) => r.key.toLowerCase()))
    expect(folded.size).toBe(byProject.rows.length)
    expect(byProject.rows.filter((r) => r.label === main)).toHaveLength(1)
    expect(byProject.totals).toEqual(bySession.totals)
    // The sessions of either spelling land on the one row.
    const row = byProject.rows.find((r) => r.label === main)!
    const sessionsOf = (cwd: string) => bySession.rows.filter((r) => r.project?.toLowerCase() === cwd.toLowerCase())
    expect(row.messages).toBe(sessionsOf([...spellings][0]!).reduce((t, r) => t + r.messages, 0))
    // A filter in either spelling takes both (and the sub-folder), as a folder on Windows would.
    for (const p of spellings) {
      const filtered = await a.getUsage({ by: 'session', timeZone: 'UTC', project: p })
      const want = byProject.rows.filter((r) => r.key.toLowerCase().startsWith(p.toLowerCase())).reduce((t, r) => t + r.messages, 0)
      expect(filtered.totals.messages, p).toBe(want)
      expect(want).toBeGreaterThanOrEqual(row.messages)
    }
  }, 60_000)

  it('gemini entire-write-file: the session header’s out and the report’s output are the file’s output + thoughts', async () => {
    const home = join(tmp, 'gemini')
    cpSync(join(ROOT, 'fixtures', 'public-real', 'gemini', 'entire-write-file', 'home'), home, { recursive: true })
    const tmpDir = join(home, '.gemini', 'tmp')
    const chats = join(tmpDir, readdirSync(tmpDir)[0]!, 'chats')
    const raw = (JSON.parse(readFileSync(join(chats, readdirSync(chats)[0]!), 'utf8')) as { messages: { tokens?: { output: number; thoughts: number } }[] }).messages.flatMap((m) => (m.tokens ? [m.tokens] : []))
    const want = raw.reduce((t, x) => t + x.output + x.thoughts, 0)
    expect(raw.reduce((t, x) => t + x.thoughts, 0)).toBeGreaterThan(0)
    const read = await readHomeOf(gemini, home)
    expect(read.sessions).toHaveLength(1)
    const s = read.sessions[0]!
    // What the header adds up when the session has no usage of its own (format.ts sumUsage).
    const nodes = s.nodes.flatMap((n) => (n.usage ? [n.usage] : []))
    const u = s.usage ?? { outputTokens: nodes.reduce((t, x) => t + (x.outputTokens ?? 0), 0), thinkingTokens: nodes.reduce((t, x) => t + (x.thinkingTokens ?? 0), 0) }
    expect(outputWithReasoning('gemini', u)).toBe(want)
    const a = api([home], 'gemini')
    await a.getLibrary()
    await a.library.whenIdle()
    expect((await a.getUsage({ by: 'session', timeZone: 'UTC' })).totals.outputTokens).toBe(want)
  }, 60_000)
})
