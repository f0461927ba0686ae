/**
 * The lines of a Codex rollout written by Sepia (a converted session), one JSON object per line.
 *
 * Shapes (codex-rs `protocol/src/protocol.rs` `RolloutLine {timestamp, type, payload}`,
 * `protocol/src/models.rs` `ResponseItem`; fixtures/real/codex, Codex 0.171.0; realstores/README.md
 * "Codex CLI 0.171.0", hand-written probe):
 * - every line has a top-level `timestamp` (without it Codex skips the line);
 * - the first line is `session_meta` with `{id, timestamp, cwd, originator, cli_version}` (each is
 *   required), plus `source`, `git {commit_hash, branch}` and (when the home names one, see
 *   `write.ts`) `model_provider`, as Codex writes them; its `timestamp` is the source session's start;
 * - the model: a `turn_context {cwd, approval_policy, sandbox_policy, model, summary}` before the
 *   user message of a turn (codex-rs `TurnContextItem`), written for the first turn and again when
 *   the source's model changes; Codex and Sepia's reader take a turn's model from it;
 * - user text: `response_item message {role:"user", content:[input_text | input_image]}`, followed
 *   by `event_msg user_message {message, images}`; assistant text: `message {role:"assistant",
 *   content:[output_text]}` followed by `event_msg agent_message {message}`. Without the events
 *   Codex 0.171 neither lists the session in the `codex resume` picker (it has no preview) nor shows
 *   the earlier turns in its terminal UI; it sends the response items to the model either way
 *   (checked with the real CLI, see `write.ts`). Sepia's reader drops the echoes by text;
 * - signed reasoning: `reasoning {summary:[summary_text], content:null, encrypted_content}`;
 * - tool calls: `function_call {name, arguments (JSON text), call_id}` + `function_call_output
 *   {call_id, output}`; `apply_patch` is a freeform tool: `custom_tool_call {name, input (the
 *   patch), call_id}` + `custom_tool_call_output`. An output is a string, or content items
 *   (`input_text`/`input_image`) when it holds images;
 * - usage (only when faithful, see `write.ts`): `event_msg token_count {info:{total_token_usage,
 *   last_token_usage, model_context_window}, rate_limits}` after the response; `input_tokens`
 *   includes cached input, `output_tokens` includes reasoning (codex-rs `TokenUsage`);
 * - Sepia's reader (`items.ts`) joins consecutive model-side items into one assistant message until a
 *   user message, a tool output or a usage event; two assistant messages in a row are therefore
 *   separated by a `token_count` without `info` (the shape Codex writes for a rate-limit-only update).
 * No `ordinal` and no `history_mode`: the file is a "legacy" (not paginated) rollout, which Codex
 * resumes and appends to as such.
 */
import type { ContentBlock, MessageNode, Session, ToolCall, Usage } from '../../../shared/ir'
import { imageNote } from '../../convert-shared/notes'
import { assistantTextRuns } from '../../convert-shared/part-order'

type Json = Record<string, unknown>

/** What the lines need besides the session. */
export interface RolloutHead {
  id: string
  /** ms since epoch: the thread's creation (the source session's, see `write.ts`). */
  createdAt: number
  cwd: string
  originator: string
  cliVersion: string
  source: string
  /** Written only when the home names one (see `write.ts`). */
  modelProvider?: string
  /** Write `token_count` events for the assistant messages' usage. */
  keepUsage: boolean
}

/** What writing the lines found out (for the thread index row and the warnings). */
export interface RolloutStats {
  /** The model of the first `turn_context` written (the thread's model), when the source names one. */
  model?: string
  /** The first user text (Codex's preview and title). */
  firstUserText?: string
  /** `total_token_usage.total_tokens` of the last `token_count` written (0 when none). */
  tokensUsed: number
  /** Assistant images written as nothing (an assistant message holds text only). */
  droppedAssistantImages: number
}

const iso = (ms: number): string => new Date(ms).toISOString()

