/**
 * Check a mock request log against an {@link Expectation}: port of the shared kit's
 * `realstores/lib/store.py check`, made stricter for native tool blocks.
 *
 * 1. The request checked is the first model request (Anthropic Messages, Chat Completions, OpenAI
 *    Responses, Gemini; side requests without tools excluded) whose newest real user message holds
 *    the resume prompt.
 * 2. Its messages are split by role into user texts, assistant texts, tool calls and tool results
 *    (`tool_result` / `role:"tool"` / `*_output` / `functionResponse`). Every string is searched,
 *    and strings that are themselves JSON are searched after decoding too (Cline sends tool results
 *    as a JSON string).
 * 3. Each expected user text must be in a user message, each assistant text in an assistant message,
 *    each tool result in a tool-result block (native mode; anywhere in text-only mode), each orphan
 *    result anywhere. Native mode also needs at least as many tool-call blocks as the source had
 *    calls, and every tool-result block answering a call of the request.
 */
import type { Session } from '../src/shared/ir'
import type { Json } from './mock/normalize'
import { type Expectation, type ExpectItem, norm, needle } from './expect'

/** The request split by role. */
interface Parsed {
  user: string[]
  assistant: string[]
  results: string[]
  all: string[]
  callIds: string[]
  resultIds: string[]
}

/** Every string in a JSON value; strings that hold a JSON object or array are decoded and walked too. */
export function stringsIn(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') {
    out.push(v)
    const s = v.trim()
    if ((s.startsWith('{') || s.startsWith('[')) && s.length > 1) {
      try {
        stringsIn(JSON.parse(s), out)
      } catch {
        // not JSON
      }
    }
  } else if (Array.isArray(v)) for (const x of v) stringsIn(x, out)
  else if (v && typeof v === 'object') for (const x of Object.values(v)) stringsIn(x, out)
  return out
}

const textOf = (c: unknown): string =>
  typeof c === 'string' ? c : Array.isArray(c) ? c.map((b) => (typeof b === 'string' ? b : b && typeof b === 'object' && typeof (b as Json).text === 'string' ? (b as Json).text : '')).join('\n') : ''

/** The text of the newest real user message (not a tool result) of a request body. */
export function newestUserText(api: string, body: Json): string {
  if (api === 'anthropic.messages') {
    for (const m of [...(body.messages || [])].reverse()) {
      const c = m.content
      if (m.role === 'user' && !(Array.isArray(c) && c.some((b: Json) => b && b.type === 'tool_result'))) return textOf(c)
    }
  } else if (api === 'openai.chat') {
    for (const m of [...(body.messages || [])].reverse()) if (m.role === 'user') return textOf(m.content)
  } else if (api === 'openai.responses') {
    if (typeof body.input === 'string') return body.input
    for (const m of [...(body.input || [])].reverse()) if (m.role === 'user' && (m.type === undefined || m.type === 'message')) return textOf(m.content)
  } else if (api === 'gemini') {
    for (const c of [...(body.contents || [])].reverse()) {
      const parts: Json[] = c.parts || []
      if (c.role === 'user' && !parts.some((p) => 'functionResponse' in p)) return parts.filter((p) => !p.thought).map((p) => p.text ?? '').join('\n')
    }
  }
  return ''
}

