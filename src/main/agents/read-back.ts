/**
 * A written session read back with its agent's own reader: discover the agent's stores under a home,
 * pick the session by id, read it. Agent-level (it only uses an {@link AgentDefinition}'s `discover`
 * and `read`), so the writers' tests and `convert/` (`convert.ts` compares what it wrote with this,
 * `verify.ts`) both use it without `agents/` importing `convert/`.
 */
import type { Session } from '../../shared/ir'
import type { HomeLayout } from '../platform'
import type { AgentDefinition, ReadContext } from './types'

/** The session `sessionId` as `target`'s reader sees it under `layout`, or undefined when not found. */
export async function readBack(target: AgentDefinition, layout: HomeLayout, sessionId: string, ctx: ReadContext): Promise<Session | undefined> {
  const { refs } = await target.discover(layout, ctx)
  const ref = refs.find((r) => r.sessionId === sessionId)
  return ref ? target.read(ref, ctx) : undefined
}
