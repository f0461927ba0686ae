/**
 * The one contract between the renderer (or the CLI) and the main process.
 *
 * `createApi()` in `src/main/api.ts` implements it once; two thin transports expose it: Electron
 * IPC (`src/main/transport/ipc.ts` + `src/preload`) and loopback HTTP
 * (`src/main/transport/http.ts`, used by browser mode and the end-to-end tests). Neither adds
 * logic. Every method returns a Promise; a failure rejects with a {@link SepiaError}.
 *
 * No Node or Electron imports: the renderer imports this file.
 */
import type { AgentId, Diagnostic, HomeOs, MessageNode, Session, SessionSummary } from './ir'
import type { CheckpointList, CheckpointLocation, RestoreOptions, RestorePreview, RestoreRecord, RestoreResult, UndoResult } from './checkpoints'
import type { ConvertOptions, ConvertPlan, ConvertResult, ProviderFamily } from './convert'
import type { ChangeSet, FindOptions, FindResult, IndexStatus, PageOptions, SearchFilters, SearchResult, SessionPage, UsageQuery, UsageReport } from './catalog'
import type { AgentSettingsView } from './settings'
import type { HealthReport, ProblemReport } from './health'
import type { ArchiveSettings, ArchiveStatus, PruneResult, PutBackResult, RetentionWarning } from './archive'
import type { TimelineFilter, TimelineFormat, TimelinePage, TimelineQuery } from './timeline'

export type * from './checkpoints'
import type { BundleSessionRequest, BundleSessionResult, InstallBundleOptions, InstallBundleResult, MoveSessionOptions, MoveSessionResult } from './move'
import type { CollectRequest, CollectResult, ExportContent, ExportContentOptions, ExportFormat, ExportRequest, ExportResult, OpenedFrom, RecentHome, TaskProgress } from './export'

export type * from './export'
export { EXPORT_FORMATS } from './export'

/** One agent in the library with what Sepia can do with it (registry capabilities as data). */
export interface AgentInfo {
  id: AgentId
  /** Human name, e.g. "Claude Code". */
  displayName: string
  /** Sessions found (sub-agent sessions included). */
  sessionCount: number
  capabilities: AgentCapabilities
}

/** What an agent's folder in `src/main/agents/` supports. */
export interface AgentCapabilities {
  /** A writer exists (convert target). */
  canWrite: boolean
  /** Checkpoints can be listed and restored. */
  hasCheckpoints: boolean
  /** The store keeps provider thinking signatures. */
  hasThinkingSignatures: boolean
  /**
   * Convert target: the model provider the agent replays a session to, which decides whether a
   * signed thinking block can be written (src/shared/convert.ts). Absent for agents with no writer.
   */
  providerFamily?: ProviderFamily
}

/** A home folder Sepia reads. */
export interface HomeInfo {
  /** Absolute path. */
  path: string
  /** OS layout the folder follows (detected from its content for copied homes). */
  os: HomeOs
  /** True for the built-in demo library (fixtures). */
  isDemo: boolean
  /** Set when the home was opened from a review bundle (folder or zip) or a single store file. */
  openedFrom?: OpenedFrom
}

/** Everything the library view shows. */
export interface Library {
  homes: HomeInfo[]
  agents: AgentInfo[]
  /** Every session, newest first; sub-agent sessions carry `parentSessionId`. */
  sessions: SessionSummary[]
  /** Files that could not be read (path, line, reason) while the rest loaded. */
  diagnostics: Diagnostic[]
  /**
   * Files under the open homes that hold credentials (API keys, OAuth tokens, encryption keys):
   * flagged so the user knows they are there; their values are never read or sent.
   */
  credentialFiles: CredentialFile[]
  /** Progress of the catalog refresh when this library was built (see `getIndexStatus`). */
  index?: IndexStatus
  /** ms since epoch when this library was built. */
  loadedAt: number
  /** Plain-words notes about how the folder was opened (e.g. "Opened /x, the folder that contains .claude."). */
  notices?: string[]  /**
   * Set when the library is a team catalog on PostgreSQL (`sepia serve --catalog`): its URL with the
   * password masked. `homes` are then the machines that pushed, and each session's `home` its machine.
   */
  teamCatalog?: string
}

