/**
 * Copilot CLI's record-type census (`sepia doctor`, src/main/health/census.ts): the `type` of each
 * `events.jsonl` line (`KNOWN_EVENT_TYPES`, ./read.ts). The version is `session.start`'s
 * `data.copilotVersion`.
 */
import type { RecordCensus } from '../types'
import { KNOWN_EVENT_TYPES } from './format'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

export const copilotCliCensus: RecordCensus = {
  known: new Set(KNOWN_EVENT_TYPES),
  keyOf(r, state) {
    if (r.type === 'session.start') state.version = str(obj(r.data)?.copilotVersion) ?? state.version
    return str(r.type) ?? '(no type)'
  },
}
