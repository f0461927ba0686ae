/**
 * Gemini CLI's record-type census (`sepia doctor`, src/main/health/census.ts): the `type` of each
 * message (`messages[]` of a `.json` chat, or a JSONL line; ./nodes.ts). JSONL lines that are not
 * messages count as `header`, `$set` and `$rewindTo` (./files.ts).
 */
import type { RecordCensus } from '../types'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

export const geminiCensus: RecordCensus = {
  known: new Set(['user', 'gemini', 'info', 'warning', 'error', 'header', '$set', '$rewindTo']),
  keyOf(r) {
    if (typeof r.$rewindTo === 'string') return '$rewindTo'
    if (obj(r.$set)) return '$set'
    if (typeof r.id === 'string') return str(r.type) ?? '(no type)'
    return 'header'
  },
  keysOfJson(json) {
    const messages = obj(json)?.messages
    return Array.isArray(messages) ? messages.map((m) => str(obj(m)?.type) ?? '(no type)') : []
  },
}
