/**
 * Format facts of the droid store that discovery and the census need without loading the reader
 * (`./read.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/** Every event `type` this reader models. */
export const KNOWN_EVENT_TYPES = ['session_start', 'message', 'todo_state', 'compaction_state', 'agent_turn_outcome'] as const
