/**
 * Link Claude Code sub-agent sessions to their parents after a home's sessions are read.
 *
 * A sub-agent transcript (`<session id>/subagents/agent-<id>.jsonl`, or a legacy top-level
 * `agent-<id>.jsonl`) is spawned by an Agent/Task tool call. The call is found by, in order: the
 * sub-agent's `.meta.json` `toolUseId` (fixtures/real/claude-code, Claude Code 2.1.332), a call
 * already pointing at it, or the call whose tool result's `toolUseResult.agentId` names it
 * (fixtures/cases/claude-code/07-subagents). It is looked for in the session whose folder holds
 * the transcript first, then in that session's other sub-agents (`.meta.json` has a
 * `spawnDepth`: a sub-agent may spawn one of its own).
 */
import type { Session, ToolCall } from '../../../shared/ir'

/** The call in `s` that spawned sub-agent `child`, if any. */
function spawningCall(s: Session, child: Session): ToolCall | undefined {
  const calls = new Map<string, ToolCall>()
  for (const n of s.nodes) for (const c of n.toolCalls ?? []) calls.set(c.id, c)
  if (child.parentToolCallId !== undefined) {
    const c = calls.get(child.parentToolCallId)
    if (c) return c
  }
  for (const c of calls.values()) if (c.subagentSessionId === child.id) return c
  for (const n of s.nodes) {
    if (n.role === 'tool' && n.toolCallId && n.metadata?.agentId === child.id) return calls.get(n.toolCallId)
  }
  return undefined
}

/**
 * Set `parentToolCallId`, the parent's `childSessionIds` and the call's `subagentSessionId` for
 * every Claude Code sub-agent whose parent is among `sessions`. Mutates in place; idempotent.
 */
export function linkSessions(sessions: Session[]): void {
  const cc = sessions.filter((s) => s.agent === 'claude-code')
  const byId = new Map(cc.filter((s) => s.parentSessionId === undefined).map((s) => [s.id, s]))
  for (const child of cc) {
    const folderParent = child.parentSessionId === undefined ? undefined : byId.get(child.parentSessionId)
    if (!folderParent) continue
    const siblings = cc.filter((s) => s !== child && s.parentSessionId === folderParent.id)
    let parent = folderParent
    let call = spawningCall(folderParent, child)
    for (const s of siblings) {
      if (call) break
      call = spawningCall(s, child)
      if (call) parent = s
    }
    if (parent !== folderParent) {
      folderParent.childSessionIds = folderParent.childSessionIds?.filter((x) => x !== child.id)
      if (folderParent.childSessionIds?.length === 0) delete folderParent.childSessionIds
      child.parentSessionId = parent.id
    }
    const kids = (parent.childSessionIds ??= [])
    if (!kids.includes(child.id)) kids.push(child.id)
    if (!call) continue
    child.parentToolCallId = call.id
    call.subagentSessionId = child.id
  }
}
