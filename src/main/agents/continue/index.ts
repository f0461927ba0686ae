/**
 * Continue (continuedev/continue: the VS Code and JetBrains extensions and the `cn` CLI):
 * `~/.continue/sessions/<id>.json` plus the `sessions.json` index. Shapes from the
 * Continue source (files in read.ts and discover.ts), checked on the store the real CLI (`cn`
 * 1.5.47) wrote offline (fixtures/real/continue); the IDE-only shapes are in fixtures/built/continue,
 * built from those source shapes. Convert target: `write.ts` writes a new session that the CLI
 * continues with `cn --fork <id>` (provider family `any`: the CLI talks to any configured provider,
 * so no thinking is replayed).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverContinue } from './discover'

export { FORMAT_SESSION } from './discover'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readContinueSession = lazy(() => import('./read').then((m) => m.readContinueSession))
const writeContinueSession = lazy(() => import('./write').then((m) => m.writeContinueSession))

/** The Continue definition for the registry. */
export const continueAgent: AgentDefinition = {
  id: 'continue',
  displayName: 'Continue',
  capabilities: { canWrite: true, hasCheckpoints: false, hasThinkingSignatures: true, providerFamily: 'any' },
  discover: discoverContinue,
  read: readContinueSession,
  write: writeContinueSession,
}
