/**
 * Session rows on real published sessions (fixtures/public-real, provenance in each SOURCES.md),
 * through the app's API with a catalog in a temp folder. Expected values come from an independent
 * reading of the raw files.
 *
 * - Claude Code `entire-215-api-errors` is an Entire checkpoint of a session that began earlier:
 *   its first record's `parentUuid` names a record outside the file, so the reader notes that the
 *   transcript starts a new branch. Nothing is left out: the row says "1 note" (not "1 problem"),
 *   as the library banner ("Nothing was left out") and the Health view (which lists no session read
 *   in part) say.
 * - Gemini CLI `entire-hook-warning-only` holds one message, of `type: "warning"` (a failed
 *   SessionEnd hook), and no user or `gemini` message: it is titled "Empty session", counts 0
 *   messages, and convert offers no target and refuses to plan it (Gemini CLI would open an empty chat).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../../src/main/api'
import { findAppRoot, type AppContext } from '../../src/main/context'
import { isProblem, rowDiagnostics } from '../../src/shared/ir'

const ROOT = findAppRoot()
const REAL = join(ROOT, 'fixtures', 'public-real')
const tmp = mkdtempSync(join(tmpdir(), 'sepia-pr-rows-'))
const home = join(tmp, 'home')
const API_ERRORS = 'b00b80af-879f-4265-b95b-48db0938673c'
const API_ERRORS_FILE = join(home, '.claude/projects/-Users-soph-Work-entire-devenv-cli', `${API_ERRORS}.jsonl`)
const GEMINI_CHATS = join(home, '.gemini/tmp/41d597d6d7729546af33d345040d55a7018cf1136e850b23d51c76d6192af7fb/chats')

function context(): AppContext {
  return { mode: 'browser', version: 'test', platform: 'linux', homes: [home], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: home, appDataDir: join(tmp, 'data'), now: () => 1_800_000_000_000 }
}

beforeAll(() => {
  cpSync(join(REAL, 'claude-code', 'entire-215-api-errors', 'home'), home, { recursive: true })
  cpSync(join(REAL, 'gemini', 'entire-hook-warning-only', 'home'), home, { recursive: true })
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** Raw: lines that are not JSON, and records whose `parentUuid` names no record of the file. */
function rawChain(file: string): { badLines: number; outsideParents: number } {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim())
  const recs: Record<string, any>[] = []
  let badLines = 0
  for (const l of lines) {
    try {
      recs.push(JSON.parse(l) as Record<string, any>)
    } catch {
      badLines++
    }
  }
  const uuids = new Set(recs.map((r) => r.uuid).filter((u) => typeof u === 'string'))
  return { badLines, outsideParents: recs.filter((r) => typeof r.parentUuid === 'string' && !uuids.has(r.parentUuid)).length }
}

describe('session row diagnostics on public-real sessions', () => {
  it('a note that lost nothing: the row, the banner and the Health view agree', async () => {
    const raw = rawChain(API_ERRORS_FILE)
    expect(raw).toEqual({ badLines: 0, outsideParents: 1 })
    const api = createApi(context())
    await api.getLibrary()
    await api.library.whenIdle()
    const lib = await api.getLibrary()
    const row = lib.sessions.find((s) => s.id === API_ERRORS)!
    expect(row).toBeDefined()
    // One branch that starts outside the file: one note, no problem.
    expect(rowDiagnostics(row)).toEqual({ problems: raw.badLines, notes: raw.outsideParents })
    expect(row.problemCount).toBe(0)
    // The library banner's list: the same one diagnostic, and nothing in it left something out
    // (the banner then says "1 note on 1 file while reading. Nothing was left out.":
    // src/renderer/src/components/diagnostics-panel.test.ts renders those words and the row's).
    const listed = lib.diagnostics.filter((d) => d.sessionId === API_ERRORS)
    expect(listed).toHaveLength(raw.outsideParents)
    expect(listed.filter(isProblem)).toEqual([])
    const health = await api.getHealth()
    const claude = health.homes.flatMap((h) => h.agents).find((a) => a.agent === 'claude-code')!
    expect(claude.partialSessions).toEqual([])
  })

  it('a Gemini chat holding only a hook warning is an "Empty session" with nothing to continue', async () => {
    const [file] = readdirSync(GEMINI_CHATS)
    const raw = JSON.parse(readFileSync(join(GEMINI_CHATS, file!), 'utf8')) as { sessionId: string; messages: { type: string }[] }
    expect(raw.messages.map((m) => m.type)).toEqual(['warning'])
    const conversation = raw.messages.filter((m) => m.type === 'user' || m.type === 'gemini').length
    const api = createApi(context())
    await api.getLibrary()
    await api.library.whenIdle()
    const row = (await api.getLibrary()).sessions.find((s) => s.id === raw.sessionId)!
    expect(row.messageCount).toBe(conversation)
    // No title and no prompt: the library titles it "Empty session" (library-tree.ts displayTitle, library-tree.test.ts).
    expect({ title: row.title, firstPrompt: row.firstPrompt }).toEqual({ title: undefined, firstPrompt: undefined })
    expect(await api.convertTargets('gemini', raw.sessionId)).toEqual([])
    await expect(api.planConvert('gemini', raw.sessionId, 'claude-code')).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: `Session ${raw.sessionId} has no messages, so there is nothing to continue in another agent.`,
    })
    // The Claude Code session beside it has a conversation and targets.
    expect((await api.convertTargets('claude-code', API_ERRORS)).length).toBeGreaterThan(0)
  })
})
