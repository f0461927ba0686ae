/**
 * Issue 15 regressions. (1) A project-filtered search found 0 hits where the catalog held
 * matches: the plan looked only at the newest MAX_SCANNED matches, then filtered. (2) `limit: 200`
 * returned 150 hits with `more: false` (CANDIDATES = 150). The corpus is written here, so the
 * expected counts come from its construction, not from Sepia.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AGENTS } from '../agents/registry'
import { LibraryService } from '../library'
import { layoutForHome } from '../platform'
import { MAX_SCANNED } from './plan'
import { searchCatalog } from './search'

const dir = mkdtempSync(join(tmpdir(), 'sepia-search15-'))
const home = join(dir, 'home')
let lib: LibraryService
const SMALL_TURNS = 3
const BIG_TURNS = Math.ceil(MAX_SCANNED / 2) + 200 // two matching messages per turn

function transcript(id: string, cwd: string, turns: number, padding = 0): void {
  const folder = join(home, '.claude/projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'))
  mkdirSync(folder, { recursive: true })
  const lines: string[] = []
  let parent: string | null = null
  for (let i = 0; i < turns; i++) {
    const u = `${id.slice(0, 8)}-u-${i}`
    const a = `${id.slice(0, 8)}-a-${i}`
    const ts = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString()
    lines.push(JSON.stringify({ parentUuid: parent, type: 'user', message: { role: 'user', content: `zorpquux question ${i}` }, uuid: u, timestamp: ts, cwd, sessionId: id }))
    lines.push(JSON.stringify({ parentUuid: u, type: 'assistant', message: { id: `msg_${a}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: `zorpquux answer ${i}` }] }, uuid: a, timestamp: ts, cwd, sessionId: id }))
    parent = a
  }
  // Non-matching turns make this file the larger one, so it is indexed first (oldest mids) when
  // refs go largest first; the test checks both projects, so the order does not decide the pass.
  for (let i = 0; i < padding; i++) {
    const u = `${id.slice(0, 8)}-pu-${i}`
    lines.push(JSON.stringify({ parentUuid: parent, type: 'user', message: { role: 'user', content: `filler ${'x'.repeat(200)} ${i}` }, uuid: u, timestamp: new Date(Date.UTC(2026, 0, 2) + i).toISOString(), cwd, sessionId: id }))
    parent = u
  }
  writeFileSync(join(folder, `${id}.jsonl`), lines.join('\n') + '\n')
}

beforeAll(async () => {
  transcript('aaaaaaaa-1111-4111-8111-000000000001', '/p/a-small', SMALL_TURNS, 20_000)
  transcript('bbbbbbbb-2222-4222-8222-000000000002', '/p/z-big', BIG_TURNS)
  lib = new LibraryService([{ layout: await layoutForHome({ home }), isDemo: false }], AGENTS, { now: () => 0 }, { workers: 0 })
  await lib.load()
  await lib.whenIdle()
}, 240_000)
afterAll(async () => {
  await lib.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('issue 15: search filters and limits', () => {
  it('a project filter finds every match of a small project behind more than MAX_SCANNED newer matches', () => {
    for (const [project, n] of [['/p/a-small', SMALL_TURNS * 2], ['/p/z-big', BIG_TURNS * 2]] as const) {
      const r = searchCatalog(lib.db, lib.homePaths, 'zorpquux', { project, limit: 500 })
      expect(r.hits.length).toBe(Math.min(n, 500))
      expect(r.hits.every((h) => h.project === project)).toBe(true)
      expect(r.more).toBe(n > 500)
    }
  })
  it('limit 200 returns 200 hits, and more is true when there are more matches', () => {
    const r = searchCatalog(lib.db, lib.homePaths, 'zorpquux', { limit: 200 })
    expect(r.hits.length).toBe(200)
    expect(r.more).toBe(true)
    const p = searchCatalog(lib.db, lib.homePaths, 'zorpquux', { project: '/p/z-big', limit: 200 })
    expect(p.hits.length).toBe(200)
    expect(p.more).toBe(true)
  })
})
