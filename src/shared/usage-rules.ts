/**
 * Per-agent rules for adding up token usage, shared by the usage report (src/main/usage/aggregate.ts)
 * and the session header (src/renderer/src/components/SessionHeader.vue) so both give the same
 * figures. No Node imports: the renderer uses it too.
 */
import type { AgentId, Usage } from './ir'

/**
 * Agents whose readers keep reasoning tokens out of `outputTokens` (they are billed as output):
 * Gemini CLI (`tokens.output` excludes `thoughts`, src/main/agents/gemini/nodes.ts; its own
 * `tokens.total` is input + output + thoughts + tool) and the OpenCode family (`tokens.reasoning`
 * beside `tokens.output`, src/main/agents/opencode/parts.ts). Claude Code and Codex count reasoning
 * inside `outputTokens` already (Codex `output_tokens` includes `reasoning_output_tokens`). One
 * rule: reasoning is output, so for these agents their thinking tokens are added to output (and
 * priced as output), as the other agents' already are.
 */
export const THINKING_SEPARATE: readonly AgentId[] = ['gemini', 'opencode', 'kilo-code']

/**
 * Agents whose stores keep no token counts that add up: Crush's `sessions.prompt_tokens` and
 * `completion_tokens` are overwritten by every response and only `cost` accumulates
 * (src/main/agents/crush/read.ts, from github:charmbracelet/crush `internal/llm/agent/agent.go`
 * TrackUsage at 9d68f99e and `internal/agent/agent.go` updateSessionTokenCounters at 37f36e93).
 * Their usage counts for cost, never for tokens.
 */
export const TOKENS_UNKNOWN: readonly AgentId[] = ['crush']

/** Output tokens of `u` with reasoning included, by the rule of {@link THINKING_SEPARATE}; undefined when neither is recorded. */
export function outputWithReasoning(agent: AgentId, u: Usage): number | undefined {
  if (!THINKING_SEPARATE.includes(agent)) return u.outputTokens
  if (u.outputTokens === undefined && u.thinkingTokens === undefined) return undefined
  return (u.outputTokens ?? 0) + (u.thinkingTokens ?? 0)
}
