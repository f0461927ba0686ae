/**
 * Format facts of the claude-code store that discovery and the census need without loading the reader
 * (`./read.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/** Store generation of a top-level session file. */
export const FORMAT_SESSION = 'claude-code-jsonl'

/** Store generation of a sub-agent transcript. */
export const FORMAT_SUBAGENT = 'claude-code-subagent'
