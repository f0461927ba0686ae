/**
 * Live updates of the library: folding a {@link ChangeSet} from `getChanges` into the shown
 * {@link Library} without reading it again, so the list updates in place (no flicker, no lost
 * scroll position). Pure; the live store (`stores/live.ts`) polls and applies.
 */
import type { Library } from '../../shared/api'
import type { ChangeSet } from '../../shared/catalog'
import type { SessionSummary } from '../../shared/ir'
import { sessionKey } from './format'

/** The time a session sorts by in the library (newest first): start, else last activity. */
function when(s: SessionSummary): number {
  return s.createdAt ?? s.lastActivityAt ?? Number.NEGATIVE_INFINITY
}

/**
 * The library with `changes` applied: changed sessions replaced where they were, new ones added
 * (newest first), removed ones dropped, each agent's `sessionCount` recounted. Returns the same
 * object when nothing changed, and `null` when the change cannot be applied in place (a session of
 * an agent the library does not list): the caller then reads the library again.
 */
export function applyChanges(library: Library, changes: Pick<ChangeSet, 'changedSessions' | 'removedSessions'>): Library | null {
  if (changes.changedSessions.length === 0 && changes.removedSessions.length === 0) return library
  const agents = new Set(library.agents.map((a) => a.id))
  if (changes.changedSessions.some((s) => !agents.has(s.agent))) return null
  const changed = new Map(changes.changedSessions.map((s) => [sessionKey(s.agent, s.id), s]))
  const removed = new Set(changes.removedSessions.map((r) => sessionKey(r.agent, r.id)))
  const sessions: SessionSummary[] = []
  for (const s of library.sessions) {
    const key = sessionKey(s.agent, s.id)
    if (removed.has(key)) continue
    const next = changed.get(key)
    sessions.push(next ?? s)
    changed.delete(key)
  }
  const added = [...changed.values()].filter((s) => !removed.has(sessionKey(s.agent, s.id)))
  if (added.length) {
    sessions.push(...added)
    sessions.sort((a, b) => when(b) - when(a))
  }
  const counts = new Map<string, number>()
  for (const s of sessions) counts.set(s.agent, (counts.get(s.agent) ?? 0) + 1)
  return {
    ...library,
    sessions,
    agents: library.agents.map((a) => ({ ...a, sessionCount: counts.get(a.id) ?? 0 })),
  }
}

/** True when `changes` touch the session `key` (`${agent}/${id}`). */
export function touches(changes: Pick<ChangeSet, 'changedSessions' | 'removedSessions'>, key: string): boolean {
  return (
    changes.changedSessions.some((s) => sessionKey(s.agent, s.id) === key) || changes.removedSessions.some((r) => sessionKey(r.agent, r.id) === key)
  )
}
