/**
 * Pi (npm `@mariozechner/pi-coding-agent`, github badlogic/pi-mono `packages/coding-agent`):
 * `~/.pi/agent/sessions/<encoded cwd>/<timestamp>_<id>.jsonl`, a JSONL tree of entries linked by
 * `id`/`parentId`. Built from Pi's source (session-manager.ts, messages.ts, pi-ai
 * types.ts) and proven on real stores written offline by pi 0.73.1 (fixtures/real/pi). Convert
 * target: `write.ts` writes a new session that `pi --session <id>` continues (provider family `any`:
 * Pi talks to any provider, and replays another model's thinking as text, so none is written).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { piCensus } from './census'
import { discoverPi } from './discover'

export { FORMAT_PI } from './discover'
export { KNOWN_ENTRY_TYPES, KNOWN_MESSAGE_ROLES } from './format'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readPiSession = lazy(() => import('./read').then((m) => m.readPiSession))
const writePiSession = lazy(() => import('./write').then((m) => m.writePiSession))

/** The Pi definition for the registry. */
export const pi: AgentDefinition = {
  id: 'pi',
  displayName: 'Pi',
  capabilities: { canWrite: true, hasCheckpoints: false, hasThinkingSignatures: true, providerFamily: 'any' },
  discover: discoverPi,
  read: readPiSession,
  census: piCensus,
  write: writePiSession,
}