/**
 * What a credential file holds (seed 000 "Credentials"/"Secrets" for Cline and its forks; the
 * agents' own files for the others): `api-keys` (Cline `secrets.json`, OpenCode `auth.json`),
 * `oauth-tokens` (Claude `.credentials.json`, Codex `auth.json`, Gemini `oauth_creds.json`),
 * `provider-settings` (Cline `providers.json`), `mcp-settings` (MCP server headers/env),
 * `connector`, `remote-config` (organisation upload keys), `webhook-token`, `encryption-key`
 * (Cursor composer records).
 */
export type CredentialKind =
  | 'api-keys'
  | 'oauth-tokens'
  | 'provider-settings'
  | 'mcp-settings'
  | 'connector'
  | 'remote-config'
  | 'webhook-token'
  | 'encryption-key'

/** A file flagged as holding credentials. Never its content. */
export interface CredentialFile {
  /** Absolute path. */
  path: string
  /** The agent that wrote it. */
  agent: AgentId
  kind: CredentialKind
  /** For `encryption-key`: the session whose record carries the key. */
  sessionId?: string
}

/** About the running app. */
export interface AppInfo {
  name: string
  version: string
  /** `electron` or `browser` (loopback HTTP). */
  mode: 'electron' | 'browser'
  /** IR JSON version. */
  irVersion: number
  /** The machine's OS. */
  platform: HomeOs
}

/** The methods of {@link SepiaApi}, as data: transports and the preload iterate this list. */
export const API_METHODS = [
  'getAppInfo',
  'getLibrary',
  'openHome',
  'openDemo',
  'getSession',
  'pickFolder',
  'approveFolder',
  'exportSessions',
  'exportSessionContent',
  'collectForReview',
  'getRecentHomes',
  'getTaskProgress',
  'cancelTask',
  'revealSecrets',
  'hideSecrets',
  'listCheckpoints',
  'previewRestore',
  'restoreCheckpoint',
  'undoRestore',
  'listRestores',
  'convertTargets',
  'planConvert',
  'convertSession',
  'openInTerminal',
  'getPreferences',
  'setPreferences',
  'search',
  'getUsage',
  'exportUsageCsv',
  'getIndexStatus',
  'getChanges',
  'getSessionPage',
  'getSessionNode',
  'findInSession',
  'getTimeline',
  'exportTimeline',
  'getAgentSettings',
  'getHealth',
  'reportProblem',
  'getArchiveStatus',
  'setArchiveSettings',
  'pruneArchive',
  'putBack',
  'getRetentionWarnings',
  'bundleSession',
  'installBundle',
  'moveSession',
] as const

export type ApiMethod = (typeof API_METHODS)[number]

