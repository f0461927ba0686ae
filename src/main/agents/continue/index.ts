/**
 * Continue (continuedev/continue: the VS Code and JetBrains extensions and the `cn` CLI):
 * `~/.continue/sessions/<id>.json` plus the `sessions.json` index. Read-only. Shapes from the
 * Continue source (files in read.ts and discover.ts), checked on the store the real CLI (`cn`
 * 1.5.47) wrote offline (fixtures/real/continue); the IDE-only shapes are in fixtures/built/continue,
 * built from those source shapes.
 */
import type { AgentDefinition } from '../types'
import { discoverContinue } from './discover'
import { readContinueSession } from './read'

export { FORMAT_SESSION } from './discover'

/** The Continue definition for the registry. */
export const continueAgent: AgentDefinition = {
  id: 'continue',
  displayName: 'Continue',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: true },
  discover: discoverContinue,
  read: readContinueSession,
}
