/**
 * Pi's record-type census (`sepia doctor`, src/main/health/census.ts): the `type` of each session
 * line (`KNOWN_ENTRY_TYPES`, ./read.ts).
 */
import type { RecordCensus } from '../types'
import { KNOWN_ENTRY_TYPES } from './format'

export const piCensus: RecordCensus = {
  known: new Set(KNOWN_ENTRY_TYPES),
  keyOf: (r) => (typeof r.type === 'string' ? r.type : '(no type)'),
}
