/**
 * Finishing or cleaning the write jobs a killed Sepia left in its journal (`write-journal.ts`), on
 * the next start (the app host, each CLI command that writes, the first library open).
 *
 * A record is recovered only when its process is gone (its pid is not alive, or is this process and
 * the job is not one of ours). Only the exact paths the record names are touched, and only when
 * they still look like what Sepia made there; anything else is kept and said (a note). Per kind:
 * - `convert`: when the recorded SQLite row is in the agent's database the write had reached its
 *   last step: the new files and the backup are kept (finished). Otherwise everything the job made
 *   is removed: temporary files, the new session files (regular files written after the job
 *   started), the backup of the database (a copy of a database the job never changed), the empty
 *   folders it made. When the database cannot be read, the files and the backup are kept (in doubt).
 * - `restore`, `undo`: handed to the checkpoint module (an interrupted restore is put back; an
 *   interrupted undo is finished), then temporary files and empty new folders go.
 * - `export`, `collect`: temporary files (and a bundle's temporary folder) go; finished files stay.
 * A backup recorded without a row key (`util/sqlite-row.ts`, a row it cannot look for) is removed
 * only when its bytes equal the file it copied.
 *
 * Each recovery appends a {@link RecoveryNote} to `<appDataDir>/write-jobs/recovered.json` (the
 * last {@link MAX_NOTES}), which the health report shows.
 */
