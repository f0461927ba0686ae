/**
 * Link Cursor IDE sub-agent sessions to their parents after a home's sessions are read
 * (shared/formats/cursor-devin-atif-acp.md §A3, §F13):
 * - sub-composers: the parent lists them in `subComposerIds`/`subagentComposerIds` (kept in
 *   `metadata.subComposerIds`), or the child names its parent (`subagentInfo.parentComposerId`,
 *   set as `parentSessionId` at discovery);
 * - `task-<toolCallId>` sessions (`bubbleId:task-<toolCallId>:*`): the parent is the session
 *   holding the `task_v2` call with that id;
 * - a call whose `additionalData.composerData` names a composer (`metadata.subagentComposerId`)
 *   spawned that composer.
 */
import type { Session, ToolCall } from '../../../shared/ir'

function addChild(parent: Session, child: Session): void {
  const kids = (parent.childSessionIds ??= [])
  if (!kids.includes(child.id)) kids.push(child.id)
  child.parentSessionId ??= parent.id
}

/** Set parent/child links and spawning calls among `sessions` (Cursor ones). Mutates in place; idempotent. */
export function linkCursorSessions(sessions: Session[]): void {
  const cursor = sessions.filter((s) => s.agent === 'cursor')
  const byId = new Map(cursor.map((s) => [s.id, s]))
  const calls = new Map<string, { session: Session; call: ToolCall }>()
  for (const s of cursor) for (const n of s.nodes) for (const call of n.toolCalls ?? []) calls.set(call.id, { session: s, call })
  for (const s of cursor) {
    const subs = s.metadata.subComposerIds
    for (const id of Array.isArray(subs) ? subs : []) {
      const child = typeof id === 'string' ? byId.get(id) : undefined
      if (child && child !== s) addChild(s, child)
    }
    for (const n of s.nodes) {
      const childId = n.metadata?.subagentComposerId
      const child = typeof childId === 'string' ? byId.get(childId) : undefined
      const call = n.toolCalls?.[0]
      if (!child || !call || child === s) continue
      addChild(s, child)
      call.subagentSessionId = child.id
      child.parentToolCallId ??= call.id
    }
  }
  for (const child of cursor) {
    if (child.parentSessionId !== undefined) {
      const parent = byId.get(child.parentSessionId)
      if (parent) addChild(parent, child)
    }
    const callId = child.parentToolCallId ?? (child.id.startsWith('task-') ? child.id.slice('task-'.length) : undefined)
    const found = callId === undefined ? undefined : calls.get(callId)
    if (!found || found.session === child) continue
    if (child.parentSessionId !== undefined && child.parentSessionId !== found.session.id) continue
    addChild(found.session, child)
    child.parentToolCallId = found.call.id
    found.call.subagentSessionId = child.id
  }
}
