/**
 * Format facts of the crush store that discovery and the census need without loading the reader
 * (`./read.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/** Part types this reader models (`internal/message/message.go` partType). */
export const KNOWN_PART_TYPES = ['text', 'reasoning', 'image_url', 'binary', 'tool_call', 'tool_result', 'finish', 'shell_command'] as const
