/**
 * Issue 14 through the app's API (catalog in a temp app data folder), on public-real Claude Code
 * homes (fixtures/public-real/claude-code, provenance in its SOURCES.md):
 * - a 1.x session's inline sub-agent threads (`isSidechain: true`) are listed as sessions under
 *   their parent, open like any session, and their Task calls point at them;
 * - the `<system-reminder>` notes Claude Code appends inside Read results reach no search snippet.
 * Expected counts come from the raw files.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../../src/main/api'
import { findAppRoot, type AppContext } from '../../src/main/context'

const ROOT = findAppRoot()
const CASES = join(ROOT, 'fixtures', 'public-real', 'claude-code')
const tmp = mkdtempSync(join(tmpdir(), 'sepia-pr-cat-'))
const home = join(tmp, 'home')
const PARENT = '155c3456-9cd0-4d8f-8db3-d0560ca1851c'
const PARENT_FILE = join(home, '.claude/projects/-home-ubuntu-Documents-livecd-gen', `${PARENT}.jsonl`)

function context(): AppContext {
  return { mode: 'browser', version: 'test', platform: 'linux', homes: [home], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: home, appDataDir: join(tmp, 'data'), now: () => 1_800_000_000_000 }
}

beforeAll(() => {
  cpSync(join(CASES, 'sword-1090-siblings', 'home'), home, { recursive: true })
  cpSync(join(CASES, 'pai-project-folder', 'home'), home, { recursive: true })
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** Raw: the Task call ids whose prompt starts an inline isSidechain thread (a root: parentUuid null). */
function rawThreadCalls(): string[] {
  const recs = readFileSync(PARENT_FILE, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, any>)
  const prompts = new Set(recs.filter((r) => r.isSidechain === true && r.type === 'user' && r.parentUuid === null).map((r) => String(r.message.content).trim()))
  const out: string[] = []
  for (const r of recs) for (const b of r.type === 'assistant' && Array.isArray(r.message?.content) ? r.message.content : []) {
    if (b.type === 'tool_use' && b.name === 'Task' && prompts.has(String(b.input?.prompt).trim())) out.push(b.id)
  }
  return out
}

describe('public-real Claude Code through the catalog', () => {
  it('inline 1.x sub-agent threads are listed under their parent and open from their Task call', async () => {
    const api = createApi(context())
    await api.getLibrary()
    await api.library.whenIdle()
    const lib = await api.getLibrary()
    const calls = rawThreadCalls()
    expect(calls.length).toBe(5)
    const children = lib.sessions.filter((s) => s.parentSessionId === PARENT)
    expect(children.length).toBe(calls.length)
    const parent = await api.getSession('claude-code', PARENT)
    expect([...(parent.childSessionIds ?? [])].sort()).toEqual(children.map((c) => c.id).sort())
    for (const callId of calls) {
      const call = parent.nodes.flatMap((n) => n.toolCalls ?? []).find((c) => c.id === callId)!
      expect(call.subagentSessionId, callId).toBeDefined()
      const child = await api.getSession('claude-code', call.subagentSessionId!)
      expect({ parent: child.parentSessionId, call: child.parentToolCallId }).toEqual({ parent: PARENT, call: callId })
      expect(child.nodes.some((n) => n.role === 'assistant' && n.content.trim() !== '')).toBe(true)
    }
  })

  it('no search snippet holds a <system-reminder> tag or its text from a tool result', async () => {
    const api = createApi(context())
    await api.getLibrary()
    await api.library.whenIdle()
    // The reminder's own words ("...you MUST refuse to improve or augment the code..."), never a tool result's.
    const r = await api.search('augment')
    for (const h of r.hits) {
      expect(h.snippet.includes('<system-reminder>'), h.snippet).toBe(false)
      expect(h.role === 'tool' && /refuse to improve or\s+augment/.test(h.snippet), h.snippet).toBe(false)
    }
    const tag = await api.search('system-reminder')
    for (const h of tag.hits) expect(h.snippet.includes('<system-reminder>'), h.snippet).toBe(false)
  })
})
