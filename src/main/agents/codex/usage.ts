/**
 * Codex token usage → IR {@link Usage}, and the running totals of `token_count` events.
 *
 * Store facts: codex-rs `protocol/src/protocol.rs` `TokenUsage {input_tokens,
 * cached_input_tokens, output_tokens, reasoning_output_tokens, total_tokens}` (Codex 0.171.0 adds
 * `cache_write_input_tokens`, fixtures/real/codex); `input_tokens` includes the cached part
 * (`TokenUsage::non_cached_input`) and `output_tokens` includes reasoning. `event_msg token_count`
 * carries `info.total_token_usage` (running total of the thread) and `info.last_token_usage` (the
 * last model response); early builds wrote totals only, and Codex re-emits an unchanged
 * `token_count` when only rate limits change (ccusage `apps/codex/src/data-loader.ts`;
 * fixtures/public/codex ccusage samples). `token_usage_record {response_id, usage,
 * turn_token_usage, thread_token_usage}` (0.171.0) is one response's usage.
 */
import type { Usage } from '../../../shared/ir'
import { type Json, num, obj } from './records'

/**
 * A Codex token usage object → IR usage. `inputTokens` excludes cache reads and writes
 * (`input - cached - cache_write`, never below 0); `outputTokens` is Codex's `output_tokens`
 * (reasoning included); `thinkingTokens` is `reasoning_output_tokens`. Undefined when the object
 * has none of these counters.
 */
export function toUsage(value: unknown): Usage | undefined {
  const u = obj(value)
  if (!u) return undefined
  const input = num(u.input_tokens)
  const cached = num(u.cached_input_tokens) ?? num(u.cache_read_input_tokens)
  const write = num(u.cache_write_input_tokens)
  const output = num(u.output_tokens)
  const reasoning = num(u.reasoning_output_tokens)
  if (input === undefined && cached === undefined && write === undefined && output === undefined && reasoning === undefined) return undefined
  const out: Usage = {}
  if (input !== undefined) out.inputTokens = Math.max(0, input - (cached ?? 0) - (write ?? 0))
  if (output !== undefined) out.outputTokens = output
  if (cached !== undefined) out.cacheReadTokens = cached
  if (write !== undefined) out.cacheWriteTokens = write
  if (reasoning !== undefined) out.thinkingTokens = reasoning
  return out
}

const COUNTERS = ['input_tokens', 'cached_input_tokens', 'cache_write_input_tokens', 'output_tokens', 'reasoning_output_tokens'] as const

/** `current - previous` counter by counter (never below 0), as a raw Codex usage object. */
function subtract(current: Json, previous: Json | undefined): Json {
  const out: Json = {}
  for (const k of COUNTERS) {
    const c = num(current[k])
    if (c === undefined) continue
    out[k] = Math.max(0, c - (num(previous?.[k]) ?? 0))
  }
  return out
}

function sameCounters(a: Json, b: Json | undefined): boolean {
  if (!b) return false
  return COUNTERS.every((k) => num(a[k]) === num(b[k])) && num(a.total_tokens) === num(b.total_tokens)
}

/**
 * Turns successive `token_count` payloads into per-response usage: `last_token_usage` when
 * present, else the difference of `total_token_usage` from the previous event. An event whose
 * totals equal the previous event's is a re-emission and yields nothing.
 */
export class TokenCounter {
  private previous: Json | undefined

  /** The usage of the response this `token_count` payload reports, or undefined. */
  next(payload: Json): Usage | undefined {
    const info = obj(payload.info)
    if (!info) return undefined
    const total = obj(info.total_token_usage)
    const last = obj(info.last_token_usage)
    if (total && sameCounters(total, this.previous)) return undefined
    const delta = last ?? (total ? subtract(total, this.previous) : undefined)
    if (total) this.previous = total
    return toUsage(delta)
  }
}