function parse(api: string, body: Json): Parsed {
  const p: Parsed = { user: [], assistant: [], results: [], all: stringsIn(body), callIds: [], resultIds: [] }
  if (api === 'anthropic.messages') {
    for (const m of body.messages || []) {
      const blocks: Json[] = Array.isArray(m.content) ? m.content : [{ type: 'text', text: String(m.content ?? '') }]
      for (const b of blocks) {
        if (b.type === 'tool_use') p.callIds.push(String(b.id))
        else if (b.type === 'tool_result') {
          p.resultIds.push(String(b.tool_use_id))
          stringsIn(b.content, p.results)
        } else if (m.role === 'assistant') stringsIn(b.text ?? '', p.assistant)
        else if (m.role === 'user') stringsIn(b.text ?? b, p.user)
      }
    }
  } else if (api === 'openai.chat') {
    for (const m of body.messages || []) {
      if (m.role === 'user') stringsIn(m.content, p.user)
      else if (m.role === 'assistant') {
        stringsIn(m.content, p.assistant)
        for (const c of m.tool_calls || []) p.callIds.push(String(c.id))
      } else if (m.role === 'tool') {
        p.resultIds.push(String(m.tool_call_id))
        stringsIn(m.content, p.results)
      }
    }
  } else if (api === 'openai.responses') {
    for (const it of Array.isArray(body.input) ? body.input : []) {
      if (it.type === 'function_call' || it.type === 'custom_tool_call' || it.type === 'local_shell_call') p.callIds.push(String(it.call_id))
      else if (/_output$/.test(it.type || '')) {
        p.resultIds.push(String(it.call_id))
        stringsIn(it.output, p.results)
      } else if (it.role === 'user') stringsIn(it.content, p.user)
      else if (it.role === 'assistant') stringsIn(it.content, p.assistant)
    }
  } else if (api === 'gemini') {
    for (const c of body.contents || []) {
      for (const part of c.parts || []) {
        if (part.functionCall) p.callIds.push(String(part.functionCall.id ?? part.functionCall.name))
        else if (part.functionResponse) {
          p.resultIds.push(String(part.functionResponse.id ?? part.functionResponse.name))
          stringsIn(part.functionResponse.response, p.results)
        } else if (typeof part.text === 'string' && !part.thought) (c.role === 'model' ? p.assistant : p.user).push(part.text)
      }
    }
  }
  return p
}

/**
 * The prompts a target agent sends when it compacts a conversation itself (summarizes it to fit its
 * context budget) instead of sending every earlier turn. A resume that starts with one cannot carry
 * every turn verbatim, whatever the conversion wrote: the cell says so instead of failing silently.
 * Sources: Cline `sdk/packages/core/src/extensions/context/compaction-shared.ts` (cline/cline);
 * Claude Code 2.1.332 and Codex 0.171.0, the strings in their shipped binaries (`claude.exe`, `codex`);
 * the Continue CLI 1.5.47 `COMPACTION_PROMPT` (src/compaction.ts).
 */
export const COMPACTION_PROMPTS: readonly { agent: string; needle: string }[] = [
  { agent: 'cline', needle: 'Summarize this session for continuation' },
  { agent: 'claude-code', needle: 'create a detailed summary of the conversation' },
  { agent: 'codex', needle: 'CONTEXT CHECKPOINT COMPACTION' },
  { agent: 'continue', needle: 'Please provide a concise summary of our conversation so far' },
]

/** The first logged request in which the target compacts the conversation itself, if any. */
export function compactionRequest(log: Json[]): { seq: number; agent: string } | undefined {
  for (const r of log) {
    if (!['anthropic.messages', 'openai.chat', 'openai.responses', 'gemini'].includes(r.api)) continue
    const text = stringsIn(r.body || {}).join('\n')
    const hit = COMPACTION_PROMPTS.find((c) => text.includes(c.needle))
    if (hit) return { seq: r.seq, agent: hit.agent }
  }
  return undefined
}

/** A verdict: `PASS: ...` / `FAIL: ...`, the counts, and what was missing. */
export interface Verdict {
  ok: boolean
  line: string
  missing: string[]
  /** Sequence number of the request checked. */
  seq?: number
  /** The expected items the checked request lacked (each also a line of `missing`). */
  missingItems?: ExpectItem[]
  /** The other problems of the checked request (tool-call blocks too few, results answering no call). */
  blockProblems?: string[]
}

