/**
 * Cursor agent CLI (`cursor agent`, `agent acp`): `~/.cursor/chats/<md5(cwd)>/<agentId>/store.db`
 * content-addressed blob stores and the `~/.cursor/projects/<slug>/agent-transcripts` JSONL
 * projections that survive store pruning (seed 002 "Cursor" A; shared/formats/cursor-devin-atif-acp.md §B).
 * Read-only; no checkpoints; opaque reasoning (`redacted-reasoning`, encrypted `reasoning`) is kept
 * as thinking signatures.
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverCursorAgent } from './discover'
import { linkCursorAgentSessions } from './link'

export { FORMAT_STORE, FORMAT_SUBAGENT, FORMAT_TRANSCRIPT } from './refs'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readCursorAgentSession = lazy(() => import('./read').then((m) => m.readCursorAgentSession))

/** The Cursor agent CLI definition for the registry. */
export const cursorAgent: AgentDefinition = {
  id: 'cursor-agent',
  displayName: 'Cursor Agent CLI',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: true },
  discover: discoverCursorAgent,
  read: readCursorAgentSession,
  link: linkCursorAgentSessions,
}
