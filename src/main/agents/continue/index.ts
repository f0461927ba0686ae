/**
 * Continue (continuedev/continue: the VS Code and JetBrains extensions and the `cn` CLI):
 * `~/.continue/sessions/<id>.json` plus the `sessions.json` index. Shapes from the
 * Continue source (files in read.ts and discover.ts), checked on the store the real CLI (`cn`
 * 1.5.47) wrote offline (fixtures/real/continue); the IDE-only shapes are in fixtures/built/continue,
 * built from those source shapes. Convert target: `write.ts` writes a new session that the CLI
 * continues with `cn --fork <id>` (provider family `any`: the CLI talks to any configured provider,
 * so no thinking is replayed).
 */
import type { AgentDefinition } from '../types'
import { discoverContinue } from './discover'
import { readContinueSession } from './read'
import { writeContinueSession } from './write'

export { FORMAT_SESSION } from './discover'

/** The Continue definition for the registry. */
export const continueAgent: AgentDefinition = {
  id: 'continue',
  displayName: 'Continue',
  capabilities: { canWrite: true, hasCheckpoints: false, hasThinkingSignatures: true, providerFamily: 'any' },
  discover: discoverContinue,
  read: readContinueSession,
  write: writeContinueSession,
}