/** The API. Arguments and results are plain JSON (they cross IPC and HTTP). */
export interface SepiaApi {
  /** Name, version, mode. */
  getAppInfo(): Promise<AppInfo>
  /**
   * The library of the current homes, from the catalog (`<appDataDir>/catalog.sqlite`). Once the
   * homes were indexed, it answers at once from the catalog and refreshes changed files in the
   * background (see `getChanges`). The very first time it waits for the index, unless `partial:
   * true`: then it answers at once with what is indexed so far (`index` tells the progress; call
   * again as `getIndexStatus` advances). `refresh: true` waits for a refresh of changed files.
   */
  getLibrary(options?: { refresh?: boolean; partial?: boolean }): Promise<Library>
  /**
   * Replace the current homes by one folder (a home, or a copied home on any OS) and return its
   * library. Also opens a review bundle (a folder or a `.zip` made by `collectForReview`: the zip
   * is extracted under the app's data folder and its manifest hashes checked, mismatches reported
   * in `Library.diagnostics`) and a single store file (`.jsonl`, `.json`, `.db`...: placed in a
   * temporary home where its agent keeps it). Remembered in {@link getRecentHomes}. Rejects with
   * `NOT_FOUND` when the path does not exist, `NOT_A_DIRECTORY` when it is a file Sepia cannot
   * open (not a zip, not a store file it recognises).
   */
  openHome(path: string): Promise<Library>
  /** Open the built-in demo library (fixture homes). */
  openDemo(): Promise<Library>
  /**
   * One session, fully read, its secrets masked (see {@link revealSecrets}). Rejects with
   * `SESSION_NOT_FOUND` when no session of that agent and id is in the library.
   */
  getSession(agent: AgentId, id: string): Promise<Session>
  /**
   * Ask the user for a folder with the system dialog. Resolves `null` when cancelled or when no
   * dialog exists (browser mode: the renderer then asks for a typed path).
   */
  pickFolder(): Promise<string | null>
  /**
   * The user confirmed, with "Allow once" on a step that showed `path`, that Sepia may write into
   * that folder for one `operation`. Resolves a token to pass as `grant` in that write's options
   * (a restore, export, collect or convert); it is used up by that write and expires after 10
   * minutes. Call it only from that confirmation. Rejects `BAD_ARGUMENT` for a relative path or an
   * unknown operation.
   */
  approveFolder(path: string, operation: 'restore' | 'export' | 'collect' | 'convert'): Promise<{ token: string; path: string }>
  /**
   * Export sessions (a list — a selection or search results —, `{project}` or `{all: true}`) in
   * one format, one file per session, secrets masked, into `outDir` (created when missing; a
   * file already there is never replaced). Follow it with `getTaskProgress(taskId)`; `cancelTask`
   * stops between files. Rejects `BAD_ARGUMENT` (unknown format, empty selection),
   * `SESSION_NOT_FOUND`, `UNAVAILABLE` (PDF with no Chromium in browser mode), `WRITE_FAILED`,
   * `CANCELLED`.
   */
  exportSessions(request: ExportRequest): Promise<ExportResult>
  /**
   * One session's export as content for the renderer to download (browser mode, where main does
   * not choose the folder): text for md/html/json/atif, base64 for pdf. Rejects like
   * {@link exportSessions}.
   */
  exportSessionContent(agent: AgentId, id: string, format: ExportFormat, options?: ExportContentOptions): Promise<ExportContent>
  /**
   * "Collect for review": copy the agent stores under the open homes (or `homes`) into a new
   * folder or zip for someone else to open with Sepia, leaving out scratch and cache folders and,
   * unless `includeCredentials`, credential files; SQLite stores are copied with their -wal/-shm.
   * Writes `sepia-manifest.json` (agent, path, size, sha256, mtime per file). Never writes into a
   * store. Rejects `ALREADY_EXISTS` (the target exists and is not an empty folder), `NOT_FOUND`,
   * `BAD_ARGUMENT`, `WRITE_FAILED` (nothing is left at the target), `CANCELLED`.
   */
  collectForReview(request: CollectRequest): Promise<CollectResult>
  /** Folders, zips and store files opened before, newest first (at most 10). */
  getRecentHomes(): Promise<RecentHome[]>
  /**
   * Progress of a task started with a `taskId` (`exportSessions`, `collectForReview`); the
   * renderer polls it while the call runs. Rejects `NOT_FOUND` for an unknown id.
   */
  getTaskProgress(taskId: string): Promise<TaskProgress>
  /** Ask a running task to stop; it then rejects with `CANCELLED`. Resolves false when no such task runs. */
  cancelTask(taskId: string): Promise<boolean>
  /**
   * Secrets: every session, search snippet, library entry and export that leaves main has its
   * API keys, tokens, passwords and private keys masked (`sk-a•••• (Anthropic API key)`, at most
   * 4 characters kept; `Session.maskedSecrets` counts them). This returns the one session unmasked,
   * for the "reveal" the user clicked; the renderer keeps it only while that session is shown and
   * drops it when the user leaves it. Credential files (`Library.credentialFiles`) are never
   * revealed. Rejects like {@link getSession}.
   */
  revealSecrets(agent: AgentId, id: string): Promise<Session>
  /**
   * The user hid a revealed session again (or left it): main forgets the reveal, so a later
   * conversion of that session keeps its secrets masked. Resolves true when it was revealed.
   * Rejects `UNKNOWN_AGENT` / `BAD_ARGUMENT` like {@link revealSecrets}.
   */
  hideSecrets(agent: AgentId, id: string): Promise<boolean>
  /**
   * The checkpoints of a session (Cline SDK stash/commit refs, Cline legacy shadow-git commits,
   * Claude Code file history), each with a label and its file count, and the project folder:
   * whether it exists and where a restore goes by default (`defaultTarget`; absent with a
   * `targetNote` when the user must pick a folder). `options` name a folder holding the project's
   * repository when the recorded one is missing. Rejects `SESSION_NOT_FOUND`, `UNKNOWN_AGENT`.
   */
  listCheckpoints(agent: AgentId, sessionId: string, options?: CheckpointLocation): Promise<CheckpointList>
  /**
   * What restoring `checkpointId` would change in `options.targetDir` (default: the project
   * folder): every covered file with its status against the disk now and a unified diff, plus the
   * refused paths (outside the folder, backup missing). Writes nothing. Rejects
   * `CHECKPOINT_NOT_FOUND`, `TARGET_REQUIRED` (pick a folder), `NOT_FOUND` (contents unreachable).
   */
  previewRestore(agent: AgentId, sessionId: string, checkpointId: string, options?: CheckpointLocation): Promise<RestorePreview>
  /**
   * Restore the files (`options.files`, default every changed one) to the checkpoint. Every file
   * about to change is first copied into `<app data>/restores/<id>/`; writes are atomic; when a
   * write fails the files already written are put back and it rejects `WRITE_FAILED` (nothing
   * changed). Resolves the restore id for {@link undoRestore}. Rejects like {@link previewRestore}.
   */
  restoreCheckpoint(agent: AgentId, sessionId: string, checkpointId: string, options?: RestoreOptions): Promise<RestoreResult>
  /**
   * Put back the files a restore changed, from its backups. Files changed again since the restore
   * are left alone and listed in `skipped`. Rejects `NOT_FOUND` (no such restore), `BAD_ARGUMENT`
   * (already undone).
   */
  undoRestore(restoreId: string): Promise<UndoResult>
  /** The restores recorded in the app's data folder, newest first. */
  listRestores(): Promise<RestoreRecord[]>
  /**
   * "Continue in...": one plan per agent Sepia can write (the session's own agent excepted, unless
   * the session is in another store of that agent, e.g. a legacy Cline task), each
   * with what it would drop or change (`warnings`, losses first) and the resume command it would
   * give. Nothing is written. Rejects `SESSION_NOT_FOUND`, `UNKNOWN_AGENT`.
   */
  convertTargets(agent: AgentId, id: string, options?: Pick<ConvertOptions, 'textOnly'>): Promise<ConvertPlan[]>
  /**
   * What converting the session to `target` would do (warnings, counts, files, resume command),
   * without writing. Rejects `SESSION_NOT_FOUND`, `UNKNOWN_AGENT`, `CANNOT_WRITE` (no writer for
   * `target`), `NOT_FOUND`/`NOT_A_DIRECTORY` (`targetHome`), `BAD_ARGUMENT`.
   */
  planConvert(agent: AgentId, id: string, target: AgentId, options?: ConvertOptions): Promise<ConvertPlan>
  /**
   * Convert the session to `target`: write it under a new id into `options.targetHome` (default:
   * the user's own home, where the target looks), then read it back with the target's own reader
   * and compare turns, tool pairs and texts (`verification`). Never touches an existing session; a
   * database gets a backup copy before a row is added. Rejects like {@link planConvert}, and
   * `WRITE_FAILED` when writing fails (nothing is left behind).
   */
  convertSession(agent: AgentId, id: string, target: AgentId, options?: ConvertOptions): Promise<ConvertResult>
  /**
   * "Open in terminal" after {@link convertSession}: open the user's terminal (Windows Terminal or
   * PowerShell, macOS Terminal, the first Linux terminal on PATH) running the resume command that
   * conversion gave, in its folder. `agent` and `sessionId` name a session this process converted
   * (`ConvertResult.target.agent`, `ConvertResult.sessionId`); main rebuilds the command from its
   * own record, never from text the caller sends. In browser mode the terminal opens on the
   * machine running Sepia (the loopback server is on the same machine). Rejects `NOT_FOUND` (not
   * a conversion of this run), `UNAVAILABLE` (written into another home, no terminal or no
   * display: copy the command instead), `UNKNOWN_AGENT`, `BAD_ARGUMENT`.
   */
  openInTerminal(agent: AgentId, sessionId: string): Promise<TerminalOpened>
  /** The app's preferences (`<appDataDir>/preferences.json`) and the state of updates. */
  getPreferences(): Promise<PreferencesView>
  /**
   * Change preferences (`{checkForUpdates: true}` is the Settings switch; updates are off by
   * default and nothing is fetched until it is on). Rejects `BAD_ARGUMENT` for an unknown key or a
   * non-boolean value.
   */
  setPreferences(patch: Partial<AppPreferences>): Promise<PreferencesView>
  /**
   * Full-text search over every message of the open homes (catalog FTS5 index). The query is words
   * (all must match; the last one also matches as a prefix, for search-as-you-type), `"quoted
   * phrases"`, and `-word` to exclude; paths and `snake_case` names match as phrases. Results are
   * partial (`partial: true`) while the index is filled. Rejects `BAD_ARGUMENT` for bad filters.
   */
  search(query: string, filters?: SearchFilters): Promise<SearchResult>
  /**
   * Tokens and cost grouped by day (in `timeZone`), project, model, session (sub-agents rolled
   * into their parent) or agent, with totals. Cost is what the store recorded, else priced from
   * `pricing/pricing.json`. Rejects `BAD_ARGUMENT` (unknown grouping, bad date or time zone).
   */
  getUsage(query: UsageQuery): Promise<UsageReport>
  /** The same report as CSV text (header row, one row per group, a total row). */
  exportUsageCsv(query: UsageQuery): Promise<string>
  /** Progress of the catalog refresh (for a progress bar with counts). */
  getIndexStatus(): Promise<IndexStatus>
  /**
   * Sessions changed or removed since `token` (from the previous call; omit it to get a first
   * token and no changes). Poll every ~2 s: the first call starts watching the stores, and
   * sessions being written show up here without a reload.
   */
  getChanges(token?: string): Promise<ChangeSet>
  /**
   * One page of a session's nodes (for long transcripts): the session without nodes, `limit`
   * nodes from `offset`, and the total. Long texts are cut (see {@link PageOptions}). Rejects
   * `SESSION_NOT_FOUND`, `UNKNOWN_AGENT`, `BAD_ARGUMENT`.
   */
  getSessionPage(agent: AgentId, id: string, options?: PageOptions): Promise<SessionPage>
  /** One node of a session, whole ("show all" on a cut text). Rejects `SESSION_NOT_FOUND` (also for an unknown node id). */
  getSessionNode(agent: AgentId, id: string, nodeId: string): Promise<MessageNode>
  /**
   * Find text in one session (case-insensitive, literal): the nodes that hold it, in order, with
   * their index for `getSessionPage` (find in the open session, issue 17). Looks at content,
   * thinking, text blocks and tool call arguments, secrets masked. Rejects `SESSION_NOT_FOUND`,
   * `BAD_ARGUMENT` for a query that is not text.
   */
  findInSession(agent: AgentId, id: string, query: string, options?: FindOptions): Promise<FindResult>
  /**
   * One page of the timeline of the open homes (src/shared/timeline.ts): one row per turn or
   * event, for one session (`sessionId`), one project (`project`), one agent, or everything. Cline
   * and its forks give seed 000's rows (turns, model and permission changes, sync and cloud
   * origin, hook audit lines, search-index rows, `parser:` rows for bad files), with rows from a
   * secondary source marked `recovered`; other agents a projection of their sessions. Sorted by
   * `sortBy` (default: time), `limit` rows from `offset`, `total` over all pages. Texts are
   * masked. Rejects `UNKNOWN_AGENT`, `BAD_ARGUMENT` (a filter that is not a string, a bad sort
   * column or page).
   */
  getTimeline(query?: TimelineQuery): Promise<TimelinePage>
  /**
   * The whole timeline of a filter (every page, default order) as CSV (RFC 4180, header row) or
   * JSONL text, with the seed's column names (timestamp_utc, session_id, project_path, git_branch,
   * turn_type, model, tool_name, tool_use_id, text, source_file, source_line, agent,
   * recovered_from). Masked like every result. Rejects `BAD_ARGUMENT` for another format.
   */
  exportTimeline(format: TimelineFormat, filter?: TimelineFilter): Promise<string>
  /**
   * The agent settings view of a home (src/shared/settings.ts): Cline's rules, workflows, skills,
   * agents and plugins (Documents/Cline, ~/.agents, each project's .clinerules/.cline), MCP
   * servers with their auto-approved tools, hooks with their trigger and a `sendsDataOut` flag,
   * standing permissions, and the credential files (flagged, never opened). `home` defaults to the
   * first open home and must be an open home or a folder the user picked; `project` adds a project
   * folder to the ones found from the home's sessions. Rejects `NOT_FOUND`, `NOT_A_DIRECTORY`,
   * `PATH_NOT_ALLOWED`, `BAD_ARGUMENT`.
   */
  getAgentSettings(options?: { home?: string; project?: string }): Promise<AgentSettingsView>
  /**
   * Reading health of the open homes (src/shared/health.ts, issue 14): records read and skipped
   * by type and agent version, record types Sepia does not know (first file and line), files
   * skipped and why, sessions read only in part, tool calls without a result, and stores of
   * agents Sepia cannot read yet. Reads every session (as long as indexing).
   */
  getHealth(): Promise<HealthReport>
  /**
   * "Report a problem": write a masked copy of one session file (secrets masked, user names and
   * home paths replaced, structure kept) into `outDir` (default: `<appDataDir>/reports`), for the
   * user to attach to a bug report. Sends nothing. `path` must be a file of an open home's session;
   * `outDir` a folder the user picked. Rejects `PATH_NOT_ALLOWED`, `NOT_FOUND`, `BAD_ARGUMENT`.
   */
  reportProblem(path: string, outDir?: string): Promise<ProblemReport>
  /**
   * Sepia's archive (issue 19, src/main/archive/): settings, size, counts, and the bytes of the own
   * home's session files (`sourceBytes`, for the first-start question).
   */
  getArchiveStatus(): Promise<ArchiveStatus>
  /** Change the archive's settings (turning it on takes the first copies at once). */
  setArchiveSettings(settings: Partial<ArchiveSettings>): Promise<ArchiveStatus>
  /** Remove archived versions that are not a session's latest until the archive fits its cap. */
  pruneArchive(): Promise<PruneResult>
  /**
   * Write an archived session (own home only) back into its agent's store, as last copied; rejects
   * `SESSION_NOT_FOUND` when the archive has no copy. Writes only missing files (atomically) and a
   * missing index row (with a backup of the database).
   */
  putBack(agent: AgentId, id: string): Promise<PutBackResult>
  /** Sessions the agents will delete within 7 days by their own retention settings (own home). */
  getRetentionWarnings(): Promise<RetentionWarning[]>
  /**
   * "Move to another computer": write one session (Claude Code, Codex, Cline CLI 3) as a session bundle zip at
   * `request.outPath` — its transcript, sub-agents, checkpoints and Claude Code file history, plus
   * a manifest (agent, id, original project path, path style, the agent's index rows). Unlike a
   * review bundle it keeps the session as stored, SECRETS INCLUDED (the user's own data for their
   * own machine; the UI says so first). Rejects `SESSION_NOT_FOUND`, `CANNOT_WRITE` (an agent
   * Sepia cannot move yet), `ALREADY_EXISTS`, `PATH_NOT_ALLOWED`, `WRITE_FAILED`.
   */
  bundleSession(agent: AgentId, id: string, request: BundleSessionRequest): Promise<BundleSessionResult>
  /**
   * Install a session bundle (`bundleSession`'s zip, from any OS) into the agent store of
   * `options.targetHome` (default the user's own home) with its project path remapped to
   * `options.project` (default the recorded one): the Claude Code project folder name, every
   * recorded `cwd`, the Codex `threads` / Cline `sessions` rows (after a database backup). Never replaces a file: an
   * id already in the store gets a new id. Read back before it resolves. Rejects `BAD_ARGUMENT`
   * (not a session bundle; a project path of another OS), `READ_FAILED` (damaged), `WRITE_FAILED`
   * (nothing left behind).
   */
  installBundle(path: string, options?: InstallBundleOptions): Promise<InstallBundleResult>
  /**
   * Move a session to another project folder on this machine: bundle in memory, install under
   * `options.toProject` (a copy with a new id), read back; the original is kept unless
   * `removeOriginal`, and then only after a backup bundle was written into Sepia's data folder.
   * Only a session of the user's own home moves: one of a home opened to read (a copy from another
   * computer) rejects `BAD_ARGUMENT` with nothing written, since an opened home is never written
   * (a bundle installed with `targetHome` is the explicit way into another home). Otherwise rejects
   * like {@link bundleSession} and {@link installBundle}.
   */
  moveSession(agent: AgentId, id: string, options: MoveSessionOptions): Promise<MoveSessionResult>
}