/** Check `log` (the mock's entries) against `exp` for the resume `prompt`. */
export function checkRequests(log: Json[], exp: Expectation, prompt: string, textOnly: boolean): Verdict {
  const want = needle(prompt).slice(0, 40)
  const req = log.find((r) => ['anthropic.messages', 'openai.chat', 'openai.responses', 'gemini'].includes(r.api) && r.picked?.turn !== 'noTools' && norm(newestUserText(r.api, r.body || {})).includes(want))
  if (!req) return { ok: false, line: `FAIL: the agent sent no model request carrying the resume prompt (${JSON.stringify(want)})`, missing: [] }
  const p = parse(req.api, req.body || {})
  const hay = (list: string[]) => norm(list.join('\n'))
  const hays: Record<ExpectItem['kind'], string> = {
    user: hay(p.user),
    assistant: hay(p.assistant),
    tool: textOnly ? hay(p.all) : hay(p.results),
    orphan: hay(p.all),
  }
  const missing = exp.items.filter((i) => !hays[i.kind].includes(i.text) || (i.tail !== undefined && !hays[i.kind].includes(i.tail)))
  const kinds = ['user', 'assistant', 'tool', 'orphan'] as const
  const counts = kinds
    .map((k) => {
      const all = exp.items.filter((i) => i.kind === k).length
      return all === 0 && k === 'orphan' ? '' : `${all - missing.filter((i) => i.kind === k).length}/${all} ${k}`
    })
    .filter(Boolean)
  const problems: string[] = missing.map((i) => `missing ${i.kind} (${i.where}): '${i.text}'${i.tail ? ` ... '${i.tail}'` : ''}`)
  const blockProblems: string[] = []
  if (!textOnly) {
    if (p.callIds.length < exp.toolCalls) blockProblems.push(`only ${p.callIds.length} tool-call blocks for ${exp.toolCalls} tool calls`)
    const unanswered = p.resultIds.filter((id) => !p.callIds.includes(id))
    if (unanswered.length) blockProblems.push(`${unanswered.length} tool-result block(s) answer no call in the request`)
  }
  problems.push(...blockProblems)
  const summary = `${counts.join(', ')}, ${p.callIds.length} tool-call blocks for ${exp.toolCalls} calls`
  if (problems.length === 0) return { ok: true, line: `PASS: request #${req.seq} carried all prior turns (${summary})`, missing: [], seq: req.seq }
  return { ok: false, line: `FAIL: request #${req.seq} is missing prior turns (${summary})`, missing: problems, seq: req.seq, missingItems: missing, blockProblems }
}

/**
 * Markers a target puts in a request in place of a tool output it left out itself, to keep its
 * context small (the output is still in the store Sepia wrote). Sources, in the shipped bundles:
 * Gemini CLI 0.61.0 `packages/core/src/context/toolOutputMaskingService.ts` (tool outputs beyond
 * the newest 50,000 tokens of them, `DEFAULT_TOOL_PROTECTION_THRESHOLD`, once 30,000 tokens can
 * go, become a preview plus the path of a file under `~/.gemini/tmp/<project>/tool-outputs/`, inside
 * `<tool_output_masked>`); OpenCode 1.18.33 and Kilo Code 7.7.7 `SessionCompaction.prune`
 * (`PRUNE_PROTECT` = 40000, `PRUNE_MINIMUM` = 20000 tokens in the 1.18.33 binary: tool outputs older
 * than the newest 40,000 tokens of them, once 20,000 tokens can go, are marked compacted and sent as
 * `[Old tool result content cleared]`).
 */
