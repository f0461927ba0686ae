/**
 * Part-level conversions for the OpenCode family (packages/opencode/src/session/message-v2.ts):
 * a `tool` part becomes a {@link ToolCall} plus its result node, a `file` part a content block,
 * `reasoning` metadata a thinking signature, `tokens`/`cost` a {@link Usage}.
 *
 * Tool part: `{callID, tool, state: {status, input, output | error, title, metadata,
 * time{start, end}, attachments?}}`; status `pending` (has `raw`, the partial input text),
 * `running`, `completed`, `error` (ToolStatePending/Running/Completed/Error). The `task` tool's
 * `state.metadata.sessionId` names the child session it spawned (fixtures/real/opencode,
 * scenario "agent"); its output also carries `<task id="ses_...">`.
 */
import type { ContentBlock, MessageNode, ToolCall, ToolCallDiff, ToolCallLocation, ToolCallStatus, Usage } from '../../../shared/ir'
import { toolKind } from '../../ir/toolkind'
import { type Json, num, obj, parseJson, pick, pickStr, str, timeOf, toMs } from './values'

const STATUS: Record<string, ToolCallStatus> = {
  pending: 'pending',
  running: 'in_progress',
  completed: 'completed',
  error: 'failed',
}

/** Keys under a provider's reasoning metadata that hold its opaque seal. */
const SIGNATURE_KEYS = ['signature', 'redactedData', 'reasoningEncryptedContent', 'encryptedContent', 'thoughtSignature']

/**
 * Usage from a message's or step-finish part's `tokens` and `cost`. OpenCode stores `input`
 * without cache reads and writes (session/index.ts getUsage subtracts them), so it maps straight
 * to `inputTokens`; `reasoning` → `thinkingTokens`; `cost` is USD. Undefined when neither exists.
 */
export function usageOf(o: Json | undefined): Usage | undefined {
  if (!o) return undefined
  const t = obj(o.tokens) ?? obj(o.usage)
  const cache = obj(t?.cache)
  const u: Usage = {}
  const set = (k: keyof Usage, v: unknown): void => {
    const n = num(v)
    if (n !== undefined) u[k] = n
  }
  set('inputTokens', pick(t, 'input', 'input_tokens', 'inputTokens'))
  set('outputTokens', pick(t, 'output', 'output_tokens', 'outputTokens'))
  set('thinkingTokens', pick(t, 'reasoning', 'reasoning_tokens', 'reasoningTokens'))
  set('cacheReadTokens', pick(cache, 'read') ?? pick(t, 'cache_read', 'cacheRead', 'cache_read_tokens'))
  set('cacheWriteTokens', pick(cache, 'write') ?? pick(t, 'cache_write', 'cacheWrite', 'cache_write_tokens'))
  set('cost', o.cost)
  return Object.keys(u).length ? u : undefined
}

/** The opaque seal in a reasoning part's provider metadata (`{anthropic: {signature}}`...). */
export function reasoningSignature(metadata: unknown): string | undefined {
  const m = obj(metadata)
  if (!m) return undefined
  for (const k of SIGNATURE_KEYS) if (typeof m[k] === 'string' && m[k]) return m[k] as string
  for (const v of Object.values(m)) {
    const inner = obj(v)
    if (!inner) continue
    for (const k of SIGNATURE_KEYS) if (typeof inner[k] === 'string' && inner[k]) return inner[k] as string
  }
  return undefined
}

/** A `file` part (or tool attachment) `{mime, filename, url, source}` as a content block. */
export function fileBlock(p: Json): ContentBlock {
  const mime = pickStr(p, 'mime', 'mediaType', 'mimeType')
  const url = str(p.url) ?? ''
  const path = pickStr(obj(p.source), 'path') ?? pickStr(p, 'filename', 'path') ?? (url.startsWith('file://') ? decodeURI(url.slice(7)) : undefined)
  if (mime?.startsWith('image/')) {
    const b: ContentBlock = { type: 'image', mediaType: mime }
    const data = /^data:[^,]*;base64,(.*)$/s.exec(url)
    if (data) b.data = data[1]!
    else if (url) b.uri = url
    return b
  }
  const b: ContentBlock = { type: 'file' }
  if (path !== undefined) b.path = path
  if (mime !== undefined) b.mediaType = mime
  return b
}

/** Tool input: the recorded object; a JSON string parsed; the pending state's `raw` text when no input. */
function argumentsOf(state: Json): unknown {
  const input = state.input
  if (typeof input === 'string') return parseJson(input) ?? input
  const o = obj(input)
  if ((!o || Object.keys(o).length === 0) && typeof state.raw === 'string' && state.raw !== '') return parseJson(state.raw) ?? state.raw
  return input ?? {}
}

