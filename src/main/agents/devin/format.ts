/**
 * Format facts of the devin store that discovery and the census need without loading the reader
 * (`./read.ts`, which re-exports them): the reader and writer load on first use (./index.ts).
 */

/** Store generation of a session read from `sessions.db`. */
export const FORMAT_DB = 'devin-sqlite'

/** A sub-agent chain (`subagent_heads`) of a session, read as its own session. */
export const FORMAT_SUBAGENT = 'devin-subagent'

/** A session known only from its ATIF transcript (no `sessions.db` row). */
export const FORMAT_ATIF = 'devin-atif'

/** Hints discovery leaves on a Devin {@link StoreRef}. */
export interface DevinHints {
  /** `sessions.db` path. */
  db?: string
  /** `transcripts/<id>.json`, when present. */
  transcript?: string
  /** Sub-agent refs: the `subagent_heads.agent_id` and the session whose forest holds the chain. */
  agentId?: string
  parentId?: string
}

/** Child session id of a sub-agent (the convention of other Devin readers, C4 "Sub-agents"). */
export function subagentSessionId(sessionId: string, agentId: string): string {
  return `${sessionId}/${agentId}`
}