/** The app's own preferences (all off by default). */
export interface AppPreferences {
  /** Check for new versions with electron-updater (the Electron app only). Default false: Sepia works offline. */
  checkForUpdates: boolean
}

/** Whether updates are checked: off (the default), on, or unavailable here with the reason in plain words. */
export type UpdateStatus = { state: 'off' } | { state: 'on' } | { state: 'unavailable'; reason: string }

/** {@link SepiaApi.getPreferences}'s answer. */
export interface PreferencesView {
  preferences: AppPreferences
  updates: UpdateStatus
}

/** A terminal opened by {@link SepiaApi.openInTerminal}. */
export interface TerminalOpened {
  /** The terminal's name: "Windows Terminal", "PowerShell", "Terminal", "gnome-terminal"... */
  terminal: string
  /** The script it runs (`cd <folder> && <resume command>`, or PowerShell's `Set-Location ...; ...`). */
  command: string
}

/** Error codes that cross the bridge. */
export type ErrorCode =
  | 'NOT_FOUND'
  | 'NOT_A_DIRECTORY'
  | 'SESSION_NOT_FOUND'
  | 'UNKNOWN_AGENT'
  | 'UNKNOWN_METHOD'
  | 'BAD_ARGUMENT'
  | 'UNAUTHORIZED'
  | 'READ_FAILED'
  /** The chosen convert target has no writer. */
  | 'CANNOT_WRITE'
  /** A path from the renderer is outside the folders Sepia may use, or leaves them by a symbolic link. */
  | 'PATH_NOT_ALLOWED'
  /** A write (convert, restore, export) failed; the user's files are as they were. */
  | 'WRITE_FAILED'
  /** No checkpoint with that id in the session. */
  | 'CHECKPOINT_NOT_FOUND'
  /** The restore needs a folder picked by the user (project missing, or a copied home). */
  | 'TARGET_REQUIRED'
  /** The user cancelled a long task (export, collect). */
  | 'CANCELLED'
  /** A file or folder to create exists already; nothing was replaced. */
  | 'ALREADY_EXISTS'
  /** A tool this needs is missing here (PDF export without Chromium in browser mode). */
  | 'UNAVAILABLE'
  | 'INTERNAL'

