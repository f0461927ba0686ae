/**
 * Claude Code message content → IR pieces: content blocks, tool calls, tool-result text, usage.
 *
 * Shapes are the Anthropic Messages API's as Claude Code stores them (seed 002 "Claude Code":
 * `text`, `thinking{thinking,signature}`, `redacted_thinking{data}`, `tool_use{id,name,input}`,
 * `tool_result{tool_use_id,content,is_error}`, `image{source{type,media_type,data}}`, `document`;
 * usage `{input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens,
 * output_tokens_details.thinking_tokens}` as in fixtures/real/claude-code).
 */
import type { ContentBlock, ToolCall, ToolCallDiff, ToolCallLocation, Usage } from '../../../shared/ir'
import { toolKind } from '../../ir/toolkind'

/** A JSON object as stored. */
export type Json = Record<string, unknown>

/** `value` when it is a plain object, else undefined. */
export function obj(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined
}

/** `value` when it is a string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** `value` when it is a finite number, else undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

let lastIso = ''
let lastMs: number | undefined

/**
 * ISO-8601 time → ms since epoch; undefined when absent or unparsable. The last answer is kept:
 * each record's `timestamp` is asked for twice in a row (session facts, then its node).
 */
export function isoToMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  if (value === lastIso && value !== '') return lastMs
  const ms = Date.parse(value)
  lastIso = value
  lastMs = Number.isNaN(ms) ? undefined : ms
  return lastMs
}

/** An `image` block (`source.type` `base64` or `url`) → IR image block. */
function imageBlock(b: Json): ContentBlock {
  const src = obj(b.source) ?? {}
  const out: ContentBlock = { type: 'image' }
  const mediaType = str(src.media_type)
  if (mediaType !== undefined) out.mediaType = mediaType
  if (src.type === 'base64' && typeof src.data === 'string') out.data = src.data
  if (src.type === 'url' && typeof src.url === 'string') out.uri = src.url
  return out
}

/** A `document` block → IR file block (text kept when the source is plain text). */
function documentBlock(b: Json): ContentBlock {
  const src = obj(b.source) ?? {}
  const out: ContentBlock = { type: 'file' }
  const mediaType = str(src.media_type)
  if (mediaType !== undefined) out.mediaType = mediaType
  if (src.type === 'text' && typeof src.data === 'string') out.text = src.data
  const title = str(b.title)
  if (title !== undefined) out.path = title
  return out
}

/** Text a block of an unknown type carries (`text`, `content` string), if any. */
function unknownText(b: Json): string | undefined {
  return str(b.text) ?? str(b.content)
}

/**
 * Convert user-side or tool-result content blocks (not `tool_result`/`tool_use`/`thinking`, which
 * callers handle) to IR blocks. Unknown block types become `{type:'unknown'}` with their raw value.
 */
export function convertBlock(b: Json): ContentBlock {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: str(b.text) ?? '' }
    case 'image':
      return imageBlock(b)
    case 'document':
      return documentBlock(b)
    default: {
      const out: ContentBlock = { type: 'unknown', originalType: String(b.type ?? '(none)'), raw: b }
      const text = unknownText(b)
      if (text !== undefined) out.text = text
      return out
    }
  }
}

/** Text projection of IR blocks: text blocks (and unknown blocks' text) joined by blank lines. */
export function textOf(blocks: ContentBlock[]): string {
  const parts: string[] = []
  for (const b of blocks) {
    if (b.type === 'text' && b.text !== '') parts.push(b.text)
    else if (b.type === 'unknown' && b.text) parts.push(b.text)
  }
  return parts.join('\n\n')
}

/** True when some block is not plain text (then a node keeps `blocks`). */
export function hasNonText(blocks: ContentBlock[]): boolean {
  return blocks.some((b) => b.type !== 'text')
}

/**
 * The content of a `tool_result` block: a string, or an array of text/image blocks.
 * Returns the text projection and, when the result holds non-text blocks, the block list.
 */
export function toolResultContent(content: unknown): { text: string; blocks?: ContentBlock[] } {
  if (typeof content === 'string') return { text: content }
  if (!Array.isArray(content)) return { text: '' }
  const blocks = content.map((x) => obj(x)).filter((x): x is Json => !!x).map(convertBlock)
  const text = textOf(blocks)
  return hasNonText(blocks) ? { text, blocks } : { text }
}

