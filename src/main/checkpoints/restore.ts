/**
 * Restoring files to a checkpoint, with a backup of everything about to change and an undo.
 *
 * A restore folder `<appDataDir>/restores/<timestamp>-<sessionId>/` holds `manifest.json`
 * ({@link Manifest}: target, files with `existedBefore`, `backupName`, `mode`, before/after
 * signatures) and `files/<n>`, byte copies of the files as they were. Order:
 * 1. back up every file about to change and write the manifest (nothing in the target changed yet);
 * 2. write each file atomically (temp + rename) or delete it;
 * 3. when a write fails, put back the files already written and report that nothing changed.
 * Undo puts the backups back, leaving alone files that changed again after the restore.
 *
 * Each restore and undo is a write job (`src/main/util/write-journal.ts`): its restore folder, the
 * temp files in the project and the folders it makes are recorded before they are made. After a
 * kill the next start ({@link recoverInterruptedRestore}, {@link recoverInterruptedUndo}) puts an
 * interrupted restore back (a restore killed before its manifest was written changed nothing, and
 * its folder is removed) and finishes an interrupted undo.
 */
import { lstat, mkdir, readdir, readFile, readlink, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SepiaError } from '../../shared/api'
import type { RefusedFile, RestoreRecord, RestoreResult, UndoResult } from '../../shared/checkpoints'
import type { AgentId } from '../../shared/ir'
import { makeParents, modeToWrite, nodeIo, removeEmptyDirs, signatureFor, signatureOf, writeAtomic, type Content, type RestoreIo } from './atomic'
import { safeTargetPath } from './paths'
import { dropWrite, noteWrite, pausePoint, runWriteJob } from '../util/write-journal'
import type { ComparedFile } from './preview'
import type { Progress } from './types'
import { plural } from '../../shared/plural'

/** One file in a restore manifest. */
export interface ManifestFile {
  /** Relative to the target, `/`-separated. */
  path: string
  action: 'write' | 'delete'
  existedBefore: boolean
  /** Backup under the restore folder (`files/<n>`), `null` when the file did not exist or was a link. */
  backupName: string | null
  /** Permission bits before the restore (existing files). */
  mode?: number
  /** Target of the symbolic link that was there before. */
  linkTarget?: string
  /** {@link signatureOf} before and after the restore. */
  before: string
  after: string
}

/** `manifest.json` of a restore folder. */
export interface Manifest {
  version: 1
  restoreId: string
  /** ms since epoch. */
  createdAt: number
  agent: AgentId
  sessionId: string
  checkpointId: string
  ref: string
  kind: string
  label?: string
  /** The folder restored into. */
  target: string
  state: RestoreRecord['state']
  message?: string
  undoneAt?: number
  files: ManifestFile[]
  /** Paths written or deleted so far. */
  written: string[]
  /** Folders the restore created (outermost first). */
  createdDirs: string[]
}

/** What a restore is about. */
export interface RestoreJob {
  appDataDir: string
  now: () => number
  agent: AgentId
  sessionId: string
  checkpoint: { id: string; ref: string; kind: string; label?: string }
  targetDir: string
  /** The compared files to restore (unchanged ones are skipped). */
  files: ComparedFile[]
  refused: RefusedFile[]
  io?: RestoreIo
  onProgress?: Progress
}

/** The restores folder of an app data folder. */
export function restoresDir(appDataDir: string): string {
  return join(appDataDir, 'restores')
}

/** Write `manifest.json` of a restore folder (temp file + rename). */
export async function saveManifest(dir: string, m: Manifest): Promise<void> {
  const tmp = join(dir, 'manifest.json.tmp')
  await writeFile(tmp, JSON.stringify(m, null, 2) + '\n')
  await rename(tmp, join(dir, 'manifest.json'))
}

