/**
 * GitHub Copilot CLI (npm `@github/copilot`): `~/.copilot/session-state/<sessionId>/events.jsonl`,
 * one event per line chained by `parentId`. Read-only. Built from the public real sessions in
 * fixtures/public-real/copilot-cli (CLI 1.0.64 and 1.0.68); no offline run of the CLI here.
 * The npm package `@github/copilot` (1.0.102) ships only `npm-loader.js`, which starts a platform
 * binary from `@github/copilot-<platform>`; that binary was not read.
 */
import type { AgentDefinition } from '../types'
import { copilotCliCensus } from './census'
import { discoverCopilotCli } from './discover'
import { readCopilotCliSession } from './read'

export { FORMAT_EVENTS } from './discover'
export { KNOWN_EVENT_TYPES } from './read'

/** The Copilot CLI definition for the registry. */
export const copilotCli: AgentDefinition = {
  id: 'copilot-cli',
  displayName: 'GitHub Copilot CLI',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: true },
  discover: discoverCopilotCli,
  read: readCopilotCliSession,
  census: copilotCliCensus,
}
