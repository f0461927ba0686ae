/**
 * Test helper shared by the readers' tests: discover, read and link every session of one agent
 * under a home folder, the way the library does (discover → read each ref → link).
 */
import type { Diagnostic, HomeOs, Session } from '../../src/shared/ir'
import { layoutForHome } from '../../src/main/platform'
import type { AgentDefinition, ReadContext, StoreRef } from '../../src/main/agents/types'

/** A fixed clock for tests (ms since epoch). */
export const testContext: ReadContext = { now: () => 0 }

/** Everything read from one home. */
export interface ReadHome {
  refs: StoreRef[]
  sessions: Session[]
  /** Discovery diagnostics. */
  diagnostics: Diagnostic[]
  /** Session by id; throws when absent (so tests fail with a clear message). */
  byId(id: string): Session
}

/** Discover, read and link all of `agent`'s sessions under `home` (a `os`-layout home, linux by default). */
export async function readHomeOf(agent: AgentDefinition, home: string, os: HomeOs = 'linux'): Promise<ReadHome> {
  const layout = await layoutForHome({ home, os })
  const { refs, diagnostics } = await agent.discover(layout, testContext)
  const sessions: Session[] = []
  for (const ref of refs) sessions.push(await agent.read(ref, testContext))
  agent.link?.(sessions)
  return {
    refs,
    sessions,
    diagnostics,
    byId(id) {
      const s = sessions.find((x) => x.id === id)
      if (!s) throw new Error(`no session ${id} under ${home} (have ${sessions.map((x) => x.id).join(', ')})`)
      return s
    },
  }
}
