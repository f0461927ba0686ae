/**
 * Format facts of the letta-code store that discovery and the census need without loading the reader
 * (`./read.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/** Entry `type`s of a schema 2 transcript (`LocalTranscriptSessionEntry`). */
export const KNOWN_ENTRY_TYPES = ['session', 'message', 'compaction'] as const

/** `message.role`s of a `LocalMessage`. */
export const KNOWN_MESSAGE_ROLES = ['user', 'assistant', 'toolResult'] as const
