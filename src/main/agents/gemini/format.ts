/**
 * Format facts of the gemini store that discovery and the census need without loading the reader
 * (`./read.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/** Store generation of a `chats/session-*.jsonl` session. */
export const FORMAT_JSONL = 'gemini-jsonl'

/** Store generation of an older single-object `chats/session-*.json` session. */
export const FORMAT_JSON = 'gemini-json'

/** Store generation of a sub-agent's `chats/<parent id>/<id>.jsonl`. */
export const FORMAT_SUBAGENT = 'gemini-subagent'
