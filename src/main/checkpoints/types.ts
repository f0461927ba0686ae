/**
 * What the checkpoint sources (git: Cline SDK stash/commit and legacy shadow repositories;
 * Claude Code file history) give the preview and the restore: per file, its state at the
 * checkpoint, readable on demand. Payloads are never kept in the IR (seed 002 "Checkpoints").
 */

/** One file a checkpoint covers, as it was at the checkpoint. */
export interface FileAtCheckpoint {
  /** Path relative to the project folder, `/`-separated (already checked, see `paths.ts`). */
  path: string
  /** False when the file did not exist at the checkpoint: restoring deletes it. */
  exists: boolean
  /** True for a symbolic link (its bytes are the link target). */
  symlink: boolean
  /** Permission bits at the checkpoint (git: 0o644 or 0o755; Claude Code: the backup's bits). */
  mode: number
  /** Size in bytes, when known without reading. */
  size?: number
  /** A file whose bytes are the content at the checkpoint (Claude Code backups): copied by streaming. */
  sourcePath?: string
  /** The bytes at the checkpoint (empty when `exists` is false). */
  read(): Promise<Uint8Array>
}

/** A path a checkpoint names that Sepia will not restore, and why (plain words). */
export interface RefusedPath {
  path: string
  reason: string
}

/** The files of one checkpoint: those it can restore and those it refuses. */
export interface CheckpointFiles {
  files: FileAtCheckpoint[]
  refused: RefusedPath[]
}

/** `(done, total, phase)`: progress of long work; `phase` is plain words ("Backing up", ...). */
export type Progress = (done: number, total: number, phase: string) => void
