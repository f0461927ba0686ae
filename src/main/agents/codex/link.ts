/**
 * Link Codex sub-agent sessions to their parents after a home's rollouts are read.
 *
 * A sub-agent is a rollout of its own whose `session_meta` names the parent thread
 * (`parent_thread_id`, `source.subagent.thread_spawn.parent_thread_id`; or the thread database's
 * `thread_spawn_edges`). The parent spawned it with a `spawn_agent` call whose result names the
 * new thread (`{"agent_id": "<thread id>", "nickname": ...}`, or the `CollabAgentToolCall`
 * event's `receiver_thread_ids`) — fixtures/real/codex agent and sub-agent scenarios (0.171.0).
 * The reader keeps that id as `metadata.agentId` on the result node.
 */
import type { Session, ToolCall } from '../../../shared/ir'

/** The call in `parent` that spawned `childId`, if its result names the child. */
function spawningCall(parent: Session, childId: string): ToolCall | undefined {
  const calls = new Map<string, ToolCall>()
  for (const n of parent.nodes) for (const c of n.toolCalls ?? []) calls.set(c.id, c)
  for (const c of calls.values()) if (c.subagentSessionId === childId) return c
  for (const n of parent.nodes) {
    if (n.role === 'tool' && n.toolCallId !== undefined && n.metadata?.agentId === childId) return calls.get(n.toolCallId)
  }
  return undefined
}

/**
 * For every Codex session whose `parentSessionId` names a session in `sessions`: add it to the
 * parent's `childSessionIds` and point the spawning call at it (`subagentSessionId`,
 * `parentToolCallId`). Mutates in place; idempotent.
 */
export function linkSessions(sessions: Session[]): void {
  const codex = sessions.filter((s) => s.agent === 'codex')
  const byId = new Map(codex.map((s) => [s.id, s]))
  for (const child of codex) {
    if (child.parentSessionId === undefined) continue
    const parent = byId.get(child.parentSessionId)
    if (!parent || parent === child) continue
    const kids = (parent.childSessionIds ??= [])
    if (!kids.includes(child.id)) kids.push(child.id)
    const call = spawningCall(parent, child.id)
    if (!call) continue
    call.subagentSessionId = child.id
    child.parentToolCallId = call.id
  }
}