/** An error as it crosses IPC or HTTP: `{code, message, path?, line?}`. */
export interface SepiaErrorShape {
  code: ErrorCode
  message: string
  path?: string
  line?: number
}

/** The error every API method rejects with. `message` is plain words for the user. */
export class SepiaError extends Error implements SepiaErrorShape {
  readonly code: ErrorCode
  readonly path?: string
  readonly line?: number
  constructor(shape: SepiaErrorShape) {
    super(shape.message)
    this.name = 'SepiaError'
    this.code = shape.code
    if (shape.path !== undefined) this.path = shape.path
    if (shape.line !== undefined) this.line = shape.line
  }

  /** The plain-JSON form that crosses a transport. */
  toJSON(): SepiaErrorShape {
    const out: SepiaErrorShape = { code: this.code, message: this.message }
    if (this.path !== undefined) out.path = this.path
    if (this.line !== undefined) out.line = this.line
    return out
  }

  /** Rebuild on the receiving side; anything that is not a SepiaError becomes `INTERNAL`. */
  static from(value: unknown): SepiaError {
    if (value instanceof SepiaError) return value
    if (value && typeof value === 'object' && 'code' in value && 'message' in value) {
      const v = value as SepiaErrorShape
      return new SepiaError({ code: v.code, message: String(v.message), path: v.path, line: v.line })
    }
    const message = value instanceof Error ? value.message : String(value)
    return new SepiaError({ code: 'INTERNAL', message })
  }
}

