/**
 * Shapes of the checkpoint API (`listCheckpoints`, `previewRestore`, `restoreCheckpoint`,
 * `undoRestore`, `listRestores` in {@link SepiaApi}): restoring a project's files to a checkpoint
 * an agent recorded. Plain JSON; no Node imports (the renderer imports this file).
 *
 * Flow for a UI: list → preview (files with status and diff, each selectable) → restore the
 * selected files → offer "Undo restore" (the restore's id) as long as the record exists.
 */
import type { AgentId } from './ir'

/** One checkpoint of a session. */
export interface CheckpointInfo {
  /** Id within the session, passed back to preview/restore (the ref; `<ref>@<n>` when a ref repeats). */
  id: string
  /** The store's reference: a git sha (Cline) or a message id (Claude Code file history). */
  ref: string
  /** `stash` / `commit` (Cline SDK), `shadow-git` (Cline legacy), `file-history` (Claude Code), `ghost-snapshot` (Codex). */
  kind: string
  /** ms since epoch. */
  createdAt?: number
  /** The agent run it was taken before (Cline). */
  runCount?: number
  /** The message it belongs to (the prompt of the turn it precedes), to show it in the transcript. */
  nodeId?: string
  /** Plain words for a list, e.g. `Run 2: before "Continue: re-read NOTES.md."`. */
  label: string
  /** Files the checkpoint covers (restorable + refused); absent when its content is not reachable. */
  fileCount?: number
  /** Why the checkpoint cannot be previewed or restored now (plain words), e.g. repository missing. */
  problem?: string
}

/** Result of `listCheckpoints`. */
export interface CheckpointList {
  /** The project folder the session recorded (in the recording machine's syntax). */
  projectDir?: string
  /** True when that folder exists on this computer. */
  projectExists: boolean
  /**
   * Where a restore writes when no `targetDir` is given. Absent when the user must pick a folder
   * (`targetNote` says why): the project is missing, the home is a copy from another computer, or
   * the folder does not hold the checkpoint commits.
   */
  defaultTarget?: string
  /** Why a folder must be picked, in plain words. */
  targetNote?: string
  /** Where the checkpoint contents are read from (a git directory or a file-history folder). */
  store?: string
  checkpoints: CheckpointInfo[]
}

/** Options of `listCheckpoints` / `previewRestore` / `restoreCheckpoint`. */
export interface CheckpointLocation {
  /**
   * Restore into this folder instead of the recorded project ("export files at this checkpoint").
   * Absolute path. Also searched for the checkpoint commits (a clone of the project).
   */
  targetDir?: string
  /** A folder (or `.git` folder) holding the repository with the checkpoint commits, when elsewhere. */
  repoDir?: string
  /**
   * The one-time token from `approveFolder(folder, 'restore')`. A restore writes only into a folder
   * picked in the system dialog or one the user allowed: the recorded project folder (no
   * `targetDir`) always needs it, since that path came from the session's store (issue 16).
   */
  grant?: string
}

/** What restoring does to one file: compared with the file on disk now. */
export type RestoreFileStatus = 'added' | 'modified' | 'deleted' | 'unchanged'

/** One file of a restore preview. */
export interface RestoreFilePreview {
  /** Path relative to the target folder, `/`-separated. */
  path: string
  /**
   * `added`: missing now, the checkpoint has it; `modified`: differs (content or executable bit);
   * `deleted`: on disk now, it did not exist at the checkpoint; `unchanged`: nothing to do.
   */
  status: RestoreFileStatus
  /** Unified diff from the file on disk now to the checkpoint (text files that differ). */
  diff?: string
  /** True when either side is binary (no diff). */
  binary: boolean
  /** Why there is no diff although the file differs (too large, permissions only). */
  diffNote?: string
  /** Bytes on disk now. */
  sizeBefore?: number
  /** Bytes after the restore (at the checkpoint). */
  sizeAfter?: number
  /** Permission bits on disk now (e.g. 0o644 = 420). */
  modeBefore?: number
  /** Permission bits at the checkpoint. */
  modeAfter?: number
  /** True when either side is a symbolic link. */
  symlink?: boolean
}

/** A path Sepia will not restore, and why (escapes the folder, backup missing, submodule...). */
export interface RefusedFile {
  path: string
  reason: string
}

/** Result of `previewRestore`. */
export interface RestorePreview {
  /** The folder the restore would write into. */
  targetDir: string
  checkpoint: CheckpointInfo
  /** Every covered file, sorted by path (unchanged ones included, so the user sees the whole set). */
  files: RestoreFilePreview[]
  refused: RefusedFile[]
  counts: Record<RestoreFileStatus, number>
}

/** Options of `restoreCheckpoint`. */
export interface RestoreOptions extends CheckpointLocation {
  /** Restore only these paths (as in the preview); default every changed file. */
  files?: string[]
}

/** Result of `restoreCheckpoint`. */
export interface RestoreResult {
  /** Id for `undoRestore`; `null` when nothing needed writing. */
  restoreId: string | null
  /** Paths written or deleted, relative to `targetDir`. */
  written: string[]
  /** Paths already as at the checkpoint. */
  unchanged: string[]
  refused: RefusedFile[]
  /** Folder holding the copies of the files as they were before (`null` when nothing was written). */
  backupDir: string | null
  targetDir: string
}

/** Result of `undoRestore`. */
export interface UndoResult {
  /** Paths put back as they were before the restore. */
  restored: string[]
  /** Paths left alone because they changed after the restore (plain-words reason each). */
  skipped: RefusedFile[]
}

/** One restore Sepia made, from its record in the app's data folder. */
export interface RestoreRecord {
  restoreId: string
  /** ms since epoch. */
  createdAt: number
  agent: AgentId
  sessionId: string
  checkpointId: string
  /** The checkpoint's label when it was restored. */
  label?: string
  targetDir: string
  /** Files the restore changed (for a failed or rolled-back one: those it had backed up to change). */
  fileCount: number
  /** `done` (can be undone), `undone`, `rolled-back` (a write failed; nothing changed), `failed` (see `message`). */
  state: 'writing' | 'done' | 'undone' | 'rolled-back' | 'failed'
  /** ms since epoch, when undone. */
  undoneAt?: number
  message?: string
  backupDir: string
}
