/**
 * Format facts of the copilot-cli store that discovery and the census need without loading the reader
 * (`./read.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/** Every event type this reader models (the doctor's census list, ./census.ts). */
export const KNOWN_EVENT_TYPES = [
  'session.start', 'session.resume', 'session.model_change', 'session.permissions_changed', 'session.shutdown', 'session.usage_record',
  'session.compaction_start', 'session.compaction_complete', 'session.truncation',
  'system.message', 'system.notification', 'user.message',
  'assistant.turn_start', 'assistant.message', 'assistant.turn_end',
  'tool.execution_start', 'tool.execution_complete',
  'hook.start', 'hook.end', 'permission.requested', 'permission.completed',
] as const
