/**
 * The write-job journal (issue 16, "after kill -9"): every job that writes (a convert, a restore, an
 * undo, an export, a collect) is recorded in Sepia's own data folder before it starts, and every
 * temporary file, backup, new file and new folder it makes is added to the record before it is
 * made. The record is removed when the job ends (done or failed-and-rolled-back in process). A
 * record still there on the next start is a job that was killed; `write-recovery.ts` finishes or
 * cleans it, touching only the exact paths recorded here.
 *
 * Where: `<appDataDir>/write-jobs/<job id>.json`, one file per job (so concurrent Sepia processes
 * never rewrite each other's records), folder mode 0700, files 0600, each rewrite a temp file plus
 * a `rename` (atomic). Only Sepia's data folder is ever used: the journal path never comes from a
 * store. Size is bounded: a job holds at most {@link MAX_ENTRIES} live entries (temporary files are
 * dropped again once renamed), a rewrite larger than {@link MAX_JOURNAL_BYTES} is refused, and the
 * write it was about to record does not happen.
 *
 * The writing primitives (`util/file-transaction.ts`, `util/sqlite-row.ts`,
 * `checkpoints/atomic.ts`, `export/write.ts`, `bundle/collect.ts`) call {@link noteWrite} /
 * {@link dropWrite}; the current job travels with the async call chain (`AsyncLocalStorage`), so the
 * writers need no extra parameter. Outside a job (unit tests calling a writer directly) the calls do
 * nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { SepiaError } from '../../shared/api'

/** What a job does. */
export type WriteJobKind = 'convert' | 'restore' | 'undo' | 'export' | 'collect'

/** One thing a job is about to create (recorded before it exists). */
export type WriteEntry =
  /** A temporary file (or, for a bundle, folder) that a rename or a delete ends; `sqlite`: also its `-journal`/`-wal`/`-shm`. */
  | { type: 'temp'; path: string; sqlite?: true }
  /** A new final file that did not exist before the job (a converted session's file). */
  | { type: 'created'; path: string }
  /** A folder the job creates (removed again, when empty, if the job is undone). */
  | { type: 'dir'; path: string }
  /** A byte copy of `of` made before changing it (`util/sqlite-row.ts`'s database backup, when the row has no key to look for). */
  | { type: 'backup'; path: string; of: string }
  /** A row added to an agent's SQLite index in one transaction, with the backup copy taken first. */
  | { type: 'sqlite-row'; db: string; table: string; column: string; value: string | number; backup?: string }
  /** A restore folder `<appDataDir>/restores/<restoreId>/` (src/main/checkpoints/restore.ts). */
  | { type: 'restore-dir'; path: string; restoreId: string }
  /** An undo of the restore `restoreId`. */
  | { type: 'undo'; restoreId: string }

/** The record of one job, as stored. */
export interface WriteJob {
  version: 1
  /** `<ms>-<8 hex>`. */
  id: string
  kind: WriteJobKind
  /** The process that runs it (a record of a live process is never recovered by another). */
  pid: number
  /** ms since epoch. */
  startedAt: number
  /** The final targets (folders or files) the job writes into, for messages. */
  targets: string[]
  entries: WriteEntry[]
}

/** Live entries one job may hold. */
export const MAX_ENTRIES = 10_000
/** Largest journal file written or read (bytes). */
export const MAX_JOURNAL_BYTES = 4 * 1024 * 1024

/** The journal folder of an app data folder. */
export function journalDir(appDataDir: string): string {
  return join(appDataDir, 'write-jobs')
}

interface Active {
  job: WriteJob
  file: string
}

const storage = new AsyncLocalStorage<Active>()
/** Ids of the jobs this process is running (recovery leaves them alone). */
const running = new Set<string>()

/** Whether `id` is a job of this process that is still running. */
export function isRunningHere(id: string): boolean {
  return running.has(id)
}

function save(a: Active, sync = false): void {
  const text = JSON.stringify(a.job)
  if (Buffer.byteLength(text) > MAX_JOURNAL_BYTES) throw tooBig(a)
  const tmp = `${a.file}.${process.pid}.tmp`
  const fd = openSync(tmp, 'w', 0o600)
  try {
    writeSync(fd, text)
    if (sync) fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, a.file)
}

