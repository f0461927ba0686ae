/**
 * Cursor IDE: chats and composers in the editor's `state.vscdb` stores — global
 * `cursorDiskKV` (`composerData:` + `bubbleId:` rows, or inline conversations) and the oldest
 * workspace `ItemTable` chat data (seed 002 "Cursor" B; shared/formats/cursor-devin-atif-acp.md §A).
 * Read-only; no checkpoints are read (`checkpointId:` rows are file snapshots, not refs the IR
 * restores yet); thinking signatures (`thinking.signature`) are kept.
 */
import { lazy } from '../lazy'
import type { AgentDefinition } from '../types'
import { discoverCursor } from './discover'
import { linkCursorSessions } from './link'

export { closeAllSnapshots as closeCursorSnapshots } from './common/snapshot'
export { FORMAT_HEADERS, FORMAT_INLINE, FORMAT_PANE, FORMAT_TASK, FORMAT_WS_COMPOSER } from './refs'

// The reader and writer load on first use (../lazy.ts): a listing that re-reads nothing compiles neither.
const readCursorSession = lazy(() => import('./read').then((m) => m.readCursorSession))

/** The Cursor IDE agent definition for the registry. */
export const cursor: AgentDefinition = {
  id: 'cursor',
  displayName: 'Cursor',
  capabilities: { canWrite: false, hasCheckpoints: false, hasThinkingSignatures: true },
  discover: discoverCursor,
  read: readCursorSession,
  link: linkCursorSessions,
}
