/**
 * Pi (npm `@mariozechner/pi-coding-agent`, github badlogic/pi-mono `packages/coding-agent`):
 * `~/.pi/agent/sessions/<encoded cwd>/<timestamp>_<id>.jsonl`, a JSONL tree of entries linked by
 * `id`/`parentId`. Built from Pi's source (session-manager.ts, messages.ts, pi-ai
 * types.ts) and proven on real stores written offline by pi 0.73.1 (fixtures/real/pi). Convert
 * target: `write.ts` writes a new session that `pi --session <id>` continues (provider family `any`:
 * Pi talks to any provider, and replays another model's thinking as text, so none is written).
 */
import type { AgentDefinition } from '../types'
import { piCensus } from './census'
import { discoverPi } from './discover'
import { readPiSession } from './read'
import { writePiSession } from './write'

export { FORMAT_PI } from './discover'
export { KNOWN_ENTRY_TYPES, KNOWN_MESSAGE_ROLES } from './read'

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
