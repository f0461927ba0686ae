/**
 * Factory Droid (npm `@factory/cli`, `droid`): `~/.factory/sessions/<project slug>/<id>.jsonl`
 * with `<id>.settings.json`. Read-only. Built from the CLI's bundled code (0.225.2 linux-x64
 * binary) and proven on real stores written offline by droid 0.225.2 against the loopback mock
 * (fixtures/real/droid).
 */
import type { AgentDefinition } from '../types'
import { discoverDroid } from './discover'
import { readDroidSession } from './read'

export { FORMAT_DROID } from './discover'
export { KNOWN_EVENT_TYPES } from './read'

/** The Droid definition for the registry. */
export const droid: AgentDefinition = {
  id: 'droid',
  displayName: 'Factory Droid',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: true },
  discover: discoverDroid,
  read: readDroidSession,
}