/** The envelope a transport returns: a value or an error, never a thrown exception. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: SepiaErrorShape }

/**
 * The API as a transport carries it: every method resolves an {@link ApiResult} envelope instead
 * of rejecting (Electron's contextBridge and JSON keep only plain data, not Error subclasses).
 * The preload exposes this shape as `window.sepia`; the HTTP client builds the same.
 */
export type EnvelopeApi = {
  [K in ApiMethod]: (...args: Parameters<SepiaApi[K]>) => Promise<ApiResult<Awaited<ReturnType<SepiaApi[K]>>>>
}

/** Turn an {@link EnvelopeApi} back into a {@link SepiaApi} that rejects with {@link SepiaError}. */
export function unwrapEnvelopeApi(envelope: EnvelopeApi): SepiaApi {
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const method of API_METHODS) {
    const call = envelope[method] as (...args: unknown[]) => Promise<ApiResult<unknown>>
    api[method] = async (...args: unknown[]) => {
      const result = await call(...args)
      if (!result.ok) throw SepiaError.from(result.error)
      return result.value
    }
  }
  return api as unknown as SepiaApi
}

/** Call one API method and wrap the outcome in an envelope (used by both transports). */
export async function callEnveloped(api: SepiaApi, method: ApiMethod, args: unknown[]): Promise<ApiResult<unknown>> {
  try {
    const fn = api[method] as (...a: unknown[]) => Promise<unknown>
    return { ok: true, value: await fn.apply(api, args) }
  } catch (e) {
    return { ok: false, error: SepiaError.from(e).toJSON() }
  }
}
