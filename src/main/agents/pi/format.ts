/**
 * Format facts of the pi store that discovery and the census need without loading the reader
 * (`./read.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/** Every entry `type` this reader models (session-manager.ts `FileEntry`). */
export const KNOWN_ENTRY_TYPES = ['session', 'message', 'model_change', 'thinking_level_change', 'compaction', 'branch_summary', 'custom', 'custom_message', 'label', 'session_info'] as const

/** Every `message.role` this reader models (`AgentMessage`; `hookMessage` is v2's name of `custom`). */
export const KNOWN_MESSAGE_ROLES = ['user', 'assistant', 'toolResult', 'bashExecution', 'custom', 'hookMessage', 'branchSummary', 'compactionSummary'] as const
