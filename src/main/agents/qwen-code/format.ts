/**
 * Format facts of the qwen-code store that discovery and the census need without loading the reader
 * (`./read.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/**
 * Census keys this reader models (the doctor's list, ./census.ts): the record
 * types and, for `system` records, `system/<subtype>` for every subtype of `ChatRecord.subtype`
 * in chatRecordingService.ts @015346f1 (bookkeeping ones are read for facts or skipped on purpose;
 * the rest are shown as markers).
 */
export const KNOWN_RECORD_TYPES = [
  'user', 'assistant', 'tool_result',
  ...['session_notes', 'chat_compression', 'slash_command', 'ui_telemetry', 'at_command', 'attribution_snapshot', 'notification',
    'background_task_completed', 'cron', 'mid_turn_user_message', 'custom_title', 'parent_session', 'session_source',
    'session_execution_engine', 'omni_recall', 'session_model', 'session_approval_mode', 'rewind', 'agent_bootstrap',
    'agent_launch_prompt', 'agent_retry', 'agent_session_ready', 'file_history_snapshot', 'user_text_elements',
    'session_artifact_event', 'session_artifact_snapshot', 'session_sources_snapshot', 'branch_checkpoint', 'goal_state',
    'goal_runtime', 'goal_turn_end', 'realtime_message', 'turn_result', 'managed_session_header_v1',
    'managed_session_event_v1', 'managed_session_commit_v1'].map((t) => `system/${t}`),
] as const
