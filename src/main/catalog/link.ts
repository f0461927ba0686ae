/**
 * The link pass of a refresh: an agent's `link(sessions)` wants every session of a home at once,
 * but an incremental refresh reads only what changed. So each session keeps a small skeleton in
 * the catalog (`extract.ts` `skeletonOf`); after the changed sessions are written, the skeletons
 * of the (home, agent) groups that changed are linked together and the results (parent, spawning
 * call, children, call → sub-agent) are stored when they differ.
 */
import type { AgentId, Session } from '../../shared/ir'
import type { AgentDefinition } from '../agents/types'
import type { CatalogStore, LinkState } from './store'

/** What linking found for one session (read back from the linked skeleton; `read` is the skeleton before linking). */
export function linksOf(s: Session, readAgentName?: string): LinkState {
  const out: LinkState = {}
  if (s.parentSessionId !== undefined) out.parentSessionId = s.parentSessionId
  if (s.parentToolCallId !== undefined) out.parentToolCallId = s.parentToolCallId
  if (s.childSessionIds?.length) out.childSessionIds = [...s.childSessionIds]
  const calls: Record<string, string> = {}
  for (const n of s.nodes) for (const c of n.toolCalls ?? []) if (c.subagentSessionId !== undefined) calls[c.id] = c.subagentSessionId
  if (Object.keys(calls).length) out.callLinks = calls
  if (s.agentName !== undefined && s.agentName !== readAgentName) out.agentName = s.agentName
  return out
}

function same(a: LinkState, b: LinkState): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/**
 * Link the skeletons of `agent` under `home` and store what changed. Children whose parent is
 * known also appear in the parent's `childSessionIds` for agents without a link function.
 * Returns the number of sessions whose links changed. Never throws for a link error: the
 * message is returned for a diagnostic.
 */
export function linkGroup(store: CatalogStore, home: string, agent: AgentDefinition): { changed: number; error?: string } {
  const rows = store.skeletons(home, agent.id as AgentId)
  const sessions = rows.map((r) => r.skeleton)
  const readNames = sessions.map((s) => s.agentName)
  let error: string | undefined
  try {
    agent.link?.(sessions)
  } catch (e) {
    error = e instanceof Error ? e.message : String(e)
  }
  // Children named by a parent id: list them under the parent even when no link() did.
  const byId = new Map(sessions.map((s) => [s.id, s]))
  for (const s of sessions) {
    if (s.parentSessionId === undefined) continue
    const p = byId.get(s.parentSessionId)
    if (!p || p === s) continue
    const kids = (p.childSessionIds ??= [])
    if (!kids.includes(s.id)) kids.push(s.id)
  }
  const updates: { sid: number; links: LinkState }[] = []
  rows.forEach((r, i) => {
    const links = linksOf(sessions[i]!, readNames[i])
    if (!same(links, r.links)) updates.push({ sid: r.sid, links })
  })
  store.updateLinks(updates)
  return error === undefined ? { changed: updates.length } : { changed: updates.length, error }
}

/** Apply stored link results to a freshly read session (what `link()` did when it was indexed). */
export function applyLinks(session: Session, links: LinkState): Session {
  if (links.parentSessionId !== undefined) session.parentSessionId = links.parentSessionId
  if (links.parentToolCallId !== undefined) session.parentToolCallId = links.parentToolCallId
  if (links.childSessionIds?.length) session.childSessionIds = [...links.childSessionIds]
  if (links.agentName !== undefined) session.agentName = links.agentName
  const calls = links.callLinks
  if (calls) {
    for (const n of session.nodes) for (const c of n.toolCalls ?? []) {
      const child = calls[c.id]
      if (child !== undefined) c.subagentSessionId = child
    }
  }
  return session
}
