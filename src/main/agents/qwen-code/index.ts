/**
 * Qwen Code (npm `@qwen-code/qwen-code`, a Gemini CLI fork): `~/.qwen/projects/<sanitized
 * cwd>/chats/<sessionId>.jsonl`, one `ChatRecord` per line in a `uuid`/`parentUuid` tree.
 * Built from the real CLI's store (0.15.10, run offline against the loopback mock:
 * fixtures/real/qwen-code/README.md) and QwenLM/qwen-code's chatRecordingService.ts. Reuses the
 * Gemini reader's `Part` and tool handling; read.ts says where the formats differ. Convert target:
 * `write.ts` writes a new chat that `qwen --resume <id>` continues (provider family `any`: the CLI
 * talks to any OpenAI-compatible, Anthropic or Gemini provider, so no thinking is replayed).
 */
import type { AgentDefinition } from '../types'
import { qwenCodeCensus } from './census'
import { discoverQwenCode } from './discover'
import { readQwenCodeSession } from './read'
import { writeQwenCodeSession } from './write'

export { FORMAT_CHATS } from './discover'

/** The Qwen Code definition for the registry. */
export const qwenCode: AgentDefinition = {
  id: 'qwen-code',
  displayName: 'Qwen Code',
  capabilities: { canWrite: true, hasCheckpoints: false, hasThinkingSignatures: false, providerFamily: 'any' },
  discover: discoverQwenCode,
  read: readQwenCodeSession,
  census: qwenCodeCensus,
  write: writeQwenCodeSession,
}
