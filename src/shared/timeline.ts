/**
 * The timeline: one row per turn or event of a session, over every store an agent leaves on disk,
 * as a table the app sorts and the CLI exports (CSV, JSONL).
 *
 * The row model is seed 000's "Parser plan" (columns timestamp_utc, session_id, project_path,
 * git_branch, turn_type, model, tool_name, tool_use_id, text, plus the source file and line). For
 * Cline and its forks the rows are exactly the seed's (one per ui_messages entry, one per SDK
 * content block, the system rows of settings, models, sync, origin, hook audit and secondary
 * sources); for other agents they are a projection of the IR nodes.
 *
 * No Node or Electron imports: the renderer imports this file.
 */
import type { AgentId, Diagnostic } from './ir'

/** Kind of a row (seed 000 "Parser plan", turn_type column). */
export type TimelineTurnType = 'user' | 'assistant' | 'thinking' | 'tool_use' | 'tool_result' | 'system'

/** One row of the timeline. Strings are `''` when the store records nothing (never invented). */
export interface TimelineRow {
  /** When the turn or event happened, ms since epoch (UTC); absent when the store has no time for it. */
  timestampUtc?: number
  /** The agent's session id (`''` for rows of no session: settings, CLI prompt history). */
  sessionId: string
  /** Project folder the session ran in, as recorded (`''` when none). */
  projectPath: string
  /** Git branch, when the store records one (Cline never does). */
  gitBranch: string
  turnType: TimelineTurnType
  /** Model in effect for the row (`''` when unknown). */
  model: string
  /** The agent's own tool name, for tool rows. */
  toolName: string
  /** Tool call id (`toolu_…`, `call_…`; a legacy Cline UI row uses its ClineMessage ts). */
  toolUseId: string
  /** The row's text: message text, tool input summary, tool output, or a system line. */
  text: string
  /** Absolute path of the file the row was read from. */
  sourceFile: string
  /**
   * 1-based position in `sourceFile`: JSONL line, element of a JSON array (a message's 0-based
   * index + 1), SQLite row id. Absent for whole-file rows (settings, `parser:` rows).
   */
  sourceLine?: number
  agent: AgentId
  /**
   * Set on rows read from a secondary source (search index, hook audit log, CLI prompt history,
   * team store) that no primary store holds: the seed's duplicate rule dropped the ones it does.
   */
  recovered?: { source: string }
}

/** Column names of the exports, in order (CSV header, JSONL keys; seed 000 "Parser plan"). */
export const TIMELINE_COLUMNS = [
  'timestamp_utc',
  'session_id',
  'project_path',
  'git_branch',
  'turn_type',
  'model',
  'tool_name',
  'tool_use_id',
  'text',
  'source_file',
  'source_line',
  'agent',
  'recovered_from',
] as const

/** One export column. */
export type TimelineColumn = (typeof TIMELINE_COLUMNS)[number]

/** Which rows to build. Every field is optional; none means everything in the open homes. */
export interface TimelineFilter {
  /** Only this agent's rows. */
  agent?: AgentId
  /** Only this session's rows (its id, as listed in the library). */
  sessionId?: string
  /** Only rows whose project folder is this path (trailing separators ignored). */
  project?: string
}

/** Fields of {@link TimelineRow} the table can sort by. */
export type TimelineSortKey =
  | 'timestampUtc'
  | 'sessionId'
  | 'projectPath'
  | 'turnType'
  | 'model'
  | 'toolName'
  | 'toolUseId'
  | 'text'
  | 'sourceFile'
  | 'agent'

/** A page request: the filter plus paging and sorting. */
export interface TimelineQuery extends TimelineFilter {
  /** First row to return (0-based). Default 0. */
  offset?: number
  /** Rows per page, 1..50,000. Default 5,000. */
  limit?: number
  /**
   * Sort column. Default: time order, where a row with no time keeps its place after the row
   * before it in the same file (search-index rows follow their session's start row).
   */
  sortBy?: TimelineSortKey
  /** Reverse the order. */
  descending?: boolean
}

/** One page of the timeline. */
export interface TimelinePage {
  /** The rows of this page. */
  rows: TimelineRow[]
  /** Rows matching the filter, over all pages. */
  total: number
  offset: number
  limit: number
  /** Rows from a secondary source, over all pages. */
  recoveredCount: number
  /** Files that could not be read while the rest loaded (also present as `parser:` rows for Cline). */
  diagnostics: Diagnostic[]
}

/** Export formats of {@link TimelineRow}s. */
export type TimelineFormat = 'csv' | 'jsonl'
