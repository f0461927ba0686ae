/**
 * Letta Code (npm `@letta-ai/letta-code`, github letta-ai/letta-code): the local backend's store,
 * `~/.letta/lc-local-backend/conversations/<base64url key>/messages.jsonl` with `conversation.json`
 * and `manifest.json` (see discover.ts). Conversations kept on a Letta server (the default backend)
 * are not on disk and are not read. Read-only. Built from Letta Code's source
 * (src/backend/local/local-store.ts) and proven on real stores Letta Code 0.32.8 wrote offline
 * against the loopback mock (fixtures/real/letta-code).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { lettaCodeCensus } from './census'
import { discoverLettaCode } from './discover'

export { FORMAT_LETTA_LOCAL } from './discover'
export { KNOWN_ENTRY_TYPES, KNOWN_MESSAGE_ROLES } from './format'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readLettaConversation = lazy(() => import('./read').then((m) => m.readLettaConversation))

/** The Letta Code definition for the registry. */
export const lettaCode: AgentDefinition = {
  id: 'letta-code',
  displayName: 'Letta Code',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false },
  discover: discoverLettaCode,
  read: readLettaConversation,
  census: lettaCodeCensus,
}
