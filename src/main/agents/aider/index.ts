/**
 * Aider (pip `aider-chat`): `.aider.chat.history.md` and `.aider.input.history` in each project's
 * git root, one session per `# aider chat started at` block. Read-only. Built from Aider's source
 * (github:Aider-AI/aider `aider/io.py`, `aider/coders/base_coder.py`) and the public real
 * histories in fixtures/public-real/aider (Aider 0.84.0–0.86.1); no offline run of the CLI here.
 */
import type { AgentDefinition } from '../types'
import { discoverAider } from './discover'
import { readAiderSession } from './read'

export { CHAT_HISTORY, FORMAT_CHAT_HISTORY, INPUT_HISTORY } from './discover'

/** The Aider definition for the registry. */
export const aider: AgentDefinition = {
  id: 'aider',
  displayName: 'Aider',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false },
  discover: discoverAider,
  read: readAiderSession,
}
