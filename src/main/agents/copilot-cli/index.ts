/**
 * GitHub Copilot CLI (npm `@github/copilot`): `~/.copilot/session-state/<sessionId>/events.jsonl`,
 * one event per line chained by `parentId`. Built from the public real sessions in
 * fixtures/public-real/copilot-cli (CLI 1.0.64 and 1.0.68) and proven on the real store CLI 1.0.102
 * wrote offline here (fixtures/real/copilot-cli: npm `@github/copilot` starts the platform binary
 * of `@github/copilot-<platform>`, run through its BYOK env `COPILOT_PROVIDER_BASE_URL` with
 * `COPILOT_OFFLINE=true`). Convert target: `write.ts` writes a new session that `copilot
 * --resume=<id>` continues (provider family `any`: with a custom provider Copilot talks to any
 * model, so no thinking is written).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { copilotCliCensus } from './census'
import { discoverCopilotCli } from './discover'

export { FORMAT_EVENTS } from './discover'
export { KNOWN_EVENT_TYPES } from './format'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readCopilotCliSession = lazy(() => import('./read').then((m) => m.readCopilotCliSession))
const writeCopilotCliSession = lazy(() => import('./write').then((m) => m.writeCopilotCliSession))

/** The Copilot CLI definition for the registry. */
export const copilotCli: AgentDefinition = {
  id: 'copilot-cli',
  displayName: 'GitHub Copilot CLI',
  capabilities: { canWrite: true, hasCheckpoints: false, hasThinkingSignatures: true, providerFamily: 'any' },
  discover: discoverCopilotCli,
  read: readCopilotCliSession,
  census: copilotCliCensus,
  write: writeCopilotCliSession,
}