function tooBig(a: Active): SepiaError {
  return new SepiaError({ code: 'WRITE_FAILED', message: `This ${a.job.kind} makes more files than Sepia can record safely (${MAX_ENTRIES}); nothing more was written.`, path: a.file })
}

/**
 * Run `fn` as one write job of `kind` into `targets`, recorded in `<appDataDir>/write-jobs/`. The
 * record is written (and flushed) before `fn` starts and removed when `fn` settles, whether it
 * resolved or rejected (a rejecting writer has rolled itself back). Rejects `WRITE_FAILED` when
 * the journal cannot be written (then nothing is written at all).
 */
export async function runWriteJob<T>(appDataDir: string, kind: WriteJobKind, targets: readonly string[], fn: () => Promise<T>): Promise<T> {
  const dir = journalDir(appDataDir)
  const now = Date.now()
  const id = `${now}-${randomBytes(4).toString('hex')}`
  const a: Active = { job: { version: 1, id, kind, pid: process.pid, startedAt: now, targets: [...targets], entries: [] }, file: join(dir, `${id}.json`) }
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    chmodSync(dir, 0o700)
    save(a, true)
  } catch (e) {
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not record the ${kind} in Sepia's data folder (${(e as Error).message}); nothing was written.`, path: dir })
  }
  running.add(id)
  try {
    return await storage.run(a, fn)
  } finally {
    running.delete(id)
    rmSync(a.file, { force: true })
  }
}

/** The job the calling code runs in, if any. */
export function currentJob(): Readonly<WriteJob> | undefined {
  return storage.getStore()?.job
}

const same = (a: WriteEntry, b: WriteEntry): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * Record `entry` in the current job before the thing it names is created. Synchronous, so the
 * record is on disk before the next file-system call. Throws `WRITE_FAILED` when the job already
 * holds {@link MAX_ENTRIES} entries (the caller then does not create it). No-op outside a job.
 */
export function noteWrite(entry: WriteEntry): void {
  const a = storage.getStore()
  if (!a) return
  if (a.job.entries.length >= MAX_ENTRIES) throw tooBig(a)
  a.job.entries.push(entry)
  save(a)
}

/** Forget `entry` (its temporary file was renamed or removed; a folder that was not created after all). No-op outside a job. */
export function dropWrite(entry: WriteEntry): void {
  const a = storage.getStore()
  if (!a) return
  const i = a.job.entries.findIndex((e) => same(e, entry))
  if (i < 0) return
  a.job.entries.splice(i, 1)
  save(a)
}

const seen = new Map<string, number>()

/**
 * Test hook, for the kill -9 tests only: when `SEPIA_TEST_PAUSE_AT` names this point
 * (`<job kind>:<step>`, e.g. `convert:staged`, or `<kind>:<step>@<n>` for its n-th time), write the
 * point's name to the file `SEPIA_TEST_PAUSE_FILE` and block this thread (up to 120 s) so the test
 * can kill the process at exactly this point. The variables are set by tests, never by Sepia.
 * Points: `staged` (a convert file written to its temp name), `renamed`, `sqlite-backup` (backup
 * copied, row not added), `sqlite-insert` (inside the open transaction), `sqlite-added` (committed), `sqlite-created`,
 * `backup` (a restore backed up one file), `temp` (a restore/undo temp file in the project),
 * `written` (a restore/undo replaced one file), `partial` (an export/collect temp file).
 */
export function pausePoint(step: string): void {
  const want = process.env.SEPIA_TEST_PAUSE_AT
  if (!want) return
  const point = `${currentJob()?.kind ?? 'none'}:${step}`
  const n = (seen.get(point) ?? 0) + 1
  seen.set(point, n)
  if (want !== point && want !== `${point}@${n}`) return
  const marker = process.env.SEPIA_TEST_PAUSE_FILE
  if (marker) {
    const fd = openSync(marker, 'w')
    writeSync(fd, `${point}@${n}`)
    closeSync(fd)
  }
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000)
}
