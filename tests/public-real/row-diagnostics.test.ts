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
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../../src/main/api'
import { findAppRoot, type AppContext } from '../../src/main/context'
import { rowDiagnostics } from '../../src/shared/ir'
import { strings } from '../../src/renderer/src/strings'

const ROOT = findAppRoot()
const REAL = join(ROOT, 'fixtures', 'public-real')
const tmp = mkdtempSync(join(tmpdir(), 'sepia-pr-rows-'))
const home = join(tmp, 'home')
const API_ERRORS = 'b00b80af-879f-4265-b95b-48db0938673c'
const API_ERRORS_FILE = join(home, '.claude/projects/-Users-soph-Work-entire-devenv-cli', `${API_ERRORS}.jsonl`)

function context(): AppContext {
  return { mode: 'browser', version: 'test', platform: 'linux', homes: [home], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: home, appDataDir: join(tmp, 'data'), now: () => 1_800_000_000_000 }
}

beforeAll(() => {
  cpSync(join(REAL, 'claude-code', 'entire-215-api-errors', 'home'), home, { recursive: true })
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
    expect(strings.diagnostics.notes(rowDiagnostics(row).notes)).toBe('1 note')
    expect(strings.diagnostics.noteTitle(1)).toBe('1 note while reading this session. Nothing was left out.')
    expect(strings.diagnostics.libraryTitle(lib.diagnostics)).toBe('1 note on 1 file while reading. Nothing was left out.')
    const health = await api.getHealth()
    const claude = health.homes.flatMap((h) => h.agents).find((a) => a.agent === 'claude-code')!
    expect(claude.partialSessions).toEqual([])
  })
})