/** Files and file changes the arguments name (read/write/edit/multiedit and the like). */
function fileFacts(name: string, args: unknown, call: ToolCall): void {
  const a = obj(args)
  if (!a) return
  const path = pickStr(a, 'filePath', 'file_path', 'path', 'filepath')
  if (path !== undefined) call.locations = [{ path } satisfies ToolCallLocation]
  const tool = name.toLowerCase()
  const diffs: ToolCallDiff[] = []
  if (tool === 'write' && path !== undefined && typeof a.content === 'string') diffs.push({ path, newText: a.content })
  if (tool === 'edit' && path !== undefined && typeof a.newString === 'string') {
    const d: ToolCallDiff = { path, newText: a.newString }
    if (typeof a.oldString === 'string' && a.oldString !== '') d.oldText = a.oldString
    diffs.push(d)
  }
  if (tool === 'multiedit' && Array.isArray(a.edits)) {
    for (const e of a.edits.map(obj)) {
      const p = pickStr(e, 'filePath') ?? path
      if (p === undefined || typeof e?.newString !== 'string') continue
      const d: ToolCallDiff = { path: p, newText: e.newString }
      if (typeof e.oldString === 'string' && e.oldString !== '') d.oldText = e.oldString
      diffs.push(d)
    }
  }
  if (diffs.length) call.diffs = diffs
}

/** The child session a `task` call names: `metadata.sessionId`, else the id in its output. */
function spawnedSession(state: Json): string | undefined {
  const fromMeta = pickStr(obj(state.metadata), 'sessionId', 'sessionID', 'session_id')
  if (fromMeta) return fromMeta
  const out = str(state.output)
  const m = out && (/<task id="([^"]+)"/.exec(out) ?? /(?:task_id|session_id):\s*(ses_\w+)/.exec(out))
  return m ? m[1] : undefined
}

/** `state.metadata` without the copy of the output that bash keeps in it. */
function resultMetadata(state: Json, output: string): Json | undefined {
  const m = obj(state.metadata)
  if (!m) return undefined
  const { output: copy, ...rest } = m
  const kept = copy === output ? rest : m
  return Object.keys(kept).length ? kept : undefined
}

/**
 * A `tool` part as a call and, when it finished (`completed` or `error`), its result node
 * (`nodeId` = the part id). `pending` → status `pending`, `running` → `in_progress`.
 */
export function toolFromPart(part: Json, partId: string): { call: ToolCall; result?: MessageNode } {
  const state = obj(part.state) ?? {}
  const name = pickStr(part, 'tool', 'name', 'toolName') ?? '(unnamed tool)'
  const args = argumentsOf(state)
  const call: ToolCall = { id: pickStr(part, 'callID', 'call_id', 'callId', 'toolCallId') ?? partId, name, kind: toolKind(name), arguments: args }
  const status = STATUS[str(state.status) ?? '']
  if (status) call.status = status
  const start = timeOf(state, 'start')
  const end = timeOf(state, 'end')
  if (start !== undefined && end !== undefined && end >= start) call.durationMs = end - start
  const exit = num(pick(obj(state.metadata), 'exit', 'exitCode', 'exit_code'))
  if (exit !== undefined) call.exitCode = exit
  fileFacts(name, args, call)
  if (name.toLowerCase() === 'task') {
    const child = spawnedSession(state)
    if (child) call.subagentSessionId = child
  }
  if (status !== 'completed' && status !== 'failed') return { call }

  const outputValue = status === 'failed' ? state.error : state.output
  const output = typeof outputValue === 'string' ? outputValue : (str(obj(outputValue)?.text) ?? (outputValue === undefined ? '' : JSON.stringify(outputValue)))
  const result: MessageNode = { nodeId: partId, role: 'tool', content: output, toolCallId: call.id, toolName: name }
  if (status === 'failed') result.isError = true
  const at = end ?? start ?? toMs(pick(obj(state.time), 'compacted'))
  if (at !== undefined) result.createdAt = at
  const attachments = Array.isArray(state.attachments) ? state.attachments.map(obj).filter((x): x is Json => !!x) : []
  if (attachments.length) result.blocks = [...(output ? [{ type: 'text' as const, text: output }] : []), ...attachments.map(fileBlock)]
  const meta: Json = {}
  const title = str(state.title)
  if (title) meta.title = title
  const rm = resultMetadata(state, output)
  if (rm) meta.toolMetadata = rm
  const compacted = toMs(obj(state.time)?.compacted)
  if (compacted !== undefined) meta.compactedAt = compacted
  if (Object.keys(meta).length) result.metadata = meta
  return { call, result }
}
