/**
 * Format facts of the openhands store that discovery and the census need without loading the reader
 * (`./read-v1.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/** Event kinds that are read as nodes. */
export const SHOWN_V1_KINDS = ['SystemPromptEvent', 'MessageEvent', 'ActionEvent', 'ObservationEvent', 'UserRejectObservation', 'AgentErrorEvent', 'Condensation', 'CondensationSummaryEvent', 'InterruptEvent', 'ConversationErrorEvent'] as const

/** Event kinds that are known and not shown (state, control, streaming and log events). */
export const HIDDEN_V1_KINDS = ['ConversationStateUpdateEvent', 'CondensationRequest', 'PauseEvent', 'LLMCompletionLogEvent', 'TokenEvent', 'StreamingDeltaEvent', 'HookExecutionEvent', 'ACPToolCallEvent'] as const
