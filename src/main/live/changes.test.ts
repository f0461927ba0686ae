/**
 * `getChanges` polling (issue 15): a poll whose token is the catalog's current gen answers without
 * querying the session rows (idle CPU), and a session written after a token is still reported.
 */
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { AGENTS } from '../agents/registry'
import { LibraryService } from '../library'
import { layoutForHome } from '../platform'

const HOME = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'real', 'claude-code', 'home')

describe('changes(token)', () => {
  it('does not query the rows when nothing was written since the token, and reports what was', async () => {
    const cc = AGENTS.filter((a) => a.id === 'claude-code')
    const lib = new LibraryService([{ layout: await layoutForHome({ home: HOME }), isDemo: false }], cc, { now: Date.now }, { workers: 0, livePollMs: 0 })
    const first = await lib.changes()
    await lib.refresh()
    await lib.whenIdle()
    const spy = vi.spyOn(lib.store, 'changedSince')
    const after = await lib.changes(first.token)
    expect(spy).toHaveBeenCalledTimes(1)
    const listed = (await lib.load()).sessions.length
    expect(listed).toBeGreaterThan(0)
    expect(after.changedSessions.length).toBe(listed)
    const idle = await lib.changes(after.token)
    expect(idle.changedSessions).toEqual([])
    expect(idle.token).toBe(after.token)
    expect(spy).toHaveBeenCalledTimes(1)
    await lib.close()
  })
})