/** An IR image block as a `data:` URL (only blocks with data reach a writer, see convert/content.ts). */
function imageUrl(b: Extract<ContentBlock, { type: 'image' }>): string | undefined {
  if (b.data) return `data:${b.mediaType ?? 'image/png'};base64,${b.data}`
  return b.uri
}

/** Input content items of a user message or tool output: its blocks in order, else its text. */
function inputItems(n: MessageNode): Json[] {
  if (!n.blocks) return [{ type: 'input_text', text: n.content }]
  const out: Json[] = []
  for (const b of n.blocks) {
    if (b.type === 'text' && b.text !== '') out.push({ type: 'input_text', text: b.text })
    else if (b.type === 'image') {
      const url = imageUrl(b)
      out.push(url ? { type: 'input_image', image_url: url } : { type: 'input_text', text: imageNote(b) })
    } else if (b.type === 'unknown' && b.text) out.push({ type: 'input_text', text: b.text })
  }
  return out
}

/** True when a node's blocks hold an image (its output is then a list of content items). */
const hasImage = (n: MessageNode): boolean => n.blocks?.some((b) => b.type === 'image') === true

/** Codex `TokenUsage` of an IR usage (input includes cache reads and writes; total = input + output). */
export function codexTokenUsage(u: Usage): Json {
  const cached = u.cacheReadTokens ?? 0
  const write = u.cacheWriteTokens ?? 0
  const input = (u.inputTokens ?? 0) + cached + write
  const output = u.outputTokens ?? 0
  return { input_tokens: input, cached_input_tokens: cached, cache_write_input_tokens: write, output_tokens: output, reasoning_output_tokens: u.thinkingTokens ?? 0, total_tokens: input + output }
}

function addUsage(a: Json, b: Json): Json {
  const out: Json = {}
  for (const k of Object.keys(b)) out[k] = ((a[k] as number | undefined) ?? 0) + (b[k] as number)
  return out
}

/** True for a call written as a freeform `custom_tool_call` (`apply_patch` with its patch text). */
function isCustom(c: ToolCall): c is ToolCall & { arguments: { input: string } } {
  const a = c.arguments as Json | null
  return c.name === 'apply_patch' && typeof a === 'object' && a !== null && typeof a.input === 'string' && Object.keys(a).length === 1
}

/**
 * An assistant node's text and calls in the order they are written: its text, then its calls; or,
 * when it keeps its parts' order (`partOrder`, issue 14), each run of text blocks (joined by blank
 * lines) and each call where the source had it (a call split by conversion, `<id>_2`..., follows
 * its first part; `assistantTextRuns`, convert-shared/part-order.ts). Thinking is written before (a `reasoning` item).
 */
function orderedParts(n: MessageNode): ({ kind: 'text'; text: string } | { kind: 'call'; call: ToolCall })[] {
  if (!n.partOrder || !n.blocks) return [{ kind: 'text' as const, text: n.content }, ...(n.toolCalls ?? []).map((call) => ({ kind: 'call' as const, call }))]
  return assistantTextRuns(n).filter((p) => p.kind !== 'thinking')
}

/**
 * The model of the turn that starts at `session.nodes[i]` (a user message): that of the first
 * assistant message before the next user message, else the session's.
 */
function modelOfTurn(session: Session, i: number): string | undefined {
  for (let k = i + 1; k < session.nodes.length; k++) {
    const n = session.nodes[k]!
    if (n.role === 'user') break
    if (n.role === 'assistant' && n.model) return n.model
  }
  return session.model
}

/**
 * A `turn_context` payload with the fields codex-rs `TurnContextItem` requires (`cwd`,
 * `approval_policy`, `sandbox_policy`, `model`, `summary`; protocol `protocol.rs`, shapes as
 * Codex 0.171 writes them). The policies are the most careful ones (ask before acting, read-only):
 * the source's are not known, and Codex resumes under the policies of its own config anyway.
 */
function turnContext(cwd: string, model: string): Json {
  return { cwd, approval_policy: 'on-request', sandbox_policy: { type: 'read-only' }, model, summary: 'auto' }
}

