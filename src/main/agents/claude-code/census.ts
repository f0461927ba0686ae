/**
 * Claude Code's record-type census (`sepia doctor`, src/main/health/census.ts): the `type` of
 * each JSONL line. Known: messages (`user`, `assistant`, `system`) plus the metadata types the
 * reader takes facts from (`METADATA_TYPES`, ./facts.ts). The version is each line's `version`.
 */
import type { RecordCensus } from '../types'
import { METADATA_TYPES } from './facts'
import { parseLine } from './parse'

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

export const claudeCodeCensus: RecordCensus = {
  known: new Set(['user', 'assistant', 'system', ...METADATA_TYPES]),
  keyOf(r, state) {
    const v = str(r.version)
    if (v) state.version = v
    return str(r.type) ?? '(no type)'
  },
  // As the reader reads it (./parse.ts): a line of two glued records is two records; a line cut
  // short or holding NUL bytes inside a record is unreadable (fixtures/cases/claude-code/04-broken-lines).
  lineRecords(text) {
    const p = parseLine(text)
    return { records: p.records, unreadable: p.problem?.severity === 'error' }
  },
}
