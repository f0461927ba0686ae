/**
 * Format facts of the amp store that discovery and the census need without loading the reader
 * (`./read.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/** Message roles this reader models. */
export const KNOWN_ROLES = ['user', 'assistant', 'info'] as const

/** Content block types this reader models. */
export const KNOWN_BLOCK_TYPES = ['text', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'image', 'summary'] as const
