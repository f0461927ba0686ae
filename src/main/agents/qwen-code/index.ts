/**
 * Qwen Code (npm `@qwen-code/qwen-code`, a Gemini CLI fork): `~/.qwen/projects/<sanitized
 * cwd>/chats/<sessionId>.jsonl`, one `ChatRecord` per line in a `uuid`/`parentUuid` tree.
 * Read-only. Built from the real CLI's store (0.15.10, run offline against the loopback mock:
 * fixtures/real/qwen-code/README.md) and QwenLM/qwen-code's chatRecordingService.ts. Reuses the
 * Gemini reader's `Part` and tool handling; read.ts says where the formats differ.
 */
import type { AgentDefinition } from '../types'
import { qwenCodeCensus } from './census'
import { discoverQwenCode } from './discover'
import { readQwenCodeSession } from './read'

export { FORMAT_CHATS } from './discover'

/** The Qwen Code definition for the registry. */
export const qwenCode: AgentDefinition = {
  id: 'qwen-code',
  displayName: 'Qwen Code',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false },
  discover: discoverQwenCode,
  read: readQwenCodeSession,
  census: qwenCodeCensus,
}
