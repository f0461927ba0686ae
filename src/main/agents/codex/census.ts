/**
 * Codex's record-type census (`sepia doctor`, src/main/health/census.ts): the top-level `type` of
 * each rollout line; for `response_item` and `event_msg` the key is `<type>/<payload.type>`.
 * Known items: message, reasoning, the call and result types of ./tools.ts, ghost_snapshot,
 * compaction. Known events: the ones ./items.ts reads or keeps as counts (`COUNTED_EVENTS`).
 * Pre-0.3x rollouts have untyped lines: a `record_type: "state"` line or the session header.
 * The version is `session_meta.payload.cli_version`.
 */
import type { RecordCensus } from '../types'
import { COUNTED_EVENTS } from './items'
import { CALL_TYPES, RESULT_TYPES } from './tools'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

/** The events items.ts turns into nodes, usage or facts, then the ones it keeps as counts. */
const EVENTS = [
  'user_message', 'agent_message', 'agent_reasoning', 'token_count', 'turn_aborted', 'item_completed', 'exec_command_end',
  ...COUNTED_EVENTS,
]
const ITEMS = ['message', 'reasoning', 'ghost_snapshot', 'compaction', 'compaction_summary', ...CALL_TYPES, ...RESULT_TYPES]

export const codexCensus: RecordCensus = {
  known: new Set([
    'session_meta', 'world_state', 'state', 'turn_context', 'compacted', 'token_usage_record',
    ...ITEMS.map((t) => `response_item/${t}`),
    ...EVENTS.map((t) => `event_msg/${t}`),
  ]),
  keyOf(r, state) {
    const type = str(r.type)
    const p = obj(r.payload)
    if (type === 'session_meta') state.version = str(p?.cli_version) ?? state.version
    if (type === undefined) return r.record_type === 'state' ? 'state' : typeof r.id === 'string' ? 'session_meta' : '(no type)'
    if (type === 'response_item' || type === 'event_msg') return `${type}/${str(p?.type) ?? '(no type)'}`
    return type
  },
}
