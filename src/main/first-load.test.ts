/**
 * One-shot hosts (the CLI, `serve`) refresh the catalog before their first answer. A command that
 * refreshes first (`sepia search`: refresh, fill the search index, search) must not discover every
 * store a second time when its search loads the library, nor leave a background refresh running
 * after its answer (issue 15: `sepia search` at 10k sessions discovered twice).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AGENTS } from './agents/registry'
import type { AgentDefinition } from './agents/types'
import { LibraryService } from './library'
import { layoutForHome } from './platform'

const HOME = join(import.meta.dirname, '..', '..', 'fixtures', 'real', 'claude-code', 'home')

/** Claude Code with its discoveries counted; without its freshness snapshot unless `fresh` (src/main/catalog/freshness.ts). */
async function counted(fresh = false): Promise<{ lib: LibraryService; discoveries: () => number }> {
  const { freshness, ...cc } = AGENTS.find((a) => a.id === 'claude-code')!
  let n = 0
  const agent: AgentDefinition = { ...cc, ...(fresh && freshness ? { freshness } : {}), discover: (layout, ctx) => (n++, cc.discover(layout, ctx)) }
  const lib = new LibraryService([{ layout: await layoutForHome({ home: HOME }), isDemo: false }], [agent], { now: Date.now }, { refreshFirstLoad: true, workers: 0 })
  return { lib, discoveries: () => n }
}

/** Top-level Claude Code transcripts in the fixture, read from the folders (not through Sepia). */
function transcripts(): number {
  const projects = join(HOME, '.claude', 'projects')
  return readdirSync(projects).reduce((n, d) => n + readdirSync(join(projects, d)).filter((f) => f.endsWith('.jsonl')).length, 0)
}

describe('first load of a one-shot host', () => {
  it('refreshes once when nothing refreshed before it', async () => {
    const { lib, discoveries } = await counted()
    const library = await lib.load({ partial: true })
    await lib.whenIdle()
    expect(discoveries()).toBe(1)
    expect(library.sessions.filter((s) => !s.parentSessionId).length).toBe(transcripts())
    await lib.close()
  })
  it('does not discover again after a whole refresh of the same homes', async () => {
    const { lib, discoveries } = await counted()
    await lib.refresh()
    await lib.whenIdle()
    const library = await lib.load({ partial: true })
    await lib.whenIdle()
    expect(discoveries()).toBe(1)
    expect(library.sessions.filter((s) => !s.parentSessionId).length).toBe(transcripts())
    await lib.close()
  })
  it('still refreshes on the first load after a refresh of some agents only', async () => {
    const { lib, discoveries } = await counted()
    await lib.refresh(['claude-code'])
    await lib.load()
    expect(discoveries()).toBe(2)
    await lib.close()
  })
  it('skips the discovery of an agent whose freshness snapshot is unchanged, unless the refresh is asked for', async () => {
    const { lib, discoveries } = await counted(true)
    await lib.refresh()
    await lib.refresh()
    expect(discoveries()).toBe(1)
    await lib.load({ refresh: true })
    expect(discoveries()).toBe(2)
    await lib.close()
  })
})
