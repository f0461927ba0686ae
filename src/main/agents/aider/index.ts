/**
 * Aider (pip `aider-chat`): `.aider.chat.history.md` and `.aider.input.history` in each project's
 * git root, one session per `# aider chat started at` block. Read-only. Built from Aider's source
 * (github:Aider-AI/aider `aider/io.py`, `aider/coders/base_coder.py`) and the public real
 * histories in fixtures/public-real/aider (Aider 0.84.0–0.86.1); no offline run of the CLI here.
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverAider } from './discover'

export { CHAT_HISTORY, FORMAT_CHAT_HISTORY, INPUT_HISTORY } from './discover'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readAiderSession = lazy(() => import('./read').then((m) => m.readAiderSession))

/** The Aider definition for the registry. */
export const aider: AgentDefinition = {
  id: 'aider',
  displayName: 'Aider',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false },
  discover: discoverAider,
  read: readAiderSession,
}