import Database from 'better-sqlite3'
import { chmodSync, closeSync, existsSync, lstatSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmdirSync, rmSync, writeSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { InterruptedWrite } from '../../shared/health'
import { isRunningHere, journalDir, MAX_JOURNAL_BYTES, type WriteEntry, type WriteJob } from './write-journal'

/** What recovery did with one interrupted job (the health report's type). */
export type RecoveryNote = InterruptedWrite

/** What a kind-specific step reports. */
export interface RecoveryStep {
  outcome: RecoveryNote['outcome']
  message: string
  kept?: string[]
}

/** Steps for the entries the checkpoint module owns (util does not import it). */
export interface RecoveryHandlers {
  restoreDir?(entry: Extract<WriteEntry, { type: 'restore-dir' }>, job: WriteJob): Promise<RecoveryStep>
  undo?(entry: Extract<WriteEntry, { type: 'undo' }>, job: WriteJob): Promise<RecoveryStep>
}

/** Notes kept in `recovered.json`. */
export const MAX_NOTES = 50
/** Journal files looked at per start. */
const MAX_JOBS = 1000
/** Clock slack when telling whether a file was written after a job started (ms). */
const SLACK_MS = 2000

/** Temporary names Sepia's writers make (see each writer). */
const TEMP_NAMES: readonly RegExp[] = [
  /\.sepia-tmp-[0-9a-f]{8}(-journal|-wal|-shm)?$/, // util/file-transaction.ts, util/sqlite-row.ts
  /^\..+\.sepia-[0-9a-f]{8}\.tmp$/, // checkpoints/atomic.ts
  /^\..+\.[0-9a-f]{8}\.partial(\.d)?$/, // export/write.ts, bundle/collect.ts
]
const BACKUP_NAMES: readonly RegExp[] = [
  /\.sepia-backup-\d{8}T\d{6}Z(-\d+)?(-journal)?$/, // util/sqlite-row.ts
]

/** Whether `path`'s name is one of Sepia's temporary names. */
export function isSepiaTempName(path: string): boolean {
  return TEMP_NAMES.some((r) => r.test(basename(path)))
}

function isSepiaBackupName(path: string): boolean {
  return BACKUP_NAMES.some((r) => r.test(basename(path)))
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}

function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Read a journal file (bounded), or undefined when it is not a job record. */
function readJob(file: string): WriteJob | undefined {
  const st = lstatOrNull(file)
  if (!st?.isFile() || st.size > MAX_JOURNAL_BYTES) return undefined
  try {
    const j = JSON.parse(readFileSync(file, 'utf8')) as WriteJob
    if (j?.version !== 1 || typeof j.id !== 'string' || typeof j.pid !== 'number' || !Array.isArray(j.entries) || typeof j.startedAt !== 'number') return undefined
    return j
  } catch {
    return undefined
  }
}

/** The jobs in the journal that no live process owns. */
export function staleJobs(appDataDir: string): { job: WriteJob; file: string }[] {
  let names: string[]
  try {
    names = readdirSync(journalDir(appDataDir))
  } catch {
    return []
  }
  const out: { job: WriteJob; file: string }[] = []
  for (const name of names.filter((n) => /^\d+-[0-9a-f]{8}\.json$/.test(n)).slice(0, MAX_JOBS)) {
    const file = join(journalDir(appDataDir), name)
    const job = readJob(file)
    if (!job) continue
    if (job.pid === process.pid ? isRunningHere(job.id) : pidAlive(job.pid)) continue
    out.push({ job, file })
  }
  return out.sort((a, b) => a.job.startedAt - b.job.startedAt)
}

/** Remove a recorded temporary file (and a SQLite temp's side files) when it still looks like Sepia's. */
function removeTemp(e: Extract<WriteEntry, { type: 'temp' }>, kept: string[]): void {
  const paths = e.sqlite ? [e.path, ...['-journal', '-wal', '-shm'].map((s) => e.path + s)] : [e.path]
  for (const p of paths) {
    const st = lstatOrNull(p)
    if (!st) continue
    if (!isSepiaTempName(p)) {
      kept.push(p)
      continue
    }
    if (st.isFile() || st.isSymbolicLink()) rmSync(p, { force: true })
    else if (st.isDirectory() && /\.partial(\.d)?$/.test(p)) rmSync(p, { recursive: true, force: true })
    else kept.push(p)
  }
}

/** Remove a new file the job made, when it is a regular file written after the job started. */
function removeCreated(path: string, job: WriteJob, kept: string[]): void {
  const st = lstatOrNull(path)
  if (!st) return
  if (st.isFile() && st.mtimeMs >= job.startedAt - SLACK_MS) rmSync(path, { force: true })
  else kept.push(path)
}

/** Remove a SQLite backup (and its `-journal`) the job made of a database it did not change. */
function removeBackup(path: string, kept: string[]): void {
  for (const p of [path, `${path}-journal`]) {
    const st = lstatOrNull(p)
    if (!st) continue
    if (st.isFile() && isSepiaBackupName(p)) rmSync(p, { force: true })
    else kept.push(p)
  }
}

function sameBytes(a: string, b: string): boolean {
  const sa = lstatOrNull(a)
  const sb = lstatOrNull(b)
  if (!sa?.isFile() || !sb?.isFile() || sa.size !== sb.size) return false
  const fa = openSync(a, 'r')
  const fb = openSync(b, 'r')
  try {
    const ba = Buffer.alloc(1 << 16)
    const bb = Buffer.alloc(1 << 16)
    for (let at = 0; at < sa.size; ) {
      const n = readSync(fa, ba, 0, ba.length, at)
      const m = readSync(fb, bb, 0, bb.length, at)
      if (n !== m || n === 0 || !ba.subarray(0, n).equals(bb.subarray(0, m))) return false
      at += n
    }
    return true
  } finally {
    closeSync(fa)
    closeSync(fb)
  }
}

/**
 * Whether the row is in the database: `present`, `absent` (also when the database does not exist),
 * or `unknown` (cannot be read). The database is opened read-write so that SQLite rolls back the
 * killed job's own open transaction (its hot journal), as the agent would on its next start.
 */
function rowState(e: Extract<WriteEntry, { type: 'sqlite-row' }>): 'present' | 'absent' | 'unknown' {
  const st = lstatOrNull(e.db)
  if (!st) return 'absent'
  if (!st.isFile()) return 'unknown'
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(e.table) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(e.column)) return 'unknown'
  let db: Database.Database | undefined
  try {
    db = new Database(e.db, { fileMustExist: true })
    db.pragma('busy_timeout = 2000')
    return db.prepare(`SELECT 1 FROM "${e.table}" WHERE "${e.column}" = ? LIMIT 1`).get(e.value) ? 'present' : 'absent'
  } catch {
    return 'unknown'
  } finally {
    db?.close()
  }
}

/** Remove the empty folders the job made, deepest first. */
function removeDirs(job: WriteJob): void {
  const dirs = job.entries.filter((e): e is Extract<WriteEntry, { type: 'dir' }> => e.type === 'dir').map((e) => e.path)
  for (const d of [...new Set(dirs)].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(d) // only an empty folder goes
    } catch {
      // not empty, or gone
    }
  }
}

const plural = (n: number, w: string) => `${n} ${n === 1 ? w : `${w}s`}`