/**
 * Locations and diffs for Claude Code's file tools, from their input fields (`file_path`,
 * `notebook_path`, `path`, `offset`, `content`, `old_string`/`new_string`, `edits[]`; the
 * Write/Edit inputs are those in fixtures/real/claude-code). Diffs follow the Claude Code ACP
 * adapter: Edit's old/new strings, Write's content as new text.
 */
function fileEffects(name: string, input: Json): { locations?: ToolCallLocation[]; diffs?: ToolCallDiff[] } {
  const path = str(input.file_path) ?? str(input.notebook_path)
  const lower = name.toLowerCase()
  if (path !== undefined) {
    const loc: ToolCallLocation = { path }
    const offset = num(input.offset)
    if (lower === 'read' && offset !== undefined) loc.line = offset
    const out: { locations?: ToolCallLocation[]; diffs?: ToolCallDiff[] } = { locations: [loc] }
    if (lower === 'write' && typeof input.content === 'string') out.diffs = [{ path, newText: input.content }]
    if (lower === 'edit' && typeof input.new_string === 'string') {
      const d: ToolCallDiff = { path, newText: input.new_string }
      if (typeof input.old_string === 'string') d.oldText = input.old_string
      out.diffs = [d]
    }
    if (lower === 'multiedit' && Array.isArray(input.edits)) {
      out.diffs = input.edits
        .map((e) => obj(e))
        .filter((e): e is Json => !!e && typeof e.new_string === 'string')
        .map((e) => (typeof e.old_string === 'string' ? { path, oldText: e.old_string, newText: e.new_string as string } : { path, newText: e.new_string as string }))
    }
    return out
  }
  const searchPath = str(input.path)
  if ((lower === 'grep' || lower === 'glob' || lower === 'ls') && searchPath !== undefined) return { locations: [{ path: searchPath }] }
  return {}
}

/** A `tool_use` (or `server_tool_use`) block → IR tool call (status is set later by pairing). */
export function toolCallFrom(b: Json): ToolCall {
  const name = str(b.name) ?? ''
  const input = b.input
  const call: ToolCall = { id: str(b.id) ?? '', name, kind: toolKind(name), arguments: input }
  const inp = obj(input)
  if (inp) Object.assign(call, fileEffects(name, inp))
  return call
}

/**
 * Anthropic usage → IR usage (tokens). Fields absent in the store stay absent; `cost` is never
 * set here (Claude Code records cost only per session, in `cost-state`).
 */
export function usageFrom(value: unknown): Usage | undefined {
  const u = obj(value)
  if (!u) return undefined
  const out: Usage = {}
  const set = (k: keyof Usage, v: unknown): void => {
    const n = num(v)
    if (n !== undefined) out[k] = n
  }
  set('inputTokens', u.input_tokens)
  set('outputTokens', u.output_tokens)
  set('cacheReadTokens', u.cache_read_input_tokens)
  set('cacheWriteTokens', u.cache_creation_input_tokens)
  set('thinkingTokens', obj(u.output_tokens_details)?.thinking_tokens)
  return Object.keys(out).length ? out : undefined
}

/**
 * Session totals from a `cost-state` record (`totalCostUSD`, `modelUsage{<model>:{inputTokens,
 * outputTokens, thinkingTokens, cacheReadInputTokens, cacheCreationInputTokens}}`, as in
 * fixtures/real/claude-code). Token fields are summed over models.
 */
export function usageFromCostState(r: Json): Usage | undefined {
  const out: Usage = {}
  const cost = num(r.totalCostUSD)
  if (cost !== undefined) out.cost = cost
  const models = obj(r.modelUsage)
  if (models) {
    const add = (k: keyof Usage, v: unknown): void => {
      const n = num(v)
      if (n !== undefined) out[k] = (out[k] ?? 0) + n
    }
    for (const m of Object.values(models)) {
      const mu = obj(m)
      if (!mu) continue
      add('inputTokens', mu.inputTokens)
      add('outputTokens', mu.outputTokens)
      add('cacheReadTokens', mu.cacheReadInputTokens)
      add('cacheWriteTokens', mu.cacheCreationInputTokens)
      add('thinkingTokens', mu.thinkingTokens)
    }
  }
  return Object.keys(out).length ? out : undefined
}
