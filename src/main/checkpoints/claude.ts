/**
 * Claude Code file history: the backups behind `Session.checkpoints` of kind `file-history`.
 *
 * Format facts (seed 002 "Claude Code / Entry types"; fixtures/real/claude-code/README.md
 * "Worth knowing"):
 * - `file-history-snapshot {messageId, snapshot{messageId, trackedFileBackups{<path>:
 *   {backupFileName, version, backupTime}}, timestamp}, isSnapshotUpdate}`: at the start of the
 *   turn of user message `messageId`, each tracked file's backup (its content at that moment).
 * - `file-history-delta {messageId, snapshotMessageId, trackingPath, backup{backupFileName,
 *   version, backupTime, realParentDir}}` (2.1.332): a file starts being tracked during a turn;
 *   the backup is its content before the first edit, added to snapshot `snapshotMessageId`.
 * - `backupFileName: null` means the file did not exist at that point (restoring deletes it).
 * - Backups live in `<claude dir>/file-history/<sessionId>/<backupFileName>` (`<hash>@v<n>`).
 * - Paths are relative to the project (2.1.x) or absolute (older versions).
 *
 * Rewinding to a snapshot (as Claude Code's own rewind does): every file the session tracked is
 * put back to that snapshot's backup, or, when the file was only tracked later, to its first
 * version (its content before the session first edited it).
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

/** The file-history records of one transcript, merged. */
export interface FileHistory {
  /** Snapshot message id → tracked path (as stored) → backup. In order of first appearance. */
  snapshots: Map<string, Map<string, Backup>>
  /** Tracked path → its first version (lowest `version`; first seen when versions are missing). */
  first: Map<string, Backup>
}

function backupOf(v: unknown): Backup | undefined {
  if (!isRecord(v)) return undefined
  const name = v.backupFileName
  if (name !== null && typeof name !== 'string') return undefined
  const b: Backup = { backupFileName: name }
  if (typeof v.version === 'number') b.version = v.version
  return b
}

/** Stream a Claude Code transcript and merge its file-history records. Rejects when unreadable. */
export async function readFileHistory(jsonlPath: string): Promise<FileHistory> {
  const snapshots = new Map<string, Map<string, Backup>>()
  const first = new Map<string, Backup>()
  const note = (path: string, b: Backup) => {
    const f = first.get(path)
    if (!f || (b.version !== undefined && (f.version === undefined || b.version < f.version))) first.set(path, b)
  }
  for await (const { text } of readLines(jsonlPath)) {
    if (!text.includes('"file-history-')) continue
    const r = tryParseJson(text)
    if (!isRecord(r)) continue
    if (r.type === 'file-history-snapshot') {
      const snap = isRecord(r.snapshot) ? r.snapshot : {}
      const id = typeof r.messageId === 'string' ? r.messageId : typeof snap.messageId === 'string' ? snap.messageId : undefined
      if (!id) continue
      // A snapshot, its updates (`isSnapshotUpdate`) and its deltas all add to one map.
      const map = snapshots.get(id) ?? new Map<string, Backup>()
      for (const [path, v] of Object.entries(isRecord(snap.trackedFileBackups) ? snap.trackedFileBackups : {})) {
        const b = backupOf(v)
        if (!b) continue
        map.set(path, b)
        note(path, b)
      }
      snapshots.set(id, map)
    } else if (r.type === 'file-history-delta') {
      const id = typeof r.snapshotMessageId === 'string' ? r.snapshotMessageId : typeof r.messageId === 'string' ? r.messageId : undefined
      const b = backupOf(r.backup)
      if (!id || !b || typeof r.trackingPath !== 'string') continue
      const map = snapshots.get(id) ?? new Map<string, Backup>()
      map.set(r.trackingPath, b)
      snapshots.set(id, map)
      note(r.trackingPath, b)
    }
  }
  return { snapshots, first }
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
 * The files of snapshot `messageId`: every path the session tracked, with the backup to put back.
 * Missing backup files and paths outside the project are refused.
 *
 * @param backupDir `<claude dir>/file-history/<sessionId>`
 * @param projectDir the session's recorded working directory (absolute keys must lie inside it)
 */
export async function claudeFilesAt(history: FileHistory, messageId: string, backupDir: string, projectDir?: string): Promise<CheckpointFiles> {
  const out: CheckpointFiles = { files: [], refused: [] }
  const snap = history.snapshots.get(messageId) ?? new Map<string, Backup>()
  for (const stored of [...history.first.keys()].sort()) {
    const backup = snap.get(stored) ?? history.first.get(stored)!
    const rel = relativeCheckpointPath(stored, projectDir)
    if (!rel.ok) {
      out.refused.push({ path: stored, reason: rel.reason })
      continue
    }
    if (backup.backupFileName === null) {
      out.files.push({ path: rel.value, exists: false, symlink: false, mode: 0o644, read: async () => new Uint8Array() })
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
      out.refused.push({ path: rel.value, reason: `Its backup ${name} is not in ${backupDir} (was the file-history folder copied with the home?).` })
      continue
    }
    if (!st.isFile()) {
      out.refused.push({ path: rel.value, reason: `Its backup ${src} is not a file.` })
      continue
    }
    out.files.push({ path: rel.value, exists: true, symlink: false, mode: st.mode & 0o777, size: st.size, sourcePath: src, read: async () => new Uint8Array(await readFile(src)) })
  }
  return out
}