export const TOOL_OUTPUT_MASKS: readonly { agent: string; needle: string; how: string }[] = [
  { agent: 'gemini', needle: '<tool_output_masked>', how: 'Gemini CLI masks bulky tool outputs itself (ToolOutputMaskingService: outputs beyond the newest 50,000 tokens of tool output become a preview and the path of a file it saves under ~/.gemini/tmp/<project>/tool-outputs, in <tool_output_masked>)' },
  { agent: 'opencode', needle: '[Old tool result content cleared]', how: 'OpenCode prunes old tool outputs itself (SessionCompaction.prune: older outputs are sent as "[Old tool result content cleared]")' },
  { agent: 'kilo-code', needle: '[Old tool result content cleared]', how: 'Kilo Code prunes old tool outputs itself (SessionCompaction.prune, from OpenCode: older outputs are sent as "[Old tool result content cleared]")' },
  { agent: 'droid', needle: 'The file has been updated successfully.', how: 'Factory Droid sends its own text for the result of an Edit call instead of the result stored in the session (a hand-written session resumed by droid 0.225.2 in its terminal UI: every Edit result reached the model as "The file has been updated successfully.", Create and Execute results as written)' },
]

/**
 * Gemini CLI 0.61.0 leaves out, when it resumes, every user message whose text begins with "/" or
 * "?" (it takes them for its own commands): `isIgnoredUserContent` in
 * `convertSessionToClientHistory`, `packages/core/src/utils/sessionUtils.ts`.
 */
export const GEMINI_IGNORED_USER = /^[/?]/

/**
 * Gemini CLI 0.61.0 resumes only a session with resumable content (a user message it does not
 * ignore, or a model message with text, calls or thoughts): `getAllSessionFiles`,
 * `packages/cli/src/utils/sessionUtils.ts`, skips the others and `--resume` then says this.
 */
export const GEMINI_NO_SESSION = 'No previous sessions found for this project.'

/**
 * What Qwen Code 0.15.10 prints when `--resume <id>` finds no record in the session's file
 * (`SessionService.loadSession` returns nothing for a file without records; a session without any
 * turn is written as an empty file: src/main/agents/qwen-code/write-records.ts).
 */
export const QWEN_NO_SESSION = 'No saved session found with ID'

/**
 * What OpenCode 1.18.33 (and Kilo Code, its fork) print when an inline image of the session is not a
 * decodable data URL: the AI SDK fetches every `data:` URL of the prompt before sending it, and the
 * run stops with this error before any model request.
 */
export const OPENCODE_BAD_DATA_URL = 'failed to fetch the data URL'

/**
 * Inline images of `session` whose base64 payload does not decode (strict: only the base64
 * alphabet, length a multiple of 4): `data`, or a `data:<type>;base64,` `uri`. The public-real
 * sessions were published with secrets replaced by `REDACTED`, which can break an image's payload.
 */
export function undecodableImages(session: Session): number {
  let n = 0
  for (const node of session.nodes) {
    for (const b of node.blocks ?? []) {
      if (b.type !== 'image') continue
      const data = b.data ?? (b.uri?.startsWith('data:') ? b.uri.slice(b.uri.indexOf(',') + 1) : undefined)
      if (data !== undefined && !(data.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(data))) n++
    }
  }
  return n
}

/** How often `needle` occurs in `hay`. */
const occurrences = (hay: string, needle: string): number => hay.split(needle).length - 1

/**
 * What the Continue CLI 1.5.47 logs (`~/.continue/logs/cn.log`, src/stream/streamChatResponse.autoCompaction.ts)
 * when it compacts the history before a model request; its driver appends that log line to the output.
 */
export const CONTINUE_AUTO_COMPACTED = 'Auto-compaction triggered'

/**
 * Why a failed case is the target's own doing, not the conversion's, or undefined when it is not
 * (or not only). Each missing item must be explained, and nothing else may be wrong:
 * - the target compacted the conversation (a request holds one of {@link COMPACTION_PROMPTS}, or the
 *   Continue CLI logged {@link CONTINUE_AUTO_COMPACTED});
 * - Gemini CLI skipped a user message beginning with "/" or "?" ({@link GEMINI_IGNORED_USER});
 * - the checked request holds at least as many of the target's {@link TOOL_OUTPUT_MASKS} as
 *   tool results are missing;
 * - no request at all: the source has no turn to carry and Gemini CLI refuses to resume a session
 *   without one ({@link GEMINI_NO_SESSION} in its output; Qwen Code: {@link QWEN_NO_SESSION}), or the source holds an image that does
 *   not decode ({@link undecodableImages}) and OpenCode / Kilo stopped on it ({@link OPENCODE_BAD_DATA_URL}).
 * `log`: the mock's entries; `output`: the agent's output; `source`: facts of the source session.
 */