async function recoverOne(job: WriteJob, handlers: RecoveryHandlers): Promise<RecoveryStep> {
  const kept: string[] = []
  const temps = job.entries.filter((e): e is Extract<WriteEntry, { type: 'temp' }> => e.type === 'temp')
  const what = `Sepia stopped during a ${job.kind} into ${job.targets.join(', ') || 'a folder'}`
  let step: RecoveryStep
  for (const t of temps) removeTemp(t, kept)
  for (const b of job.entries) {
    if (b.type !== 'backup' || !existsSync(b.path)) continue
    if (isSepiaBackupName(b.path) && sameBytes(b.path, b.of)) rmSync(b.path, { force: true })
    else kept.push(b.path)
  }
  if (job.kind === 'convert') {
    const rows = job.entries.filter((e): e is Extract<WriteEntry, { type: 'sqlite-row' }> => e.type === 'sqlite-row')
    const created = job.entries.filter((e) => e.type === 'created').map((e) => (e as { path: string }).path)
    const last = rows[rows.length - 1]
    const state = last ? rowState(last) : 'absent'
    if (state === 'present') {
      step = { outcome: 'finished', message: `${what}, after the new session was complete; it was kept${last?.backup ? `, with the backup of the database at ${last.backup}` : ''}.` }
    } else if (state === 'unknown') {
      kept.push(...created.filter((p) => existsSync(p)), ...(last?.backup && existsSync(last.backup) ? [last.backup] : []))
      step = { outcome: 'kept', message: `${what}; Sepia could not read ${last?.db} to tell whether the new session was added, so it kept the files it wrote and the backup of the database.` }
    } else {
      for (const p of created) removeCreated(p, job, kept)
      for (const r of rows) if (r.backup) removeBackup(r.backup, kept)
      step = { outcome: 'cleaned', message: `${what}, before the new session was complete; what it had begun (${plural(created.length, 'new file')}${rows.some((r) => r.backup) ? ', the backup of the database' : ''}, temporary files) was removed and the store is as it was.` }
    }
  } else if (job.kind === 'restore' || job.kind === 'undo') {
    const steps: RecoveryStep[] = []
    for (const e of job.entries) {
      if (e.type === 'restore-dir' && handlers.restoreDir) steps.push(await handlers.restoreDir(e, job))
      if (e.type === 'undo' && handlers.undo) steps.push(await handlers.undo(e, job))
    }
    const outcome = steps.some((s) => s.outcome === 'kept') ? 'kept' : steps.some((s) => s.outcome === 'cleaned') ? 'cleaned' : 'finished'
    for (const s of steps) kept.push(...(s.kept ?? []))
    step = { outcome, message: steps.length ? steps.map((s) => s.message).join(' ') : `${what}; its temporary files were removed.` }
  } else {
    step = { outcome: 'cleaned', message: `${what}; its ${plural(temps.length, 'temporary file')} were removed (finished files were kept).` }
  }
  removeDirs(job)
  if (kept.length && step.outcome !== 'kept') step = { ...step, outcome: 'kept', message: `${step.message} Kept in place (check them): ${kept.join(', ')}.` }
  return kept.length ? { ...step, kept: [...new Set(kept)] } : step
}

/** The notes of earlier recoveries, newest last. */
export function readRecoveryNotes(appDataDir: string): RecoveryNote[] {
  const file = join(journalDir(appDataDir), 'recovered.json')
  const st = lstatOrNull(file)
  if (!st?.isFile() || st.size > MAX_JOURNAL_BYTES) return []
  try {
    const list = JSON.parse(readFileSync(file, 'utf8')) as RecoveryNote[]
    return Array.isArray(list) ? list.slice(-MAX_NOTES) : []
  } catch {
    return []
  }
}

function appendNotes(appDataDir: string, notes: RecoveryNote[]): void {
  const file = join(journalDir(appDataDir), 'recovered.json')
  const all = [...readRecoveryNotes(appDataDir), ...notes].slice(-MAX_NOTES)
  const tmp = `${file}.${process.pid}.tmp`
  const fd = openSync(tmp, 'w', 0o600)
  try {
    writeSync(fd, JSON.stringify(all, null, 1))
  } finally {
    closeSync(fd)
  }
  chmodSync(tmp, 0o600)
  renameSync(tmp, file)
}

/**
 * Finish or clean every interrupted job in `<appDataDir>/write-jobs/` (see the module comment).
 * Cheap when there is none (one `readdir`). Never throws: a job that cannot be recovered stays in
 * the journal and gets a `kept` note.
 */
export async function recoverWriteJobs(appDataDir: string, handlers: RecoveryHandlers = {}, now: () => number = Date.now): Promise<RecoveryNote[]> {
  const notes: RecoveryNote[] = []
  for (const { job, file } of staleJobs(appDataDir)) {
    let step: RecoveryStep
    let done = true
    try {
      step = await recoverOne(job, handlers)
    } catch (e) {
      done = false
      step = { outcome: 'kept', message: `Sepia stopped during a ${job.kind} and could not clean up after it (${(e as Error).message}); it will try again on the next start.` }
    }
    const note: RecoveryNote = { jobId: job.id, kind: job.kind, startedAt: job.startedAt, recoveredAt: now(), ...step }
    notes.push(note)
    if (done) rmSync(file, { force: true })
  }
  if (notes.length) {
    try {
      appendNotes(appDataDir, notes)
    } catch {
      // the notes are still returned
    }
  }
  return notes
}
