/** Injection keys shared by the session view and the components inside it. */
import type { InjectionKey, Ref } from 'vue'

/** "Expand all / collapse all tool calls": every change of `version` sets every card to `open`. */
export interface ToolsExpandSignal {
  open: boolean
  version: number
}

/** Provided by SessionView, watched by every ToolCallCard. */
export const TOOLS_EXPAND: InjectionKey<Ref<ToolsExpandSignal>> = Symbol('tools-expand')

/**
 * Tool call ids whose cards must be open (a find or search hit lies in their result, issue 17).
 * Provided by SessionView, read by every ToolCallCard when it mounts and when the set changes.
 */
export const TOOLS_UNFOLD: InjectionKey<Ref<ReadonlySet<string>>> = Symbol('tools-unfold')

/**
 * Node ids whose "Thinking" must be open (a find match lies in the thinking, issue 17).
 * Provided by SessionView, read by every ThinkingBlock when it mounts and when the set changes.
 */
export const THINKING_UNFOLD: InjectionKey<Ref<ReadonlySet<string>>> = Symbol('thinking-unfold')
