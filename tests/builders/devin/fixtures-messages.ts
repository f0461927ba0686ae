/**
 * Test-only builders of Devin `chat_message` blobs and ACP tool-call objects, in the documented
 * shapes (`shared/formats/cursor-devin-atif-acp.md` C4 "chat_message JSON", C5, E). Used by the
 * fixture scenarios (`fixtures-sessions.ts`). Values are invented.
 */

/** 2026-03-02T10:00:00Z in unix seconds: the base time of every fixture. */
export const T0 = Date.UTC(2026, 2, 2, 10, 0, 0) / 1000

/** ISO time `s` seconds after {@link T0} (what `metadata.created_at` holds). */
export function iso(s: number): string {
  return new Date((T0 + s) * 1000).toISOString()
}

/** The home's project folder in every fixture. */
export const CWD = '/home/ana/src/ledgerlite'

type J = Record<string, unknown>

/** A system message; `ext` goes to `metadata.extensions`. */
export function system(id: string, content: string, at?: number, ext?: J): J {
  const m: J = { message_id: id, role: 'system', content }
  if (at !== undefined || ext) m.metadata = { ...(ext ? { extensions: ext } : {}), ...(at !== undefined ? { created_at: iso(at) } : {}), telemetry: { source: 'system' } }
  return m
}

/** A user message; typed prompts carry `is_user_input: true`, injected ones do not. */
export function user(id: string, content: string, at: number, opts: { input?: boolean; ext?: J } = {}): J {
  const metadata: J = { created_at: iso(at), extensions: { 'chisel/client-message-id': `cm-${id}`, ...opts.ext }, telemetry: { source: 'user', operation: 'unknown' } }
  if (opts.input !== false) metadata.is_user_input = true
  return { message_id: id, role: 'user', content, metadata }
}

/** A Devin tool call entry (`kind: "function"` is Devin's, not an ACP kind). */
export function call(id: string, name: string, args: J, index = 0): J {
  return { id, name, arguments: args, index, kind: 'function' }
}

/** Devin `metrics` (input excludes cache reads). */
export function metrics(input: number, output: number, cacheRead: number | null, cacheWrite: number | null = null): J {
  return { ttft_ms: 900, total_time_ms: 1400, input_tokens: input, output_tokens: output, cache_read_tokens: cacheRead, cache_creation_tokens: cacheWrite, tpot_ms: 5.7, tokens_per_sec: 62.1 }
}

/** Options of {@link assistant}. */
export interface AssistantOpts {
  at: number
  calls?: J[]
  thinking?: string
  signature?: string
  model?: string
  request?: string
  finish?: string
  metrics?: J
  /** `chisel/tool_call_content` by call id. */
  content?: J
}

/** An assistant message with the documented metadata. */
export function assistant(id: string, text: string, o: AssistantOpts): J {
  const m: J = { message_id: id, role: 'assistant', content: text }
  if (o.thinking !== undefined) m.thinking = { thinking: o.thinking, signature: o.signature ?? `sealed.v1.${id}`, signature_type: 'sealed' }
  if (o.calls) m.tool_calls = o.calls
  const meta: J = { num_tokens: 87, finish_reason: o.finish ?? (o.calls ? 'tool_calls' : 'stop') }
  if (o.request !== undefined) meta.request_id = o.request
  if (o.metrics) meta.metrics = o.metrics
  meta.extensions = o.content ? { 'chisel/tool_call_content': o.content } : {}
  meta.response_dimensions = []
  meta.started_generation_at = iso(o.at - 1)
  meta.created_at = iso(o.at)
  if (o.model !== undefined) meta.generation_model = o.model
  meta.telemetry = { source: 'assistant', operation: 'inference' }
  m.metadata = meta
  return m
}

/** Options of {@link tool}. */
export interface ToolOpts {
  at: number
  success?: boolean
  exit?: number
  durationMs?: number
  kind?: string
  failure?: string
  ext?: J
}

/** A tool result with `chisel/tool_result_meta`, timing and (for exec) terminal output. */
export function tool(id: string, callId: string, text: string, o: ToolOpts): J {
  const ext: J = {
    'chisel/tool_call_timing': { started_at: iso(o.at - 1), finished_at: iso(o.at), duration_ms: o.durationMs ?? 12 },
    'chisel/tool_result_meta': { success: o.success ?? true, kind: o.kind ?? 'execute' },
  }
  if (o.exit !== undefined) ext['chisel/terminal_output'] = { text, cwd: CWD, exit: { terminal_id: `t-${id}`, exit_code: o.exit } }
  if (o.failure) ext['chisel/tool_failure'] = { reason: o.failure }
  ext['chisel/undo'] = [{ kind: 'irreversible', tool_name: 'exec', description: 'ran a command' }]
  Object.assign(ext, o.ext)
  return { message_id: id, role: 'tool', tool_call_id: callId, content: text, metadata: { extensions: ext, created_at: iso(o.at), telemetry: { source: 'tool_result', operation: 'exec' } } }
}

/** An ACP ToolCall as stored in `tool_call_state.tool_call_json` (E). */
export function acpCall(id: string, title: string, kind: string, extra: J = {}): J {
  return { toolCallId: id, title, kind, status: 'pending', ...extra, _meta: { 'cognition.ai/cwd': CWD, 'cognition.ai/inferenceToolName': id.split('_')[0] } }
}

/** An ACP ToolCallUpdate (only changed fields, E). */
export function acpUpdate(id: string, status: string, extra: J = {}): J {
  return { toolCallId: id, status, ...extra, _meta: { 'cognition.ai/inferenceToolName': id.split('_')[0] } }
}
