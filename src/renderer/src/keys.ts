/** Injection keys shared by the session view and the components inside it. */
import type { InjectionKey, Ref } from 'vue'

/** "Expand all / collapse all tool calls": every change of `version` sets every card to `open`. */
export interface ToolsExpandSignal {
  open: boolean
  version: number
}

/** Provided by SessionView, watched by every ToolCallCard. */
export const TOOLS_EXPAND: InjectionKey<Ref<ToolsExpandSignal>> = Symbol('tools-expand')
