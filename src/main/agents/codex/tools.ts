/**
 * Codex tool-call response items → IR {@link ToolCall}s.
 *
 * Item shapes (codex-rs `protocol/src/models.rs` `ResponseItem`; fixtures/real/codex 0.171.0;
 * fixtures/public/codex claude-code-log samples):
 * - `function_call {name, arguments (a JSON string), call_id, namespace?}` — `exec_command`,
 *   `shell`, `spawn_agent` (namespace `multi_agent_v1`), MCP tools...;
 * - `custom_tool_call {name, input (free text), call_id}` — `apply_patch` in 0.171.0;
 * - `local_shell_call {call_id?, id?, status, action {type:"exec", command[], ...}}`;
 * - `web_search_call {id?, status, action {type:"search", query} | ...}` (no separate output);
 * - `tool_search_call {call_id, arguments}`, `image_generation_call {id, status, revised_prompt}`.
 * Results: `function_call_output` / `custom_tool_call_output` / `tool_search_output` with `call_id`.
 */
import type { ToolCall, ToolCallStatus } from '../../../shared/ir'
import { toolKind } from '../../ir/toolkind'
import { parsePatch, patchTextOf } from './patch'
import { type Json, obj, str, tryJson } from './records'

/** Item types that are tool calls. */
export const CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call', 'tool_search_call', 'image_generation_call'])
/** Item types that are tool results. */
export const RESULT_TYPES = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output'])

/** The tool name Codex uses for items that carry none (`local_shell_call` → `local_shell`...). */
const IMPLIED_NAME: Record<string, string> = {
  local_shell_call: 'local_shell',
  web_search_call: 'web_search',
  tool_search_call: 'tool_search',
  image_generation_call: 'image_generation',
}

/** Arguments as recorded: a JSON string parsed when valid, else kept raw. */
function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value
  const parsed = tryJson(value)
  return parsed === undefined ? value : parsed
}

/** A tool call built from one item (its `function_call.namespace` is `call.namespace`). */
export interface BuiltCall {
  call: ToolCall
}

/**
 * Build the IR call of one tool-call item. `fallbackId` names calls whose item has no id (web
 * searches); `cwd` resolves relative `apply_patch` paths. Undefined for a non-call item.
 */
export function buildCall(p: Json, fallbackId: string, cwd: string | undefined): BuiltCall | undefined {
  const type = str(p.type) ?? ''
  if (!CALL_TYPES.has(type)) return undefined
  const name = str(p.name) ?? IMPLIED_NAME[type] ?? type
  const id = str(p.call_id) ?? str(p.id) ?? fallbackId
  let args: unknown
  if (type === 'function_call') args = parseArguments(p.arguments)
  else if (type === 'custom_tool_call') args = p.input
  else if (type === 'local_shell_call' || type === 'web_search_call') args = p.action
  else if (type === 'tool_search_call') args = parseArguments(p.arguments)
  else args = p.revised_prompt === undefined ? {} : { revised_prompt: p.revised_prompt }
  const call: ToolCall = { id, name, kind: toolKind(name), arguments: args ?? null }
  // Hosted tools have no output item: their own status is the only outcome recorded.
  if (type === 'web_search_call' || type === 'image_generation_call') {
    const status = itemStatus(p.status)
    if (status !== undefined) call.status = status
  }
  const patch = patchTextOf(name, args)
  const facts = patch === undefined ? undefined : parsePatch(patch, cwd)
  if (facts) {
    if (facts.diffs.length > 0) call.diffs = facts.diffs
    call.locations = facts.locations
  }
  const namespace = str(p.namespace)
  if (namespace !== undefined) call.namespace = namespace
  return { call }
}

/** A hosted item's `status` → ACP status (`completed`, `failed`, `in_progress`). */
function itemStatus(value: unknown): ToolCallStatus | undefined {
  if (value === 'completed') return 'completed'
  if (value === 'failed' || value === 'incomplete') return 'failed'
  if (value === 'in_progress' || value === 'searching' || value === 'generating') return 'in_progress'
  return undefined
}

/** The `call_id` a result item answers, or undefined. */
export function resultCallId(p: Json): string | undefined {
  return str(p.call_id) ?? str(obj(p.output)?.call_id)
}
