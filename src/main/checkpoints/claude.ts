/**
 * Claude Code file history: the backups behind `Session.checkpoints` of kind `file-history`.
 *
 * Format facts (seed 002 "Claude Code / Entry types"; fixtures/real/claude-code/README.md
 * "Worth knowing"; Claude Code 2.1.332's own code, below):
 * - `file-history-snapshot {messageId, snapshot{messageId, trackedFileBackups{<path>:
 *   {backupFileName, version, backupTime}}, timestamp}, isSnapshotUpdate}`: at the start of the
 *   turn of user message `messageId`, each tracked file's backup (its content at that moment).
 * - `file-history-delta {messageId, snapshotMessageId, trackingPath, backup{backupFileName,
 *   version, backupTime, realParentDir}}` (2.1.2xx, e.g. fixtures/public-real graph-21217 at
 *   2.1.217): a file starts being tracked during a turn; the backup is its content before the
 *   first edit, added to snapshot `snapshotMessageId`.
 * - `backupFileName: null` means the file did not exist at that point (restoring deletes it).
 * - Backups live in `<claude dir>/file-history/<sessionId>/<backupFileName>` (`<hash>@v<n>`).
 * - Paths are relative to the project (2.1.x) or absolute (older versions).
 *
 * What a rewind puts on disk, read in the code of `@anthropic-ai/claude-code` 2.1.332 (the JS
 * bundled into the native binary `claude-code-linux-x64/claude`, minified names of that build;
 * an earlier reading of 2.1.197's cli.js found the same rule as `Mrf` / `jwo`):
 * - Taking backups. `M$n` (an Edit/Write about to change a file): a file no snapshot tracks yet
 *   gets its first backup, version 1, from `eYn` (`backupFileName` = `Q2n`: the first 16 hex
 *   digits of sha256(absolute path) + `@v<n>`, a copy of the file with its mode; `null` when the
 *   file does not exist, i.e. the turn creates it), recorded as a `file-history-delta` (`Gul`)
 *   into the newest snapshot (`p7e` kind `track`). Files changed by Bash are not tracked (only
 *   `touch`: `hasUntrackedChanges`). `Alt` (before each user prompt): a snapshot naming every
 *   tracked file; a file unchanged since the previous backup keeps that backup, a changed one
 *   gets a new version (`M2n` = highest version + 1), a tracked file that is gone gets
 *   `backupFileName: null` (`tengu_file_history_backup_deleted_file`).
 * - Reading them back on resume. `Ade(snapshotsByUuid, deltasByUuid, chain)` walks the
 *   conversation chain: a snapshot appends, or replaces the one of its `messageId` when
 *   `isSnapshotUpdate`; a delta merges into snapshot `snapshotMessageId`, or synthesizes it from
 *   the previous snapshot's backups plus the delta. Only the newest `y8` = 100 snapshots are kept
 *   (`kmr` carries the last dropped one as the base of a synthesized one). `Myr` then makes
 *   absolute keys inside the project relative (`uYn`) and sets `trackedFiles` = every key.
 * - Rewinding. `Oyr(state, messageId)` takes the last snapshot of that id (none: "The selected
 *   snapshot was not found") and calls `Jss`. For every tracked file, resolved against the
 *   project (`Rhe`): the backup is the snapshot's entry, else `Ehe` = the first `version: 1`
 *   backup in snapshot order (the file before the session first touched it), else nothing (the
 *   file is left as it is: "Error finding the backup file to apply"). A named backup is copied
 *   back when the file differs from it (`Obt`: existence, mode, size, mtime, bytes; `ris` writes
 *   the bytes with the backup's mode, creating folders); `null` deletes the file (`nis`), so a
 *   file the turn created is gone after a rewind to the snapshot before it. Deletions run last,
 *   and when any restore failed (a backup file missing) every deletion is held ("Kept <path>: a
 *   restore failed"); when restores failed and nothing changed, `Oyr` throws "No files were
 *   restored". Links, hard links and moved parent folders are refused (`tYn`). Files the session
 *   never tracked (created or deleted only by Bash) are not touched. The dry run behind the
 *   picker's "+n -m" is `AWt` (same backup choice).
 * - Seen in the real terminal UI (`npm run resume-rewind`, resume/REWIND.md): `/rewind` lists the
 *   prompts oldest first with "(current)" last, each with "N files changed +a -b" (", can't
 *   restore 1 more" when a Bash command changed files in that turn) or "No code changes"; then
 *   "Restore code and conversation / Restore conversation / Restore code / Summarize ... / Never
 *   mind", or only "Restore conversation" with "The code will be unchanged." when the dry run
 *   finds nothing to change.
 *
 * Sepia follows that rule file by file ({@link claudeFilesAt}). Differences: Sepia walks the
 * records in file order, not the chain (the same for a session without rewinds or branches), and
 * keeps every snapshot, not only the newest 100 (the CLI cannot rewind to older ones at all).
 * Proof with the real CLI's `/rewind`: `npm run resume-rewind` (resume/REWIND.md).
 *
 * The IR keeps only refs (`Session.checkpoints[].ref` = message id), so this module re-reads the
 * records from the transcript, streaming and parsing only the file-history lines.
 */
