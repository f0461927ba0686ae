/**
 * Tool-call facts that live outside the assistant message: the `tool_call_state` table (ACP
 * ToolCall + latest ToolCallUpdate, the authoritative final status/kind, C5) and the result row's
 * extensions (`chisel/terminal_output` exit code, `chisel/tool_call_timing` duration,
 * `subagent/agent_id` naming the sub-agent a call spawned; C4). Source:
 * `shared/formats/cursor-devin-atif-acp.md` C4, C5, E; edge case 37 (a missing update row means
 * an interrupted call: "not failed", not unknown).
 */
import type { MessageNode, ToolCall } from '../../../shared/ir'
import { applyAcp } from './acp'
import type { ToolState } from './load'
import { resultFacts } from './message'
import type { Json } from './json'

/** Counts for session metadata. */
export interface CallFacts {
  /** `tool_call_state` rows applied to a call. */
  applied: number
  /** `tool_call_state` rows whose call is in no node of this session. */
  unmatched: number
}

/**
 * Apply `tool_call_state` and result-row facts to the calls of `nodes`. `msgs` are the parsed
 * chat messages by nodeId; `subagentSession(agentId)` gives the child session id of a live
 * sub-agent (undefined for a dangling or unknown one).
 */
export function applyCallFacts(
  nodes: MessageNode[],
  msgs: Map<string, Json>,
  tools: Map<string, ToolState>,
  subagentSession: (agentId: string) => string | undefined,
): CallFacts {
  const calls = new Map<string, ToolCall>()
  for (const n of nodes) for (const c of n.toolCalls ?? []) calls.set(c.id, c)
  let applied = 0
  for (const [id, state] of tools) {
    const call = calls.get(id)
    if (!call) continue
    applied++
    if (state.call) applyAcp(call, state.call, false)
    if (state.update) applyAcp(call, state.update, true)
  }
  for (const n of nodes) {
    if (n.role !== 'tool' || n.toolCallId === undefined) continue
    const call = calls.get(n.toolCallId)
    if (!call) continue
    const facts = resultFacts(msgs.get(n.nodeId) ?? {})
    if (facts.exitCode !== undefined) call.exitCode = facts.exitCode
    if (facts.durationMs !== undefined) call.durationMs = facts.durationMs
    if (n.isError) call.isError = true
    const agentId = n.metadata?.subagentAgentId
    const child = typeof agentId === 'string' ? subagentSession(agentId) : undefined
    if (child !== undefined) call.subagentSessionId = child
  }
  const unmatched = [...tools.keys()].filter((id) => !calls.has(id)).length
  return { applied, unmatched }
}
