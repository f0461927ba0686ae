/**
 * OpenHands (All-Hands-AI/OpenHands, OpenHands/OpenHands-CLI): two local stores under `~/.openhands`,
 * both read here. The V0 CLI's and `openhands serve`'s file store,
 * `sessions/<sid>/events/<n>.json` plus `metadata.json` (discover.ts, read.ts), and the newer
 * openhands-cli's ("V1", on OpenHands/software-agent-sdk) `conversations/<hex>/base_state.json` plus
 * `events/event-<n>-<uuid>.json` (discover.ts, read-v1.ts): one agent, since both are OpenHands'
 * event streams under the same folder, one event a JSON file, told apart by their paths. Read-only.
 * Both fixtures are built from the source's shapes, not recorded (fixtures/built/openhands,
 * fixtures/built/openhands-v1): OpenHands is a Python program, and PyPI is not reachable here.
 */
import { lazy } from '../lazy'
import type { AgentDefinition, ReadContext, StoreRef } from '../types'
import { openhandsCensus } from './census'
import { discoverOpenHands, FORMAT_V1 } from './discover'

export { FORMAT_EVENTS, FORMAT_V1 } from './discover'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readOpenHandsSession = lazy(() => import('./read').then((m) => m.readOpenHandsSession))
const readOpenHandsV1 = lazy(() => import('./read-v1').then((m) => m.readOpenHandsV1))

/** Read a ref of either store (by its `format`). */
function readEither(ref: StoreRef, ctx: ReadContext) {
  return ref.format === FORMAT_V1 ? readOpenHandsV1(ref, ctx) : readOpenHandsSession(ref, ctx)
}

/** The OpenHands definition for the registry. */
export const openhands: AgentDefinition = {
  id: 'openhands',
  displayName: 'OpenHands',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: false },
  discover: discoverOpenHands,
  read: readEither,
  census: openhandsCensus,
}