import { readFile, realpath, stat } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative } from 'node:path'
import { isRecord, tryParseJson } from '../util/json'
import { readLines } from '../util/lines'
import { relativeCheckpointPath } from './paths'
import type { CheckpointFiles } from './types'

/** One backup a file-history record names. */
export interface Backup {
  /** File name under `file-history/<sessionId>/`; `null` = the file did not exist. */
  backupFileName: string | null
  version?: number
}

/** The file-history records of one transcript, merged as Claude Code merges them. */
export interface FileHistory {
  /** Snapshot message id → tracked path (as stored) → backup. The last snapshot of an id wins. */
  snapshots: Map<string, Map<string, Backup>>
  /**
   * Tracked path → its `version: 1` backup, the first found in snapshot order (the file before
   * the session first touched it; `backupFileName: null` = it did not exist). A path without a
   * version-1 backup has no entry: a rewind to a snapshot that does not name it leaves it alone.
   */
  first: Map<string, Backup>
  /** Every path any snapshot tracks (Claude Code's `trackedFiles`). */
  tracked: Set<string>
}

function backupOf(v: unknown): Backup | undefined {
  if (!isRecord(v)) return undefined
  const name = v.backupFileName
  if (name !== null && typeof name !== 'string') return undefined
  const b: Backup = { backupFileName: name }
  if (typeof v.version === 'number') b.version = v.version
  return b
}

/**
 * Stream a Claude Code transcript and merge its file-history records. Rejects when unreadable.
 *
 * Mirrors Claude Code's own rebuild of its snapshot list (cli.js 2.1.332, the function that
 * turns snapshot/delta records into `snapshots[]` with kinds append/replace/synthesize/merge):
 * a `file-history-snapshot` appends a snapshot, or replaces the one of the same `messageId`
 * when `isSnapshotUpdate`; a `file-history-delta` merges its `trackingPath: backup` into
 * snapshot `snapshotMessageId`, or, when that snapshot was not written, synthesizes it from the
 * previous snapshot's backups plus the delta. Claude Code walks the records in conversation-chain
 * order; Sepia uses file order (the same for a linear session).
 *
 * @param cwd the session's project folder: an absolute key under it becomes relative, as cli.js
 *   `Myr`/`uYn` do on resume (so `/p/a.txt` and `a.txt` are one tracked file)
 */
export async function readFileHistory(jsonlPath: string, cwd?: string): Promise<FileHistory> {
  const key = (path: string): string => (cwd && isAbsolute(path) && path.startsWith(cwd) && path.length > cwd.length ? relative(cwd, path) : path)
  const list: { id: string; map: Map<string, Backup> }[] = []
  const index = new Map<string, number>()
  for await (const { text } of readLines(jsonlPath)) {
    if (!text.includes('"file-history-')) continue
    const r = tryParseJson(text)
    if (!isRecord(r)) continue
    if (r.type === 'file-history-snapshot') {
      const snap = isRecord(r.snapshot) ? r.snapshot : {}
      const id = typeof r.messageId === 'string' ? r.messageId : typeof snap.messageId === 'string' ? snap.messageId : undefined
      if (!id) continue
      const map = new Map<string, Backup>()
      for (const [path, v] of Object.entries(isRecord(snap.trackedFileBackups) ? snap.trackedFileBackups : {})) {
        const b = backupOf(v)
        if (b) map.set(key(path), b)
      }
      const at = index.get(id)
      if (r.isSnapshotUpdate === true && at !== undefined) list[at] = { id, map }
      else {
        index.set(id, list.length)
        list.push({ id, map })
      }
    } else if (r.type === 'file-history-delta') {
      const id = typeof r.snapshotMessageId === 'string' ? r.snapshotMessageId : typeof r.messageId === 'string' ? r.messageId : undefined
      const b = backupOf(r.backup)
      if (!id || !b || typeof r.trackingPath !== 'string') continue
      const at = index.get(id)
      if (at !== undefined) list[at]!.map.set(key(r.trackingPath), b)
      else {
        const map = new Map(list.length ? list[list.length - 1]!.map : [])
        map.set(key(r.trackingPath), b)
        index.set(id, list.length)
        list.push({ id, map })
      }
    }
  }
  const snapshots = new Map<string, Map<string, Backup>>()
  const first = new Map<string, Backup>()
  const tracked = new Set<string>()
  for (const { id, map } of list) {
    snapshots.set(id, map)
    for (const [path, b] of map) {
      tracked.add(path)
      if (b.version === 1 && !first.has(path)) first.set(path, b)
    }
  }
  return { snapshots, first, tracked }
}

