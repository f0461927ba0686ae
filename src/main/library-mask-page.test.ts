/**
 * Pages of a session read whole while its masked copy is made in slices (`maskSessionSliced`,
 * `pageWhileMasking`, `LibraryService.getSessionPage`; issue 15, BENCHMARKS.md "Renderer, session
 * 12"): every page of real Claude Code sessions (fixtures/public-real) must be what
 * `pageOf(maskSession(whole))` gives — nodes, offset, counts and header, `maskedSecrets` aside
 * while the page says `partial` — and exactly that once the copy is made. One session gets fake
 * secrets planted (a GitHub token in prompts and tool results, a value under a secret-named tool
 * argument), so the masked strings and the count are checked too.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDirs } from '../../tests/helpers/temp'
import { FAKE_SECRETS } from '../../tests/builders/secrets/fake-secrets'
import type { SessionPage } from '../shared/catalog'
import type { Session } from '../shared/ir'
import { AGENTS } from './agents/registry'
import type { ReadContext } from './agents/types'
import { findIn, pageOf, wholeNode } from './catalog/page'
import { findAppRoot } from './context'
import { LibraryService, pageWhileMasking, type OpenHome } from './library'
import { layoutForHome } from './platform'
import { maskedSessionOf, maskSession, maskSessionSliced } from './secrets'
import { countTurns } from '../../tests/helpers/turns'

const ROOT = findAppRoot()
const ctx: ReadContext = { now: () => 1_800_000_000_000 }
const temp = tempDirs()
const LIMIT = 25
const GITHUB = FAKE_SECRETS.find((s) => s.kind === 'github')!.secret
/** A value under a secret-named tool argument (`api_token`): masked by its key, not its shape. */
const NAMED = 'q7Rz2Lw9Vt4Kx8Bn'

/** Real Claude Code sessions of fixtures/public-real: [fixture, project folder, session id]. */
const SESSIONS: [string, string, string][] = [
  ['omp-compact-api-error', 'D--oh-my-posh', '6b6f4218-0b12-4d55-b930-462903683bea'],
  ['entire-215-api-errors', '-Users-soph-Work-entire-devenv-cli', 'b00b80af-879f-4265-b95b-48db0938673c'],
  ['entire-2129-image', '-Users-alex-workspace-cli--worktrees-1', '062a8bdd-4322-4ffa-bc38-3e8b8bfb5a56'],
  ['sword-1090-siblings', '-home-ubuntu-Documents-livecd-gen', '155c3456-9cd0-4d8f-8db3-d0560ca1851c'],
]

async function library(home: string): Promise<LibraryService> {
  const homes: OpenHome[] = [{ layout: await layoutForHome({ home }), isDemo: false }]
  // No prefix reads: every page below comes from the whole read; pages do not wait for the masked copy.
  const lib = new LibraryService(homes, AGENTS, ctx, { workers: 0, prefix: { minSize: Number.MAX_SAFE_INTEGER }, maskWaitMs: 0 })
  await lib.load()
  return lib
}

/** Copy a fixture home; with `plant`, put the fake secrets into every 7th prompt or tool result and every 5th tool call. */
function copyHome(fixture: string, project: string, id: string, plant: boolean): string {
  const home = join(temp('sepia-mask-page-'), 'home')
  cpSync(join(ROOT, 'fixtures/public-real/claude-code', fixture, 'home'), home, { recursive: true })
  if (!plant) return home
  const file = join(home, '.claude/projects', project, `${id}.jsonl`)
  let texts = 0
  let calls = 0
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => {
      if (!line.trim()) return line
      const r = JSON.parse(line) as { type?: string; message?: { content?: unknown } }
      const content = r.message?.content
      if (r.type === 'user' && typeof content === 'string' && texts++ % 7 === 0) r.message!.content = `${content}\nclone with token ${GITHUB}`
      else if (Array.isArray(content)) {
        for (const b of content as { type?: string; content?: unknown; input?: Record<string, unknown> }[]) {
          if (b.type === 'tool_result' && typeof b.content === 'string' && texts++ % 7 === 0) b.content = `${b.content}\nGH_TOKEN=${GITHUB}`
          if (b.type === 'tool_use' && b.input && typeof b.input === 'object' && calls++ % 5 === 0) b.input = { ...b.input, api_token: NAMED }
        }
      } else return line
      return JSON.stringify(r)
    })
  writeFileSync(file, lines.join('\n'))
  return home
}

/** `page` without what a partial page may still lack (`partial`, the header's `maskedSecrets`). */
function settledPart(page: SessionPage): unknown {
  const { partial: _p, session, ...rest } = page
  const { maskedSecrets: _m, ...header } = session
  return { ...rest, session: header }
}

