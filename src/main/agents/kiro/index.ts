/**
 * Kiro (AWS's VS Code fork): the agent chats its `kiro.kiroagent` extension keeps in
 * `globalStorage/kiro.kiroagent/workspace-sessions/`. Read-only. Plain JSON in Continue's session
 * shape, read by the Continue reader (`../continue/read.ts`, tagged `kiro`). Built from public
 * descriptions of the folder (Kiro's source is not public, and Kiro cannot run here); see
 * `discover.ts` and fixtures/built/kiro/README.md.
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverKiro } from './discover'

export { FORMAT_KIRO_SESSION, KIRO_EXTENSION_ID, kiroSessionRoots } from './discover'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readContinueShapedSession = lazy(() => import('../continue/read').then((m) => m.readContinueShapedSession))

/** The Kiro definition for the registry. */
export const kiro: AgentDefinition = {
  id: 'kiro',
  displayName: 'Kiro',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false },
  discover: discoverKiro,
  read: readContinueShapedSession,
}
