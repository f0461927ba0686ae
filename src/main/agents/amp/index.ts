/**
 * Amp (npm `@sourcegraph/amp` / `@ampcode/cli`): `~/.local/share/amp/threads/T-<uuid>.json`.
 * Read-only. Amp needs an ampcode.com login for every model call, so it was not run here; the
 * reader is built from public readers of the store (see discover.ts, read.ts) and checked on a
 * store built in those shapes (fixtures/built/amp).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverAmp } from './discover'

export { FORMAT_AMP } from './discover'
export { KNOWN_BLOCK_TYPES, KNOWN_ROLES } from './format'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readAmpThread = lazy(() => import('./read').then((m) => m.readAmpThread))

/** The Amp definition for the registry. */
export const amp: AgentDefinition = {
  id: 'amp',
  displayName: 'Amp',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false },
  discover: discoverAmp,
  read: readAmpThread,
}
