/**
 * API shapes of exports and review bundles (issue "Exports" and "Review bundles"): what the
 * renderer sends and gets back. Plain JSON; no Node or Electron imports (the renderer imports it).
 */
import type { AgentId, HomeOs } from './ir'

/** Export formats: Markdown, self-contained HTML, IR JSON, ATIF v1.7, PDF. */
export type ExportFormat = 'md' | 'html' | 'json' | 'atif' | 'pdf'

/** The formats, in menu order. */
export const EXPORT_FORMATS: readonly ExportFormat[] = ['md', 'html', 'json', 'atif', 'pdf']

/** Which sessions to export: a list (a selection or a search result set), a project, or all. */
export type ExportSelection = { agent: AgentId; id: string }[] | { project: string } | { all: true }

/** The "include thinking / tool output" choice. Both default to true. */
export interface ExportContentOptions {
  includeThinking?: boolean
  /** false: tool calls are one line each, arguments and results left out. */
  includeToolOutput?: boolean
}

/** Arguments of `exportSessions`. */
export interface ExportRequest extends ExportContentOptions {
  /**
   * The one-time token from `approveFolder` for the folder written into, when the user typed it or
   * it came from a store (issue 16). Not needed for a folder picked in the system dialog.
   */
  grant?: string
  sessions: ExportSelection
  format: ExportFormat
  /**
   * Folder to write into (created when missing). Default: `<app data>/exports/<date-time>`.
   * Files already there are never replaced: a taken name gets ` (2)`.
   */
  outDir?: string
  /** An id the renderer picks to follow progress (`getTaskProgress`) and cancel (`cancelTask`). */
  taskId?: string
}

/** Result of `exportSessions`: one file per session, in the order exported. */
export interface ExportResult {
  /** The folder written into (absolute). */
  outDir: string
  files: { path: string; bytes: number; agent: AgentId; sessionId: string }[]
}

/** One session's export for the renderer to download (browser mode). */
export interface ExportContent {
  /** Suggested file name, safe on every OS. */
  fileName: string
  mimeType: string
  /** `utf8` text (md, html, json, atif) or `base64` bytes (pdf). */
  encoding: 'utf8' | 'base64'
  content: string
}

/** Arguments of `collectForReview`. */
export interface CollectRequest {
  /**
   * The one-time token from `approveFolder` for the folder written into, when the user typed it or
   * it came from a store (issue 16). Not needed for a folder picked in the system dialog.
   */
  grant?: string
  /** Write a folder, or one zip file. */
  target: 'folder' | 'zip'
  /** Where to write: a folder that does not exist yet (or is empty), or a new `.zip` file. */
  outPath: string
  /** Copy credential files too (API keys, OAuth tokens). Default false. */
  includeCredentials?: boolean
  /** Homes to collect. Default: the homes open now (the demo library is not collected). */
  homes?: string[]
  /** See {@link ExportRequest.taskId}. */
  taskId?: string
}

/** Result of `collectForReview`. */
export interface CollectResult {
  /** The folder or zip written (absolute). */
  path: string
  /** Files copied (the manifest not counted). */
  files: number
  /** Bytes copied (sum of file sizes). */
  bytes: number
  /** The manifest: `<folder>/sepia-manifest.json`, or the same name inside the zip. */
  manifestPath: string
  /** Files per agent. */
  byAgent: Partial<Record<AgentId, number>>
  /** Credential files left out (0 when `includeCredentials`). */
  credentialsLeftOut: number
  /** Plain-words warnings (a store changing while it was copied, a file that could not be read). */
  warnings: string[]
}

/** A home opened before, for the "recent" list (newest first). */
export interface RecentHome {
  /** Absolute path of what was opened: a folder, a zip, or one store file. */
  path: string
  kind: 'folder' | 'zip' | 'file'
  /** ms since epoch. */
  openedAt: number
  /** The layout it was read with. */
  os?: HomeOs
  /** Sessions found when it was last opened. */
  sessionCount?: number
}

/** Progress of a long task started with a `taskId`. */
export interface TaskProgress {
  taskId: string
  /** Units done and in total (files exported or copied). */
  done: number
  total: number
  /** `scan`, `copy`, `zip`, `verify`, `export`. */
  phase: string
  /** Bytes copied so far, for collect. */
  bytes?: number
  state: 'running' | 'done' | 'failed' | 'cancelled'
  /** Plain-words error when `failed`. */
  error?: string
}

/**
 * Where a home came from when it is not a plain folder: a review bundle (folder or zip, with its
 * manifest) or a single store file opened on its own. Shown next to the home in the library.
 */
export interface OpenedFrom {
  /** What the user opened (absolute). */
  path: string
  kind: 'bundle-folder' | 'zip' | 'file'
  /** From the bundle's manifest, ms since epoch. */
  createdAt?: number
  /** From the bundle's manifest: the OS whose layout the collected home had. */
  sourceOs?: HomeOs
  /** A session bundle ("Move to another computer", issue 19): the session it carries, which `installBundle(path)` installs. */
  sessionBundle?: { agent: AgentId; sessionId: string; projectPath: string }
}
