/**
 * The OpenCode family's session shape after loading, whichever store it came from (SQLite
 * `opencode.db` / `kilo.db`, the JSON file storage, an `opencode export` file). Loaders fill it;
 * `session.ts` turns it into the IR.
 *
 * Store facts (packages/opencode/src/session/message-v2.ts, storage/json-migration.ts;
 * fixtures/real/opencode/README.md "Worth knowing"): a session has messages (`role` user or
 * assistant), each message has ordered parts (`text`, `reasoning`, `tool`, `step-start`,
 * `step-finish`, `patch`, `file`, ...). In SQLite the ids live in columns and `data` holds the
 * rest; in the JSON storage the ids are the file names.
 */
import type { Diagnostic } from '../../../shared/ir'
import type { Json } from './values'

/** A diagnostic before it is attached to a session. */
export type Problem = Omit<Diagnostic, 'sessionId' | 'agent'>

/** One part: its id, message id and JSON body (`type`, `text`, `state`...). */
export interface StoredPart {
  id: string
  messageId: string
  data: Json
  /** Row `time_created` (SQLite), ms since epoch, when the store has one. */
  rowCreatedAt?: number
}

/** One message: its id, JSON body (`role`, `time`, `tokens`...) and its parts in order. */
export interface StoredMessage {
  id: string
  data: Json
  /** File the message came from (JSON storage), or the database (SQLite), for diagnostics. */
  path: string
  /** True when it is a database row (diagnostics then name the table and row). */
  isRow?: boolean
  /** Row `time_created` (SQLite), ms since epoch, when the store has one. */
  rowCreatedAt?: number
  parts: StoredPart[]
}

/** One session as loaded. */
export interface StoredSession {
  id: string
  /**
   * Session info in the JSON-storage spelling (`projectID`, `parentID`, `directory`, `title`,
   * `time{created,updated}`...); SQLite rows are converted to it, variants kept as found.
   */
  info: Json
  /** `project.worktree` of the session's project, when the store has the row. */
  projectWorktree?: string
  /** Messages in store order (time created, then id). */
  messages: StoredMessage[]
  /** Files read, primary first. */
  files: string[]
  /** Problems met while loading (bad rows, unreadable files). */
  problems: Problem[]
  /** Store facts with no IR field (row counts of tables this reader does not model...). */
  extra: Json
}
