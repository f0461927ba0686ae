/**
 * Link Cline sub-agent sessions to their parents after every session of a home is read
 * (seed 002 "Sub-agent/session tree": the SDK keeps parent_session_id / agent_id / is_subagent;
 * `fixtures/real/cline/README.md`: the sub-agent of a `spawn_agent` call is its own session).
 */
import type { Session, ToolCall } from '../../../shared/ir'
import { firstPrompt } from '../../ir/build'
import { isRecord } from '../../util/json'

/** Tool names that spawn a sub-agent session (SDK `spawn_agent`, legacy/Roo `new_task`). */
const SPAWN_TOOLS = new Set(['spawn_agent', 'new_task'])

/**
 * For every session with `parentSessionId`, add it to the parent's `childSessionIds` and link the
 * parent's spawning tool call: first by task text (the call's `task`/`message`/`prompt` argument
 * equals the child's first prompt or `metadata.sessionRow.prompt`), then by order among the calls
 * left (nth unmatched child by creation time ↔ nth unmatched spawn call). Sets
 * `ToolCall.subagentSessionId` and the child's `parentToolCallId`. Mutates in place; idempotent.
 */
export function linkSubagents(sessions: Session[]): void {
  const byId = new Map(sessions.map((s) => [s.id, s]))
  const children = new Map<string, Session[]>()
  for (const s of sessions) {
    if (!s.parentSessionId || !byId.has(s.parentSessionId)) continue
    const list = children.get(s.parentSessionId) ?? []
    list.push(s)
    children.set(s.parentSessionId, list)
  }
  for (const [parentId, kids] of children) {
    const parent = byId.get(parentId)!
    kids.sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0) || a.id.localeCompare(b.id))
    const ids = new Set(parent.childSessionIds ?? [])
    for (const k of kids) ids.add(k.id)
    parent.childSessionIds = [...ids]
    const calls: ToolCall[] = parent.nodes.flatMap((n) => n.toolCalls ?? []).filter((c) => SPAWN_TOOLS.has(c.name))
    const free = calls.filter((c) => !c.subagentSessionId || !ids.has(c.subagentSessionId))
    const unmatched: Session[] = []
    for (const k of kids) {
      if (k.parentToolCallId && calls.some((c) => c.id === k.parentToolCallId)) continue
      const prompt = normal(firstPrompt(k) ?? promptOfRow(k))
      const idx = prompt ? free.findIndex((c) => normal(taskOf(c)) === prompt) : -1
      if (idx >= 0) attach(free.splice(idx, 1)[0]!, k)
      else unmatched.push(k)
    }
    for (const k of unmatched) {
      const c = free.shift()
      if (c) attach(c, k)
    }
  }
}

function attach(call: ToolCall, child: Session): void {
  call.subagentSessionId = child.id
  child.parentToolCallId = call.id
}

function taskOf(call: ToolCall): string | undefined {
  const a = call.arguments
  if (!isRecord(a)) return undefined
  for (const k of ['task', 'message', 'prompt']) if (typeof a[k] === 'string') return a[k] as string
  return undefined
}

function promptOfRow(s: Session): string | undefined {
  const row = s.metadata.sessionRow
  return isRecord(row) && typeof row.prompt === 'string' ? row.prompt : undefined
}

function normal(text: string | undefined): string | undefined {
  const t = text?.replace(/\s+/g, ' ').trim()
  return t || undefined
}
