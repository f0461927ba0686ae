/**
 * Store generations of the Cursor agent CLI reader and the hints discovery leaves on a ref
 * (shared/formats/cursor-devin-atif-acp.md §B1).
 */
import type { StoreRef } from '../types'

/** `~/.cursor/chats/<md5(cwd)>/<agentId>/store.db` (or `~/.cursor/acp-sessions/<id>/store.db`). */
export const FORMAT_STORE = 'cursor-agent-store'
/** `~/.cursor/projects/<slug>/agent-transcripts/<id>.jsonl` or `<id>/<id>.jsonl` (store pruned or never written). */
export const FORMAT_TRANSCRIPT = 'cursor-agent-transcript'
/** `~/.cursor/projects/<slug>/agent-transcripts/<id>/subagents/<subId>.jsonl`. */
export const FORMAT_SUBAGENT = 'cursor-agent-subagent'

/** What `read` needs: the files of the session, whichever exist. */
export interface AgentHints {
  kind: 'store' | 'transcript'
  /** The chat folder (`chats/<hash>/<id>` or `acp-sessions/<id>`), when one exists. */
  chatDir?: string
  storeDb?: string
  metaJson?: string
  promptHistory?: string
  /** The transcript `.jsonl` of this id, when one exists (store fallback, or the primary file). */
  transcript?: string
  /** `projects/<slug>` folder holding the transcript. */
  projectDir?: string
  /** `projects/<slug>/.workspace-trusted` (`{"workspacePath"}`), when it exists. */
  workspaceTrusted?: string
  /** True for an `acp-sessions/` store. */
  acp?: boolean
}

/** The hints of a cursor-agent ref; throws when the ref was not made by this reader's discovery. */
export function agentHints(ref: StoreRef): AgentHints {
  const h = ref.hints as Partial<AgentHints> | undefined
  if (!h || (h.kind !== 'store' && h.kind !== 'transcript')) throw new Error(`store ref ${ref.sessionId} has no Cursor agent hints`)
  return h as AgentHints
}
