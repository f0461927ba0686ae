/**
 * Qwen Code's record-type census (`sepia doctor`, src/main/health/census.ts): the `type` of each
 * chat JSONL line, `system/<subtype>` for system records (`KNOWN_RECORD_TYPES`, ./read.ts). The
 * version is each line's `version`.
 */
import type { RecordCensus } from '../types'
import { KNOWN_RECORD_TYPES } from './format'

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

export const qwenCodeCensus: RecordCensus = {
  known: new Set(KNOWN_RECORD_TYPES),
  keyOf(r, state) {
    state.version = str(r.version) ?? state.version
    const type = str(r.type) ?? '(no type)'
    return type === 'system' ? `system/${str(r.subtype) ?? '(no subtype)'}` : type
  },
}
