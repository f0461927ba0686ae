/**
 * OpenHands (All-Hands-AI/OpenHands): the V0 CLI's and `openhands serve`'s local file store,
 * `~/.openhands/sessions/<sid>/events/<n>.json` plus `metadata.json`. Read-only. Facts from the
 * OpenHands source (files and commits in discover.ts and read.ts). The fixture in
 * fixtures/built/openhands is built from those source shapes, not recorded: OpenHands is a Python
 * program, not installable from npm here, and no real store was available.
 */
import type { AgentDefinition } from '../types'
import { discoverOpenHands } from './discover'
import { readOpenHandsSession } from './read'

export { FORMAT_EVENTS } from './discover'

/** The OpenHands definition for the registry. */
export const openhands: AgentDefinition = {
  id: 'openhands',
  displayName: 'OpenHands',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false },
  discover: discoverOpenHands,
  read: readOpenHandsSession,
}