/** The Claude config dir of a transcript `<dir>/projects/<slug>/<id>.jsonl` (sub-agent files deeper). */
export function claudeDirOf(jsonlPath: string): string {
  let d = dirname(jsonlPath)
  for (let i = 0; i < 6; i++) {
    if (basename(d) === 'projects') return dirname(d)
    const up = dirname(d)
    if (up === d) break
    d = up
  }
  return dirname(dirname(dirname(jsonlPath)))
}

/**
 * The files of snapshot `messageId`: every path the session tracked, with the backup to put back
 * (cli.js 2.1.332 `Jss`, see the module comment). Missing backup files and paths outside the
 * project are refused; when a backup is missing, the files the rewind would delete are refused
 * too, because Claude Code then keeps them ("Kept <path>: a restore failed").
 *
 * @param backupDir `<claude dir>/file-history/<sessionId>`
 * @param projectDir the session's recorded working directory (absolute keys must lie inside it)
 */
export async function claudeFilesAt(history: FileHistory, messageId: string, backupDir: string, projectDir?: string): Promise<CheckpointFiles> {
  const out: CheckpointFiles = { files: [], refused: [] }
  const snap = history.snapshots.get(messageId) ?? new Map<string, Backup>()
  const deletions: CheckpointFiles['files'] = []
  let restoreFailed = false
  for (const stored of [...history.tracked].sort()) {
    // Claude Code's rewind: the snapshot's backup, else the file's version-1 backup, else untouched.
    const backup = snap.get(stored) ?? history.first.get(stored)
    if (!backup) continue
    const rel = relativeCheckpointPath(stored, projectDir)
    if (!rel.ok) {
      out.refused.push({ path: stored, reason: rel.reason })
      continue
    }
    if (backup.backupFileName === null) {
      deletions.push({ path: rel.value, exists: false, symlink: false, mode: 0o644, read: async () => new Uint8Array() })
      continue
    }
    const name = backup.backupFileName
    if (name === '' || /[\\/]/.test(name) || name === '.' || name === '..') {
      out.refused.push({ path: rel.value, reason: `The backup name "${name}" is not a plain file name.` })
      continue
    }
    const src = join(backupDir, name)
    let st
    try {
      // A backup (or its folder) that is a symbolic link is read only when it stays inside the
      // Claude dir: a copied home must not make a restore copy ~/.ssh/id_rsa into the project (issue 16).
      {
        const real = await realpath(src)
        const claudeDir = await realpath(dirname(dirname(backupDir))).catch(() => dirname(dirname(backupDir)))
        const within = relative(claudeDir, real)
        if (within === '' || within.startsWith('..') || isAbsolute(within)) {
          out.refused.push({ path: rel.value, reason: `Its backup ${src} is a symbolic link to ${real}, outside ${claudeDir}; Sepia does not follow it.` })
          continue
        }
      }
      st = await stat(src)
    } catch {
      restoreFailed = true
      out.refused.push({ path: rel.value, reason: `Its backup ${name} is not in ${backupDir} (was the file-history folder copied with the home?).` })
      continue
    }
    if (!st.isFile()) {
      out.refused.push({ path: rel.value, reason: `Its backup ${src} is not a file.` })
      continue
    }
    out.files.push({ path: rel.value, exists: true, symlink: false, mode: st.mode & 0o777, size: st.size, sourcePath: src, read: async () => new Uint8Array(await readFile(src)) })
  }
  for (const d of deletions) {
    if (restoreFailed) out.refused.push({ path: d.path, reason: 'It did not exist at this checkpoint, but another file\'s backup is missing, and Claude Code\'s rewind then keeps the files it would delete.' })
    else out.files.push(d)
  }
  out.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return out
}
