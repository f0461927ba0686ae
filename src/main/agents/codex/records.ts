/**
 * One rollout line → a normalized record `{kind, payload, at}`.
 *
 * Rollout shape (codex-rs `protocol/src/protocol.rs` `RolloutLine {timestamp, #[serde(flatten)]
 * item: RolloutItem}` with `RolloutItem` tagged `type`/`payload`: `session_meta`, `response_item`,
 * `event_msg`, `turn_context`, `compacted`; fixtures/real/codex/README.md (Codex 0.171.0) adds
 * `world_state`, `token_usage_record` and an `ordinal` on every line).
 *
 * Early codex-rs rollouts (spring 2025, `core/src/rollout.rs` before `RolloutLine`) wrote the
 * session meta `{id, timestamp, instructions?, git?}` as a bare first line, then each
 * `ResponseItem` as a bare line (`{"type":"message",...}`) and `{"record_type":"state",...}`
 * snapshots; those are read as `session_meta`, `response_item` and `state` records.
 */

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

/** `value` when it is an array, else an empty array. */
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

/** ISO-8601 time → ms since epoch; undefined when absent or unparsable. */
export function isoToMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : ms
}

/** Parse a JSON string, or undefined when it is not JSON. */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The thread UUID at the end of a rollout file name (`rollout-<time>-<uuid>.jsonl`). */
export const FILE_UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i

/** A normalized rollout line. */
export interface RolloutRecord {
  /** `session_meta`, `response_item`, `event_msg`, `turn_context`, `compacted`, `state`, or any newer kind. */
  kind: string
  /** The item's payload (for bare legacy lines: the line itself). */
  payload: Json
  /** The line's `timestamp`, ms since epoch (absent when the line has none). */
  at?: number
  /** 1-based line number. */
  line: number
}

/** Response item types early rollouts wrote as bare lines (codex-rs `models.rs` `ResponseItem`). */
const BARE_ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
])

/** What {@link parseRolloutLine} made of one line. */
export type ParsedLine =
  | { record: RolloutRecord }
  | { blank: true }
  | { problem: { severity: 'error' | 'warning'; message: string; /** The line is lost (`Diagnostic.skipped`) though only a warning. */ skipped?: number } }

/** Normalize one line (see the module comment). Never throws. */
export function parseRolloutLine(text: string, line: number): ParsedLine {
  if (text.trim() === '') return { blank: true }
  const value = tryJson(text)
  if (value === undefined) return { problem: { severity: 'error', message: 'line is not JSON; skipped' } }
  const o = obj(value)
  if (!o) return { problem: { severity: 'warning', message: 'line is JSON but not an object; skipped', skipped: 1 } }
  const at = isoToMs(o.timestamp)
  const base = at === undefined ? { line } : { line, at }
  const type = str(o.type)
  const payload = obj(o.payload)
  if (type !== undefined && payload) return { record: { ...base, kind: type, payload } }
  if (type !== undefined && BARE_ITEM_TYPES.has(type)) return { record: { ...base, kind: 'response_item', payload: o } }
  if (type === undefined && o.record_type === 'state') return { record: { ...base, kind: 'state', payload: o } }
  if (type === undefined && typeof o.id === 'string' && typeof o.timestamp === 'string') {
    return { record: { ...base, kind: 'session_meta', payload: o } }
  }
  // A newer kind whose payload is not an object: keep the whole line so its text is not lost.
  if (type !== undefined) return { record: { ...base, kind: type, payload: o } }
  return { problem: { severity: 'warning', message: 'line has no "type"; skipped', skipped: 1 } }
}