describe('pages while the whole masked copy is made in slices', () => {
  it.each(SESSIONS.map((s, i) => [...s, i === 0] as const))('every page of %s is pageOf(maskSession(whole))\'s', async (fixture, project, id, plant) => {
    const lib = await library(copyHome(fixture, project, id, plant))
    const raw = await lib.getSession('claude-code', id, { reveal: true })
    // The reference: the whole session masked in one go (a clone, so `raw` keeps no masked copy).
    const ref = maskSession(structuredClone(raw))
    const offsets = Array.from({ length: Math.ceil(raw.nodes.length / LIMIT) }, (_, i) => i * LIMIT)
    expect(offsets.length).toBeGreaterThan(10)
    if (plant) {
      expect(ref.maskedSecrets).toBeGreaterThan(20)
      expect(JSON.stringify(raw)).toContain(GITHUB)
    }

    // Each page masked on its own, as a page is answered before the whole copy is made.
    for (const offset of offsets) {
      const want = pageOf(ref, { offset, limit: LIMIT })
      const got = pageWhileMasking(raw, { offset, limit: LIMIT })
      expect(got.partial).toBe(true)
      expect(settledPart(got)).toEqual(settledPart(want))
      if (plant) expect(JSON.stringify(got)).not.toContain(GITHUB)
    }
    // Pages asked by node id and with a cut, the same way.
    const mid = raw.nodes[Math.floor(raw.nodes.length / 2)]!.nodeId
    expect(settledPart(pageWhileMasking(raw, { nodeId: mid, limit: LIMIT, maxChars: 300 }))).toEqual(settledPart(pageOf(ref, { nodeId: mid, limit: LIMIT, maxChars: 300 })))
    // A whole node ("show all") before the copy is made, and find over it.
    expect(await lib.getSessionNode('claude-code', id, mid)).toEqual(wholeNode(ref, mid))
    expect(maskedSessionOf(raw)).toBeUndefined()

    // Through the library: partial pages first (the copy is being made), then the exact pages.
    const got = await Promise.all(offsets.map((offset) => lib.getSessionPage('claude-code', id, { offset, limit: LIMIT })))
    expect(got[0]!.partial).toBe(true)
    got.forEach((page, i) => {
      const want = pageOf(ref, { offset: offsets[i]!, limit: LIMIT })
      if (page.partial) expect(settledPart(page)).toEqual(settledPart(want))
      else expect(page).toEqual(want)
    })
    await expect.poll(async () => (await lib.getSessionPage('claude-code', id, { offset: 0, limit: LIMIT })).partial, { timeout: 30_000 }).toBeUndefined()
    for (const offset of offsets) {
      const page = await lib.getSessionPage('claude-code', id, { offset, limit: LIMIT })
      expect(page).toEqual(pageOf(ref, { offset, limit: LIMIT }))
      expect(page.session.maskedSecrets).toBe(ref.maskedSecrets)
    }
    // The other callers get the same whole copy.
    const masked = await lib.getSession('claude-code', id)
    expect(masked).toEqual(ref)
    expect(maskSession(raw)).toBe(masked)
    expect(await lib.findInSession('claude-code', id, 'token')).toEqual(findIn(ref, 'token'))
    if (plant) {
      const text = JSON.stringify(masked)
      expect(text).not.toContain(GITHUB)
      expect(text).not.toContain(NAMED)
      expect(text).toContain('ghp_')
      expect(text).toContain('•••• (GitHub token)')
    }
    await lib.close()
  }, 60_000)
})

describe('maskSessionSliced', () => {
  /** The planted real session as read, a new copy each call (no masked copy cached for it). */
  async function readPlanted(): Promise<{ lib: LibraryService; session: () => Session }> {
    const [fixture, project, id] = SESSIONS[0]!
    const lib = await library(copyHome(fixture, project, id, true))
    const raw = await lib.getSession('claude-code', id, { reveal: true })
    return { lib, session: () => structuredClone(raw) }
  }

  it('gives maskSession\'s copy and count, letting other callbacks run between its slices', async () => {
    const { lib, session } = await readPlanted()
    const a = session()
    const b = session()
    expect(a).not.toBe(b)
    const turns = countTurns()
    const sliced = maskSessionSliced(a, 0)
    // A second call while it runs shares it.
    expect(maskSessionSliced(a, 0)).toBe(sliced)
    const got = await sliced
    expect(turns.stop()).toBeGreaterThan(1)
    const want = maskSession(b)
    expect(got).toEqual(want)
    expect(got.maskedSecrets).toBe(want.maskedSecrets)
    expect(got.maskedSecrets).toBeGreaterThan(20)
    // Cached: the same copy from either, and a masked session passes through.
    expect(maskSession(a)).toBe(got)
    expect(await maskSessionSliced(a)).toBe(got)
    expect(await maskSessionSliced(got)).toBe(got)
    await lib.close()
  })

  it('returns the copy maskSession made while it ran', async () => {
    const { lib, session } = await readPlanted()
    const a = session()
    const sliced = maskSessionSliced(a, 0)
    const whole = maskSession(a)
    expect(await sliced).toBe(whole)
    await lib.close()
  })
})
