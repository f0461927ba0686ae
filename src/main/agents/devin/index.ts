/**
 * Devin CLI (Cognition): reads `<XDG data>/devin/cli/sessions.db` (SQLite message forest) and
 * `transcripts/<id>.json` (ATIF v1.7) — seed 002 "Devin CLI", `shared/formats/cursor-devin-atif-acp.md`
 * C and D; thinking blocks are sealed (`thinking.signature`) and kept verbatim; no checkpoints in
 * this store. Sub-agents are linked at read time (they share the parent's database), so no `link`
 * step is needed. Convert target: `write.ts` adds a session to `sessions.db` that
 * `devin --resume <id>` continues (provider family `devin`: only Devin-sealed thinking is kept).
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverSessions } from './discover'

export { FORMAT_ATIF, FORMAT_DB, FORMAT_SUBAGENT } from './format'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readSession = lazy(() => import('./read').then((m) => m.readSession))
const writeDevinSession = lazy(() => import('./write').then((m) => m.writeDevinSession))

/** The Devin CLI agent definition for the registry. */
export const devin: AgentDefinition = {
  id: 'devin',
  displayName: 'Devin CLI',
  capabilities: { canWrite: true, hasCheckpoints: false, hasThinkingSignatures: true, providerFamily: 'devin' },
  discover: discoverSessions,
  read: readSession,
  write: writeDevinSession,
}