async function newRestoreDir(appDataDir: string, now: number, sessionId: string): Promise<{ id: string; dir: string }> {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('.', '-')
  const base = `${stamp}-${sessionId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80)}`
  await mkdir(restoresDir(appDataDir), { recursive: true })
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`
    const dir = join(restoresDir(appDataDir), id)
    const entry = { type: 'restore-dir' as const, path: dir, restoreId: id }
    noteWrite(entry)
    try {
      await mkdir(dir)
    } catch (e) {
      dropWrite(entry) // another restore's folder, or none made
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n > 1000) throw e
      continue
    }
    await mkdir(join(dir, 'files'))
    return { id, dir }
  }
}

/** Perform a restore (see the module comment). Rejects `WRITE_FAILED` after rolling back. */
export async function performRestore(job: RestoreJob): Promise<RestoreResult> {
  return runWriteJob(job.appDataDir, 'restore', [job.targetDir], () => restoreBody(job))
}

async function contentOf(c: ComparedFile): Promise<Content> {
  if (c.file.symlink) return { linkTarget: new TextDecoder().decode(await c.file.read()) }
  return c.file.sourcePath ? { copyFrom: c.file.sourcePath } : { bytes: await c.file.read() }
}

async function restoreBody(job: RestoreJob): Promise<RestoreResult> {
  const io = job.io ?? nodeIo
  const todo = job.files.filter((c) => c.preview.status !== 'unchanged')
  const unchanged = job.files.filter((c) => c.preview.status === 'unchanged').map((c) => c.file.path)
  if (todo.length === 0) return { restoreId: null, written: [], unchanged, refused: job.refused, backupDir: null, targetDir: job.targetDir }
  const { id, dir } = await newRestoreDir(job.appDataDir, job.now(), job.sessionId)
  const m: Manifest = {
    version: 1, restoreId: id, createdAt: job.now(), agent: job.agent, sessionId: job.sessionId, checkpointId: job.checkpoint.id,
    ref: job.checkpoint.ref, kind: job.checkpoint.kind, ...(job.checkpoint.label ? { label: job.checkpoint.label } : {}),
    target: job.targetDir, state: 'writing', files: [], written: [], createdDirs: [],
  }
  // 1. Back up.
  try {
    for (let i = 0; i < todo.length; i++) {
      const c = todo[i]!
      const f: ManifestFile = { path: c.file.path, action: c.file.exists ? 'write' : 'delete', existedBefore: c.disk !== 'absent', backupName: null, before: await signatureOf(c.abs), after: 'absent' }
      if (c.disk === 'file') {
        f.backupName = `files/${i}`
        f.mode = c.diskMode ?? 0o644
        await io.copyFile(c.abs, join(dir, f.backupName))
        if ((await lstat(join(dir, f.backupName))).size !== (await lstat(c.abs)).size) throw new Error(`the backup of ${c.file.path} is incomplete`)
        pausePoint('backup')
      } else if (c.disk === 'symlink') f.linkTarget = await readlink(c.abs)
      if (c.file.exists) f.after = await signatureFor(await contentOf(c), c.file.symlink ? 0 : modeToWrite(c.file.mode, c.disk === 'file' ? c.diskMode : undefined))
      m.files.push(f)
      job.onProgress?.(i + 1, todo.length, 'Backing up')
    }
    await saveManifest(dir, m)
  } catch (e) {
    m.state = 'failed'
    m.message = `Backing up failed before any file was changed: ${(e as Error).message}`
    await saveManifest(dir, m).catch(() => undefined)
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not back up the files before restoring (${(e as Error).message}). Nothing was changed.`, path: dir })
  }
  // 2. Write.
  for (let i = 0; i < todo.length; i++) {
    const c = todo[i]!
    try {
      const safe = await safeTargetPath(job.targetDir, c.file.path) // again: the disk may have changed since the preview
      if (!safe.ok) throw new Error(safe.reason)
      if (c.file.exists) {
        m.createdDirs.push(...(await makeParents(c.abs)))
        await writeAtomic(io, c.abs, await contentOf(c), modeToWrite(c.file.mode, c.disk === 'file' ? c.diskMode : undefined))
      } else await io.unlink(c.abs)
      m.written.push(c.file.path)
      job.onProgress?.(i + 1, todo.length, 'Restoring')
    } catch (e) {
      const problems = await putBack(io, job.targetDir, dir, m.files.filter((f) => m.written.includes(f.path)))
      await removeEmptyDirs(m.createdDirs)
      m.state = problems.length ? 'failed' : 'rolled-back'
      m.message = `Writing ${c.file.path} failed: ${(e as Error).message}` + (problems.length ? `; could not put back: ${problems.map((p) => p.path).join(', ')}` : '')
      await saveManifest(dir, m).catch(() => undefined)
      const tail = problems.length
        ? `Some files could not be put back (${problems.map((p) => p.path).join(', ')}); their copies are in ${dir}.`
        : `Nothing was changed: ${m.written.length === 1 ? 'the file already written was' : `the ${m.written.length} files already written were`} put back.`
      throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write ${c.file.path} (${(e as Error).message}). ${tail}`, path: c.abs })
    }
  }
  m.state = 'done'
  await saveManifest(dir, m)
  return { restoreId: id, written: [...m.written], unchanged, refused: job.refused, backupDir: dir, targetDir: job.targetDir }
}

/** Put files back as the manifest recorded them before the restore (reverse order); the files that could not be. */
export async function putBack(io: RestoreIo, target: string, dir: string, files: ManifestFile[]): Promise<RefusedFile[]> {
  const problems: RefusedFile[] = []
  for (const f of [...files].reverse()) {
    try {
      const safe = await safeTargetPath(target, f.path)
      if (!safe.ok) throw new Error(safe.reason)
      if (f.backupName) await writeAtomic(io, safe.value, { copyFrom: join(dir, f.backupName) }, f.mode ?? 0o644)
      else if (f.linkTarget !== undefined) await writeAtomic(io, safe.value, { linkTarget: f.linkTarget }, 0)
      else if ((await signatureOf(safe.value)) !== 'absent') await io.unlink(safe.value)
    } catch (e) {
      problems.push({ path: f.path, reason: (e as Error).message })
    }
  }
  return problems
}

function checkRestoreId(restoreId: unknown): string {
  if (typeof restoreId !== 'string' || !/^[A-Za-z0-9._-]+$/.test(restoreId) || /^\.+$/.test(restoreId)) {
    throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Give a restore id as "sepia restore" or the restore list shows it.' })
  }
  return restoreId
}

/** Read a restore's manifest. Rejects `NOT_FOUND`. */
export async function readManifest(appDataDir: string, restoreId: string): Promise<{ dir: string; manifest: Manifest }> {
  const dir = join(restoresDir(appDataDir), checkRestoreId(restoreId))
  try {
    return { dir, manifest: JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest }
  } catch {
    throw new SepiaError({ code: 'NOT_FOUND', message: `There is no restore "${restoreId}" in ${restoresDir(appDataDir)}.`, path: dir })
  }
}

/**
 * Undo a restore: each file it wrote or deleted goes back to its backup (or is removed when it
 * did not exist), unless it changed again after the restore. Also completes an interrupted
 * restore (state `writing`/`failed`): files still as they were count as restored.
 */
export async function undoRestore(appDataDir: string, restoreId: string, now: () => number, io: RestoreIo = nodeIo): Promise<UndoResult> {
  const { manifest } = await readManifest(appDataDir, restoreId)
  return runWriteJob(appDataDir, 'undo', [manifest.target], () => {
    noteWrite({ type: 'undo', restoreId })
    return undoBody(appDataDir, restoreId, now, io)
  })
}

async function undoBody(appDataDir: string, restoreId: string, now: () => number, io: RestoreIo): Promise<UndoResult> {
  const { dir, manifest: m } = await readManifest(appDataDir, restoreId)
  if (m.state === 'undone') throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The restore ${restoreId} was already undone.` })
  if (m.state === 'rolled-back') throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The restore ${restoreId} changed nothing (it was rolled back), so there is nothing to undo.` })
  const restored: string[] = []
  const skipped: RefusedFile[] = []
  const back: ManifestFile[] = []
  for (const f of m.files) {
    const safe = await safeTargetPath(m.target, f.path)
    if (!safe.ok) {
      skipped.push({ path: f.path, reason: safe.reason })
      continue
    }
    const current = await signatureOf(safe.value)
    if (current === f.before) restored.push(f.path) // never written, or already back
    else if (current === f.after) back.push(f)
    else skipped.push({ path: f.path, reason: 'It changed after the restore; Sepia leaves it as it is now. Its earlier copy is in the restore folder.' })
  }
  const problems = await putBack(io, m.target, dir, back)
  const failed = new Set(problems.map((p) => p.path))
  for (const f of back) if (!failed.has(f.path)) restored.push(f.path)
  skipped.push(...problems)
  await removeEmptyDirs(m.createdDirs)
  m.state = 'undone'
  m.undoneAt = now()
  await saveManifest(dir, m)
  return { restored: restored.sort(), skipped }
}

/** Every restore recorded under `appDataDir`, newest first. Unreadable records are skipped. */
export async function listRestores(appDataDir: string): Promise<RestoreRecord[]> {
  let names: string[]
  try {
    names = await readdir(restoresDir(appDataDir))
  } catch {
    return []
  }
  const out: RestoreRecord[] = []
  for (const name of names) {
    try {
      const m = JSON.parse(await readFile(join(restoresDir(appDataDir), name, 'manifest.json'), 'utf8')) as Manifest
      const r: RestoreRecord = {
        restoreId: m.restoreId, createdAt: m.createdAt, agent: m.agent, sessionId: m.sessionId, checkpointId: m.checkpointId,
        targetDir: m.target, fileCount: m.files.length, state: m.state, backupDir: join(restoresDir(appDataDir), name),
      }
      if (m.label) r.label = m.label
      if (m.undoneAt !== undefined) r.undoneAt = m.undoneAt
      if (m.message) r.message = m.message
      out.push(r)
    } catch {
      // not a restore folder
    }
  }
  return out.sort((a, b) => b.createdAt - a.createdAt || b.restoreId.localeCompare(a.restoreId))
}
