/**
 * Link Cursor agent sub-agent transcripts (`agent-transcripts/<id>/subagents/<subId>.jsonl`) to
 * their parent session. The file has no link back to the spawning call (shared/formats/
 * cursor-devin-atif-acp.md §F27: "pair by order/time"): the parent's `Task`/`Subagent` calls, in
 * order, are paired with the children sorted by time (then id) only when the counts match;
 * otherwise only the parent/child link is set.
 */
import type { Session } from '../../../shared/ir'

const SPAWN = /^(task|subagent|task_v2)$/i

/** Set `childSessionIds`, and `parentToolCallId`/`subagentSessionId` when pairing is certain. Idempotent. */
export function linkCursorAgentSessions(sessions: Session[]): void {
  const mine = sessions.filter((s) => s.agent === 'cursor-agent')
  const byId = new Map(mine.map((s) => [s.id, s]))
  const children = new Map<string, Session[]>()
  for (const s of mine) {
    if (s.parentSessionId === undefined || !byId.has(s.parentSessionId)) continue
    const list = children.get(s.parentSessionId) ?? []
    list.push(s)
    children.set(s.parentSessionId, list)
  }
  for (const [parentId, kids] of children) {
    const parent = byId.get(parentId)!
    kids.sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    const ids = (parent.childSessionIds ??= [])
    for (const k of kids) if (!ids.includes(k.id)) ids.push(k.id)
    const calls = parent.nodes.flatMap((n) => n.toolCalls ?? []).filter((c) => SPAWN.test(c.name))
    if (calls.length !== kids.length) continue
    kids.forEach((k, i) => {
      const call = calls[i]!
      call.subagentSessionId = k.id
      k.parentToolCallId = call.id
    })
  }
}
