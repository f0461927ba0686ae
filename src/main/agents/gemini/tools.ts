/**
 * Gemini CLI tool calls → IR tool calls and `role: "tool"` result nodes.
 *
 * A `gemini` message's `toolCalls[]` (google-gemini/gemini-cli
 * packages/core/src/services/chatRecordingTypes.ts `ToolCallRecord`): `{id, name, args, result,
 * status, timestamp, agentId?, displayName?, description?, resultDisplay?, renderOutputAsMarkdown?}`.
 * `result` is a `PartListUnion` of `functionResponse` parts (a plain string in older files,
 * sessionUtils.ts `convertSessionToClientHistory`); `status` is the scheduler's
 * `CoreToolCallStatus` (`success`, `error`, `cancelled`, `executing`, `scheduled`, `validating`,
 * `awaiting_approval`); `resultDisplay` is a string or a `fileDiff` object
 * (conversationRecordSchema.ts `toolResultDisplaySchema`); `agentId` on an `invoke_agent` call is
 * the spawned sub-agent's session id (fixtures/real/gemini, Gemini CLI 0.61.0).
 */
import type { MessageNode, ToolCall, ToolCallDiff, ToolCallStatus } from '../../../shared/ir'
import { toolKind } from '../../ir/toolkind'
import { responseText, sortParts } from './parts'
import type { Json } from './values'
import { isoToMs, jsonOrRaw, obj, partsOf, str } from './values'

/** CoreToolCallStatus → ACP status. `cancelled` is `failed` without `isError`. */
const STATUS: Record<string, ToolCallStatus> = {
  success: 'completed',
  error: 'failed',
  cancelled: 'failed',
  executing: 'in_progress',
  scheduled: 'pending',
  validating: 'pending',
  awaiting_approval: 'pending',
}

/** Argument keys that name a file or folder the call touches. */
const PATH_KEYS = ['file_path', 'absolute_path', 'dir_path', 'path']

/** Files named in the arguments. */
function locationsOf(args: unknown): ToolCall['locations'] {
  const a = obj(args)
  if (!a) return undefined
  const paths = PATH_KEYS.map((k) => str(a[k])).filter((p): p is string => !!p)
  return paths.length ? [...new Set(paths)].map((path) => ({ path })) : undefined
}

/** File changes: the `fileDiff` result display (whole file before/after), else the edit arguments. */
function diffsOf(name: string, args: unknown, display: unknown): ToolCallDiff[] | undefined {
  const d = obj(display)
  const path = str(d?.filePath)
  if (d && path !== undefined && typeof d.newContent === 'string') {
    const old = str(d.originalContent)
    const isNew = d.isNewFile === true || d.originalContent === null
    return [{ path, ...(!isNew && old !== undefined && { oldText: old }), newText: d.newContent }]
  }
  const a = obj(args)
  const file = str(a?.file_path)
  if (!a || file === undefined) return undefined
  if (name === 'write_file' && typeof a.content === 'string') return [{ path: file, newText: a.content }]
  if (name === 'replace' && typeof a.old_string === 'string' && typeof a.new_string === 'string') {
    return [{ path: file, oldText: a.old_string, newText: a.new_string }]
  }
  return undefined
}

/** An IR tool call from a name, arguments and optional status. */
export function makeCall(id: string, name: string, args: unknown, status?: string): ToolCall {
  const call: ToolCall = { id, name, kind: toolKind(name), arguments: jsonOrRaw(args ?? {}) }
  const s = status === undefined ? undefined : STATUS[status]
  if (s !== undefined) call.status = s
  if (status === 'error') call.isError = true
  const locations = locationsOf(call.arguments)
  if (locations) call.locations = locations
  return call
}

/** What one `toolCalls[]` record gives: the call, its result node (when recorded) and its extra fields. */
export interface ConvertedToolCall {
  call: ToolCall
  result?: MessageNode
  /** Record fields with no IR home (`status`, `timestamp`, `displayName`, `description`, `agentId`...). */
  info: Json
}

/** A result node for call `id` from result parts (or a plain string). */
export function resultNode(id: string, name: string, result: unknown, createdAt: number | undefined, failed: boolean): MessageNode {
  let content: string
  let isError = failed
  const blocks: MessageNode['blocks'] = []
  if (typeof result === 'string') content = result
  else {
    const texts: string[] = []
    const sorted = sortParts(result)
    for (const fr of sorted.responses) {
      const r = responseText(fr)
      texts.push(r.text)
      if (r.isError) isError = true
      blocks.push(...r.blocks)
    }
    if (sorted.text) texts.push(sorted.text)
    blocks.push(...(sorted.blocks?.filter((b) => b.type !== 'text') ?? []))
    content = texts.join('\n\n')
  }
  const node: MessageNode = { nodeId: `${id}#result`, role: 'tool', content, toolCallId: id, toolName: name }
  if (blocks.length) node.blocks = [{ type: 'text', text: content }, ...blocks]
  if (isError) node.isError = true
  if (createdAt !== undefined) node.createdAt = createdAt
  return node
}

/** Exit code a shell result reports (`Exit Code: N` line of run_shell_command output), if any. */
export function exitCodeOf(text: string): number | undefined {
  const m = /^Exit Code: (-?\d+)\s*$/m.exec(text)
  return m ? Number(m[1]) : undefined
}

/** Convert one `toolCalls[]` record; `fallbackId` names a call whose record has no `id`. */
export function convertToolCall(tc: Json, fallbackId: string): ConvertedToolCall {
  const id = str(tc.id) ?? fallbackId
  const name = str(tc.name) ?? '(unnamed)'
  const status = str(tc.status)
  const call = makeCall(id, name, tc.args, status)
  const diffs = diffsOf(name, call.arguments, tc.resultDisplay)
  if (diffs) call.diffs = diffs
  const agentId = str(tc.agentId)
  if (agentId !== undefined) call.subagentSessionId = agentId
  const info: Json = {}
  for (const [k, v] of Object.entries(tc)) {
    if (k !== 'id' && k !== 'name' && k !== 'args' && k !== 'result' && k !== 'resultDisplay') info[k] = v
  }
  const out: ConvertedToolCall = { call, info }
  const hasResult = tc.result !== undefined && tc.result !== null && (typeof tc.result === 'string' || partsOf(tc.result).length > 0)
  if (hasResult) {
    const node = resultNode(id, name, tc.result, isoToMs(tc.timestamp), status === 'error')
    if (tc.resultDisplay !== undefined && tc.resultDisplay !== node.content) node.metadata = { resultDisplay: tc.resultDisplay }
    if (call.kind === 'execute') {
      const code = exitCodeOf(node.content)
      if (code !== undefined) call.exitCode = code
    }
    out.result = node
  }
  return out
}
