/**
 * Read every session of one agent under a home the way the app does: discover → read each ref →
 * link. Shared by the conformance suite and reader tests.
 */
import type { Diagnostic, Session } from '../../src/shared/ir'
import { layoutForHome } from '../../src/main/platform'
import type { AgentDefinition, ReadContext, StoreRef } from '../../src/main/agents/types'

/** A fixed clock for tests (ms since epoch). */
export const fixedContext: ReadContext = { now: () => 0 }

/** Everything read from one home. */
export interface AgentHome {
  refs: StoreRef[]
  sessions: Session[]
  /** Discovery diagnostics. */
  diagnostics: Diagnostic[]
}

/** Discover, read and link all of `agent`'s sessions under `home` (layout detected from the folder). */
export async function readAgentHome(agent: AgentDefinition, home: string): Promise<AgentHome> {
  const layout = await layoutForHome({ home })
  const { refs, diagnostics } = await agent.discover(layout, fixedContext)
  const sessions: Session[] = []
  for (const ref of refs) sessions.push(await agent.read(ref, fixedContext))
  agent.link?.(sessions)
  return { refs, sessions, diagnostics }
}