export function targetsOwnDoing(target: string, log: Json[], exp: Expectation, verdict: Verdict, output: string, source: { undecodableImages?: number } = {}): string | undefined {
  if (verdict.ok) return undefined
  const compacted = compactionRequest(log)
  if (compacted) {
    return `the target compacted the conversation itself on resume (request #${compacted.seq} asks it for a summary): the session is larger than the target's context budget, so no request carries every earlier turn`
  }
  if (target === 'continue' && output.includes(CONTINUE_AUTO_COMPACTED)) {
    return `the target compacted the conversation itself on resume (its log says "${CONTINUE_AUTO_COMPACTED} in headless mode": the history is over its 200,000-token default context, and the compaction request it sends first is pruned to fit, so it may not hold its summary prompt): no request carries every earlier turn`
  }
  if (verdict.seq === undefined) {
    if (target === 'gemini' && exp.items.length === 0 && output.includes(GEMINI_NO_SESSION)) {
      return `the source session has no conversation turn to carry (only command markers or injected context, which the conversion leaves out), and Gemini CLI resumes only a session holding one: it answers "${GEMINI_NO_SESSION}" (getAllSessionFiles skips a session without resumable content)`
    }
    if (target === 'qwen-code' && exp.items.length === 0 && output.includes(QWEN_NO_SESSION)) {
      return `the source session has no conversation turn to carry (only command markers or injected context, which the conversion leaves out), so the converted chat holds no record, and Qwen Code resumes only a chat holding one: it answers "${QWEN_NO_SESSION} …" (SessionService.loadSession finds no record)`
    }
    if ((target === 'opencode' || target === 'kilo-code') && (source.undecodableImages ?? 0) > 0 && output.includes(OPENCODE_BAD_DATA_URL)) {
      return `${source.undecodableImages} inline image(s) of the source do not decode as base64 (the published copy has runs of it replaced by "REDACTED"), and the target stops before any model request when it fetches such a data: URL ("${OPENCODE_BAD_DATA_URL}")`
    }
    return undefined
  }
  if (verdict.blockProblems?.length) return undefined
  const items = verdict.missingItems ?? []
  const slash = items.filter((i) => i.kind === 'user' && target === 'gemini' && GEMINI_IGNORED_USER.test(i.text))
  const tools = items.filter((i) => i.kind === 'tool')
  if (slash.length + tools.length !== items.length || items.length === 0) return undefined
  const reasons: string[] = []
  if (slash.length) {
    reasons.push(
      `Gemini CLI leaves out on resume every user message beginning with "/" or "?", taking it for its own command (isIgnoredUserContent in convertSessionToClientHistory), so ${slash.length} user message(s) (${slash.map((i) => JSON.stringify(i.text.slice(0, 30))).join(', ')}) that Sepia wrote and warned about never reach its model`,
    )
  }
  if (tools.length) {
    const req = log.find((r) => r.seq === verdict.seq)
    const text = stringsIn(req?.body ?? {}).join('\n')
    const mask = TOOL_OUTPUT_MASKS.find((m) => m.agent === target && occurrences(text, m.needle) >= tools.length)
    if (!mask) return undefined
    reasons.push(`${mask.how}: request #${verdict.seq} carries ${occurrences(text, mask.needle)} such marker(s) for ${tools.length} missing tool result(s)`)
  }
  return reasons.join('; and ')
}