/**
 * The rollout's lines for `session` (prepared: linear, every call followed by its result), one
 * string each with its newline; `stats` is filled while they are produced.
 */
export function* rolloutLines(session: Session, head: RolloutHead, stats: RolloutStats): Generator<string> {
  const line = (at: number, type: string, payload: Json): string => JSON.stringify({ timestamp: iso(at), type, payload }) + '\n'
  const meta: Json = { id: head.id, timestamp: iso(head.createdAt), cwd: head.cwd, originator: head.originator, cli_version: head.cliVersion, source: head.source }
  if (head.modelProvider !== undefined) meta.model_provider = head.modelProvider
  const git: Json = {}
  if (session.git?.sha) git.commit_hash = session.git.sha
  if (session.git?.branch) git.branch = session.git.branch
  if (Object.keys(git).length) meta.git = git
  yield line(head.createdAt, 'session_meta', meta)

  const customIds = new Set<string>()
  let total: Json = {}
  let at = session.createdAt ?? head.createdAt
  let previous: MessageNode['role'] | undefined
  let turnModel: string | undefined
  for (const [i, n] of session.nodes.entries()) {
    at = n.createdAt ?? at
    if (n.role === 'user') {
      const text = n.content
      // A turn's model is recorded as Codex does, in a `turn_context` before the turn (when it changes).
      const model = modelOfTurn(session, i)
      if (model !== undefined && model !== turnModel) {
        turnModel = model
        stats.model ??= model
        yield line(at, 'turn_context', turnContext(head.cwd, model))
      }
      yield line(at, 'response_item', { type: 'message', role: 'user', content: inputItems(n) })
      if (text.trim() !== '') {
        stats.firstUserText ??= text
        const images = (n.blocks ?? []).flatMap((b) => (b.type === 'image' && b.data ? [imageUrl(b)!] : []))
        yield line(at, 'event_msg', { type: 'user_message', message: text, images })
      }
    } else if (n.role === 'tool') {
      const type = customIds.has(n.toolCallId ?? '') ? 'custom_tool_call_output' : 'function_call_output'
      const output = hasImage(n) ? inputItems(n) : n.content
      yield line(at, 'response_item', { type, call_id: n.toolCallId ?? '', output })
    } else {
      if (previous === 'assistant') yield line(at, 'event_msg', { type: 'token_count', info: null, rate_limits: null })
      if (n.thinkingSignature !== undefined) {
        const summary = n.thinking ? [{ type: 'summary_text', text: n.thinking }] : []
        yield line(at, 'response_item', { type: 'reasoning', summary, content: null, encrypted_content: n.thinkingSignature })
      }
      stats.droppedAssistantImages += n.blocks?.filter((b) => b.type === 'image').length ?? 0
      const callLine = (c: ToolCall): string => {
        if (isCustom(c)) {
          customIds.add(c.id)
          return line(at, 'response_item', { type: 'custom_tool_call', name: c.name, input: c.arguments.input, call_id: c.id })
        }
        const call: Json = { type: 'function_call', name: c.name, arguments: JSON.stringify(c.arguments ?? {}), call_id: c.id }
        if (c.namespace !== undefined) call.namespace = c.namespace
        return line(at, 'response_item', call)
      }
      const textLines = function* (text: string): Generator<string> {
        if (text === '') return
        yield line(at, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] })
        yield line(at, 'event_msg', { type: 'agent_message', message: text })
      }
      for (const part of orderedParts(n)) {
        if (part.kind === 'text') yield* textLines(part.text)
        else yield callLine(part.call)
      }
      if (head.keepUsage && n.usage && (n.usage.inputTokens !== undefined || n.usage.outputTokens !== undefined)) {
        const last = codexTokenUsage(n.usage)
        total = addUsage(total, last)
        stats.tokensUsed = total.total_tokens as number
        yield line(at, 'event_msg', { type: 'token_count', info: { total_token_usage: total, last_token_usage: last, model_context_window: null }, rate_limits: null })
        previous = undefined
        continue
      }
    }
    previous = n.role
  }
}
