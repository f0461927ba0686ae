/**
 * Link OpenCode-family sub-agent sessions to their parents after a home's sessions are read.
 *
 * A sub-agent is a child session (`session.parent_id`) that the parent's `task` tool call spawned
 * (fixtures/real/opencode scenario "agent"/"sub-agent"). The spawning call is found by, in order:
 * a call whose `subagentSessionId` already names the child (the call's `state.metadata.sessionId`
 * or the `<task id="...">` in its output, set when reading), else the first unlinked `task` call
 * whose `description` argument starts the child's title (OpenCode titles a child
 * `<description> (@<agent> subagent)`).
 */
import type { Session, ToolCall } from '../../../shared/ir'
import { obj, str } from './values'

function taskCalls(s: Session): ToolCall[] {
  return s.nodes.flatMap((n) => n.toolCalls ?? []).filter((c) => c.name.toLowerCase() === 'task')
}

/**
 * Set the parent's `childSessionIds`, the child's `parentToolCallId` and the call's
 * `subagentSessionId` for every session in `sessions` whose format is in `formats` and whose
 * parent is among them. Mutates in place; idempotent.
 */
export function linkFamilySessions(sessions: Session[], formats: ReadonlySet<string>): void {
  const family = sessions.filter((s) => formats.has(s.source.format))
  const byId = new Map(family.map((s) => [s.id, s]))
  const claimed = new Set<ToolCall>()
  for (const s of family) for (const c of taskCalls(s)) if (c.subagentSessionId !== undefined) claimed.add(c)
  for (const child of family) {
    const parent = child.parentSessionId === undefined ? undefined : byId.get(child.parentSessionId)
    if (!parent) continue
    const kids = (parent.childSessionIds ??= [])
    if (!kids.includes(child.id)) kids.push(child.id)
    const calls = taskCalls(parent)
    let call = calls.find((c) => c.subagentSessionId === child.id)
    if (!call && child.title !== undefined) {
      const title = child.title
      call = calls.find((c) => {
        const d = str(obj(c.arguments)?.description)
        return !claimed.has(c) && d !== undefined && d !== '' && (title === d || title.startsWith(`${d} (@`))
      })
    }
    if (!call) continue
    claimed.add(call)
    call.subagentSessionId = child.id
    child.parentToolCallId = call.id
  }
}
