/**
 * Qwen Code (npm `@qwen-code/qwen-code`, a Gemini CLI fork): `~/.qwen/projects/<sanitized
 * cwd>/chats/<sessionId>.jsonl`, one `ChatRecord` per line in a `uuid`/`parentUuid` tree.
 * Built from the real CLI's store (0.15.10, run offline against the loopback mock:
 * fixtures/real/qwen-code/README.md) and QwenLM/qwen-code's chatRecordingService.ts. Reuses the
 * Gemini reader's `Part` and tool handling; read.ts says where the formats differ. Convert target:
 * `write.ts` writes a new chat that `qwen --resume <id>` continues (provider family `any`: the CLI
 * talks to any OpenAI-compatible, Anthropic or Gemini provider, so no thinking is replayed).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { qwenCodeCensus } from './census'
import { discoverQwenCode } from './discover'

export { FORMAT_CHATS } from './discover'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readQwenCodeSession = lazy(() => import('./read').then((m) => m.readQwenCodeSession))
const writeQwenCodeSession = lazy(() => import('./write').then((m) => m.writeQwenCodeSession))

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
