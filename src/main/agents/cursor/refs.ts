/**
 * Store generations of the Cursor IDE reader and the hints discovery leaves on a {@link StoreRef}
 * (shared/formats/cursor-devin-atif-acp.md §A4 "Storage generations").
 */
import type { StoreRef } from '../types'
import type { ProjectHint } from './project'

/** Global `composerData:<id>` with ordered `fullConversationHeadersOnly` + `bubbleId:` rows (~2025+). */
export const FORMAT_HEADERS = 'cursor-composer-headers'
/** Global `composerData:<id>` with an inline `conversation[]` (Cursor 0.43, late 2024). */
export const FORMAT_INLINE = 'cursor-composer-inline'
/** `bubbleId:task-<toolCallId>:*` rows of a `task_v2` sub-agent, with no `composerData` row. */
export const FORMAT_TASK = 'cursor-task'
/** Workspace `ItemTable['composer.composerData'].allComposers[]` with inline messages (≤ 0.42). */
export const FORMAT_WS_COMPOSER = 'cursor-workspace-composer'
/** Workspace (or very old global) `ItemTable['workbench.panel.aichat.view.aichat.chatdata']` tab (≤ 0.42). */
export const FORMAT_PANE = 'cursor-chat-pane'

/** What `read` needs to find a session again. */
export interface CursorHints {
  /** `composer` (both global generations), `task`, `ws-composer` or `pane`. */
  kind: 'composer' | 'task' | 'ws-composer' | 'pane'
  /** The database holding the session (global or workspace `state.vscdb`). */
  db: string
  /** ItemTable key (ws-composer, pane). */
  itemKey?: string
  /** The sub-agent call id (task). */
  toolCallId?: string
  /** Project folder found at discovery, and the rule that found it. */
  project?: ProjectHint
  /** The editor's install kind (`desktop`, `server`, `portable`, `flatpak`). */
  install?: string
  /** Composer `lastUpdatedAt`, ms (a finer cache key than the shared database's mtime). */
  lastUpdatedAt?: number
  /** Byte length of the composer document. */
  valueSize?: number
}

/** The hints of a Cursor ref; throws when the ref was not made by this reader's discovery. */
export function cursorHints(ref: StoreRef): CursorHints {
  const h = ref.hints as Partial<CursorHints> | undefined
  if (!h || typeof h.db !== 'string' || typeof h.kind !== 'string') throw new Error(`store ref ${ref.sessionId} has no Cursor hints`)
  return h as CursorHints
}
