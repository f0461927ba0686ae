/**
 * Link Gemini CLI sub-agent sessions to their parents after a home's sessions are read.
 *
 * A sub-agent's chat is `chats/<parent session id>/<id>.jsonl` (header `kind: "subagent"`), and
 * the parent's `invoke_agent` tool call records the sub-agent's session id as `agentId`
 * (fixtures/real/gemini/README.md "Worth knowing", Gemini CLI 0.61.0), which the reader already
 * put in the call's `subagentSessionId`. The sub-agent's name is the call's `agent_name` argument.
 */
import type { Session, ToolCall } from '../../../shared/ir'

/** The call in `parent` that spawned `childId`, if any. */
function spawningCall(parent: Session, childId: string): ToolCall | undefined {
  for (const n of parent.nodes) for (const c of n.toolCalls ?? []) if (c.subagentSessionId === childId) return c
  return undefined
}

/**
 * Set `parentToolCallId` and `agentName` on every Gemini sub-agent whose parent is among
 * `sessions`, and the parent's `childSessionIds`. A sub-agent whose folder names no read session
 * is left as it is. Mutates in place; idempotent.
 */
export function linkSessions(sessions: Session[]): void {
  const gemini = sessions.filter((s) => s.agent === 'gemini')
  const byId = new Map(gemini.map((s) => [s.id, s]))
  for (const child of gemini) {
    const parent = child.parentSessionId === undefined ? undefined : byId.get(child.parentSessionId)
    if (!parent || parent === child) continue
    const kids = (parent.childSessionIds ??= [])
    if (!kids.includes(child.id)) kids.push(child.id)
    const call = spawningCall(parent, child.id)
    if (!call) continue
    child.parentToolCallId = call.id
    const args = call.arguments as Record<string, unknown> | undefined
    if (child.agentName === undefined && typeof args?.agent_name === 'string') child.agentName = args.agent_name
  }
}
