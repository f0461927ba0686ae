/**
 * Codex CLI (OpenAI): reads `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` (and `archived_sessions/`),
 * with titles and sub-agent edges from `state_<n>.sqlite` when present (codex-rs
 * `core/src/rollout/`; fixtures/real/codex/README.md, Codex 0.171.0). Writes converted sessions
 * as new threads (`write.ts`: a rollout, plus a `threads` row when the index exists); encrypted
 * reasoning is kept verbatim as the thinking signature; ghost snapshots (undo commits) are listed
 * as checkpoints.
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { codexCensus } from './census'
import { discoverSessions, freshnessDeps } from './discover'
import { linkSessions } from './link'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readSession = lazy(() => import('./read').then((m) => m.readSession))
const writeCodexSession = lazy(() => import('./write').then((m) => m.writeCodexSession))

/** The Codex agent definition for the registry. */
export const codex: AgentDefinition = {
  id: 'codex',
  displayName: 'Codex',
  capabilities: { canWrite: true, hasCheckpoints: true, hasThinkingSignatures: true, providerFamily: 'openai' },
  discover: discoverSessions,
  freshness: freshnessDeps,
  read: readSession,
  link: linkSessions,
  write: writeCodexSession,
  census: codexCensus,
}
