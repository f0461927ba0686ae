/**
 * Letta Code's record-type census (`sepia doctor`, src/main/health/census.ts): each
 * `messages.jsonl` line keyed by its entry `type`, a `message` entry by `message:<role>`
 * (`KNOWN_ENTRY_TYPES`, `KNOWN_MESSAGE_ROLES`, ./read.ts). A legacy (schema 1) line is a bare
 * message: keyed by `message:<role>` too. The side JSON files (`conversation.json`,
 * `manifest.json`) hold no records.
 */
import type { RecordCensus } from '../types'
import { KNOWN_ENTRY_TYPES, KNOWN_MESSAGE_ROLES } from './format'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)

export const lettaCodeCensus: RecordCensus = {
  known: new Set([...KNOWN_ENTRY_TYPES.filter((t) => t !== 'message'), ...KNOWN_MESSAGE_ROLES.map((r) => `message:${r}`)]),
  keyOf(r) {
    const m = r.type === 'message' ? obj(r.message) : r.type === undefined && typeof r.role === 'string' ? r : undefined
    if (m) return `message:${typeof m.role === 'string' ? m.role : '(no role)'}`
    return typeof r.type === 'string' ? r.type : '(no type)'
  },
  keysOfJson: () => [],
}
