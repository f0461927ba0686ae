/**
 * Factory Droid (npm `@factory/cli`, `droid`): `~/.factory/sessions/<project slug>/<id>.jsonl`
 * with `<id>.settings.json`. Built from the CLI's bundled code (0.225.2 linux-x64 binary) and
 * proven on real stores written offline by droid 0.225.2 against the loopback mock
 * (fixtures/real/droid). Convert target: `write.ts` writes a new session that the terminal UI's
 * `droid --resume <id>` continues (offline only in Airgap Mode, `FACTORY_AIRGAP_ENABLED=true`:
 * without it the UI asks for a Factory login first; provider family `any`: no thinking written).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverDroid } from './discover'

export { FORMAT_DROID } from './discover'
export { KNOWN_EVENT_TYPES } from './format'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readDroidSession = lazy(() => import('./read').then((m) => m.readDroidSession))
const writeDroidSession = lazy(() => import('./write').then((m) => m.writeDroidSession))

/** The Droid definition for the registry. */
export const droid: AgentDefinition = {
  id: 'droid',
  displayName: 'Factory Droid',
  capabilities: { canWrite: true, hasCheckpoints: false, hasThinkingSignatures: true, providerFamily: 'any' },
  discover: discoverDroid,
  read: readDroidSession,
  write: writeDroidSession,
}
