/**
 * Test helpers for the Cursor readers (used by this folder's and `cursor-agent/`'s tests only):
 * discover → read → link under a generated home, and IR JSON with the temporary home replaced by
 * `<home>` so goldens do not depend on where the fixture was written.
 */
import type { HomeOs, Session } from '../../../src/shared/ir'
import { layoutForHome } from '../../../src/main/platform'
import type { AgentDefinition, DiscoverResult, ReadContext, StoreRef } from '../../../src/main/agents/types'

/** A fixed clock for tests (ms since epoch). */
export const testContext: ReadContext = { now: () => 0 }

/** Everything read from one generated home. */
export interface ReadResult {
  refs: StoreRef[]
  discovery: DiscoverResult['diagnostics']
  sessions: Session[]
  byId(id: string): Session
}

/** Discover, read and link `agent`'s sessions under `home` (layout of `os`). */
export async function readGenerated(agent: AgentDefinition, home: string, os: HomeOs = 'linux'): Promise<ReadResult> {
  const layout = await layoutForHome({ home, os })
  const { refs, diagnostics } = await agent.discover(layout, testContext)
  const sessions: Session[] = []
  for (const ref of refs) sessions.push(await agent.read(ref, testContext))
  agent.link?.(sessions)
  sessions.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return {
    refs,
    discovery: diagnostics,
    sessions,
    byId(id) {
      const s = sessions.find((x) => x.id === id)
      if (!s) throw new Error(`no session ${id} (have ${sessions.map((x) => x.id).join(', ')})`)
      return s
    },
  }
}

/** `value` as JSON with every occurrence of `home` replaced by `<home>` (stable goldens). */
export function withoutHome(value: unknown, home: string): unknown {
  return JSON.parse(JSON.stringify(value).split(home).join('<home>'))
}
