/**
 * The next start after a kill during a restore or an undo (the handlers `util/write-recovery.ts`
 * calls for the journal entries `restore-dir` and `undo`; see `restore.ts` for the folder layout):
 * - a restore folder without `manifest.json`: the restore was still backing up, nothing in the
 *   project had changed; the folder is removed when it holds only what a restore puts there
 *   (`files/<n>`, `manifest.json.tmp`);
 * - a manifest in state `writing`: the restore was writing; every file now as the restore wrote it
 *   is put back from its backup, a file changed by someone since is left alone (and said), and the
 *   manifest becomes `rolled-back` (or `failed` when something could not be put back);
 * - an undo not marked `undone`: the undo is run again (it is signature-guarded: only files still
 *   as the restore left them are put back), which finishes it.
 */
import { lstat, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { RecoveryHandlers, RecoveryStep } from '../util/write-recovery'
import { nodeIo, signatureOf } from './atomic'
import { safeTargetPath } from './paths'
import { putBack, readManifest, restoresDir, saveManifest, undoRestore, type ManifestFile } from './restore'

const plural = (n: number, w: string) => `${n} ${n === 1 ? w : `${w}s`}`

/** Whether `dir` holds only what a restore's backup phase writes. */
async function onlyRestoreParts(dir: string): Promise<boolean> {
  for (const name of await readdir(dir)) {
    const st = await lstat(join(dir, name))
    if (name === 'manifest.json.tmp' && st.isFile()) continue
    if (name !== 'files' || !st.isDirectory()) return false
    for (const f of await readdir(join(dir, name))) {
      if (!/^\d+$/.test(f) || !(await lstat(join(dir, name, f))).isFile()) return false
    }
  }
  return true
}

/** Recover the restore `restoreId` of `appDataDir` (see the module comment). Never throws for a missing folder. */
export async function recoverInterruptedRestore(appDataDir: string, restoreId: string, expectedDir: string, now: () => number): Promise<RecoveryStep> {
  const dir = join(restoresDir(appDataDir), restoreId)
  if (dir !== expectedDir || !/^[A-Za-z0-9._-]+$/.test(restoreId)) return { outcome: 'kept', message: `The journal names a restore folder outside ${restoresDir(appDataDir)} (${expectedDir}); Sepia left it alone.`, kept: [expectedDir] }
  try {
    await lstat(dir)
  } catch {
    return { outcome: 'cleaned', message: 'Sepia stopped before a restore had made its folder; nothing had changed.' }
  }
  let manifest
  try {
    manifest = (await readManifest(appDataDir, restoreId)).manifest
  } catch {
    if (!(await onlyRestoreParts(dir))) return { outcome: 'kept', message: `Sepia stopped while backing up files for a restore; nothing in the project had changed, but ${dir} holds files Sepia did not put there, so it was kept.`, kept: [dir] }
    await rm(dir, { recursive: true, force: true })
    return { outcome: 'cleaned', message: 'Sepia stopped while backing up files for a restore; nothing in the project had changed, and the unfinished restore folder was removed.' }
  }
  if (manifest.state !== 'writing') return { outcome: 'finished', message: `The restore ${restoreId} had finished (${manifest.state}).` }
  const back: ManifestFile[] = []
  const changed: string[] = []
  for (const f of manifest.files) {
    const safe = await safeTargetPath(manifest.target, f.path)
    if (!safe.ok) {
      changed.push(f.path)
      continue
    }
    const current = await signatureOf(safe.value)
    if (current === f.after) back.push(f)
    else if (current !== f.before) changed.push(f.path)
  }
  const problems = await putBack(nodeIo, manifest.target, dir, back)
  const stuck = [...changed, ...problems.map((p) => p.path)]
  manifest.state = stuck.length ? 'failed' : 'rolled-back'
  manifest.message =
    `Sepia stopped during this restore; on its next start it put back ${plural(back.length - problems.length, 'file')} already written.` +
    (stuck.length ? ` Left as they are (changed since, or could not be put back; their earlier copies are in this folder): ${stuck.join(', ')}.` : '')
  void now
  await saveManifest(dir, manifest)
  return stuck.length
    ? { outcome: 'kept', message: `The interrupted restore ${restoreId} into ${manifest.target}: ${manifest.message}`, kept: [dir] }
    : { outcome: 'cleaned', message: `Sepia stopped during the restore ${restoreId} into ${manifest.target}; the ${plural(back.length, 'file')} already written were put back, so the project is as it was before.` }
}

/** Finish the undo of `restoreId` (see the module comment). */
export async function recoverInterruptedUndo(appDataDir: string, restoreId: string, now: () => number): Promise<RecoveryStep> {
  let state
  try {
    state = (await readManifest(appDataDir, restoreId)).manifest.state
  } catch {
    return { outcome: 'finished', message: `Sepia stopped during the undo of ${restoreId}, whose restore folder is gone; nothing more to do.` }
  }
  if (state === 'undone' || state === 'rolled-back') return { outcome: 'finished', message: `Sepia stopped at the end of the undo of ${restoreId}; it had finished.` }
  const u = await undoRestore(appDataDir, restoreId, now)
  const base = `Sepia stopped during the undo of the restore ${restoreId}; on its next start it finished the undo (${plural(u.restored.length, 'file')} as before the restore).`
  return u.skipped.length
    ? { outcome: 'kept', message: `${base} Left as they are: ${u.skipped.map((s) => `${s.path} (${s.reason})`).join('; ')}.` }
    : { outcome: 'finished', message: base }
}

/** The handlers for `recoverWriteJobs`. */
export function checkpointRecovery(appDataDir: string, now: () => number): RecoveryHandlers {
  return {
    restoreDir: (e) => recoverInterruptedRestore(appDataDir, e.restoreId, e.path, now),
    undo: (e) => recoverInterruptedUndo(appDataDir, e.restoreId, now),
  }
}
