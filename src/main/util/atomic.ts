/**
 * Atomic file writes for the operations allowed to write (convert, restore, export): the data goes
 * to a temporary file beside the target, is flushed to disk (`fsync`), and replaces the target in
 * one `rename`. A failure at any step (a throwing call, a full disk) removes the temporary file
 * and leaves the target as it was (DESIGN.md "Writing happens only in convert and restore ...
 * atomically, with a backup of anything replaced"; issue 9 item 2).
 *
 * An existing target is never replaced silently: `existing: 'backup'` first copies it to a backup
 * file, `existing: 'replace'` is for files Sepia itself owns, and the default refuses.
 * Inside a write job (`write-journal.ts`) the temporary file and the backup are recorded before
 * they are made, so a kill leaves nothing the next start does not clean.
 */
import { constants } from 'node:fs'
import * as fsp from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { SepiaError } from '../../shared/api'
import { dropWrite, noteWrite, pausePoint } from './write-journal'

/** The file handle calls {@link writeFileAtomic} uses (a subset of `fs/promises` FileHandle). */
export interface AtomicFileHandle {
  write(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesWritten: number }>
  sync(): Promise<void>
  close(): Promise<void>
}

/** The file system calls {@link writeFileAtomic} uses; tests inject faults through it. */
export interface AtomicFs {
  open(path: string, flags: string, mode?: number): Promise<AtomicFileHandle>
  rename(from: string, to: string): Promise<void>
  unlink(path: string): Promise<void>
  copyFile(from: string, to: string, mode?: number): Promise<void>
  lstat(path: string): Promise<{ isFile(): boolean; isDirectory(): boolean; mode: number }>
}

/** Options for {@link writeFileAtomic}. */
export interface WriteAtomicOptions {
  /** File system; `node:fs/promises` by default. */
  fs?: AtomicFs
  /**
   * What to do when the target exists: `refuse` (default) rejects with `WRITE_FAILED`; `backup`
   * copies it to `backupPath` (default `<path>.sepia-backup-<ms>`) first; `replace` overwrites a
   * file Sepia owns.
   */
  existing?: 'refuse' | 'backup' | 'replace'
  /** Where the backup goes (with `existing: 'backup'`). Must not exist. */
  backupPath?: string
  /** File mode of a new file (an existing file's mode is kept). Default 0o644. */
  mode?: number
  /** ms since epoch, for the backup name. */
  now?: () => number
}

/** What was written. */
export interface WriteAtomicResult {
  path: string
  /** Bytes written. */
  bytes: number
  /** The backup of the replaced file, when one was made. */
  backupPath?: string
}

const CHUNK = 1 << 20

/**
 * Write `data` to `path` atomically. `data` may be a string (UTF-8), bytes, or an async iterable
 * of either (streamed, for large files). Rejects with `SepiaError` `WRITE_FAILED` (plain words,
 * `path` set) on any failure; the target and its folder are then as they were.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | AsyncIterable<string | Uint8Array>,
  options: WriteAtomicOptions = {},
): Promise<WriteAtomicResult> {
  const fs = options.fs ?? (fsp as unknown as AtomicFs)
  const existing = options.existing ?? 'refuse'
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.sepia-tmp`)
  let current: { mode: number } | undefined
  try {
    const st = await fs.lstat(path)
    if (st.isDirectory()) throw fail(path, `${path} is a folder; Sepia will not replace it with a file.`)
    current = st
  } catch (e) {
    if (e instanceof SepiaError) throw e
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw writeError(path, e)
  }
  if (current && existing === 'refuse') throw fail(path, `${path} already exists; Sepia does not overwrite it. Choose another name or folder.`)

  let handle: AtomicFileHandle | undefined
  let backupPath: string | undefined
  let bytes = 0
  try {
    noteWrite({ type: 'temp', path: temp })
    handle = await fs.open(temp, 'wx', current?.mode ?? options.mode ?? 0o644)
    for await (const chunk of chunks(data)) {
      for (let at = 0; at < chunk.length; ) {
        const { bytesWritten } = await handle.write(chunk, at, Math.min(CHUNK, chunk.length - at), null)
        if (bytesWritten <= 0) throw Object.assign(new Error('no bytes written'), { code: 'EIO' })
        at += bytesWritten
        bytes += bytesWritten
      }
    }
    await handle.sync()
    await handle.close()
    handle = undefined
    pausePoint('temp')
    if (current && existing === 'backup') {
      backupPath = options.backupPath ?? `${path}.sepia-backup-${(options.now ?? Date.now)()}`
      noteWrite({ type: 'backup', path: backupPath, of: path })
      await fs.copyFile(path, backupPath, constants.COPYFILE_EXCL)
    }
    await fs.rename(temp, path)
    dropWrite({ type: 'temp', path: temp })
  } catch (e) {
    if (handle) await handle.close().catch(() => undefined)
    await fs.unlink(temp).catch(() => undefined)
    if (backupPath) await fs.unlink(backupPath).catch(() => undefined)
    throw writeError(path, e)
  }
  await syncFolder(fs, dirname(path))
  return backupPath ? { path, bytes, backupPath } : { path, bytes }
}

async function* chunks(data: string | Uint8Array | AsyncIterable<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  if (typeof data === 'string') yield Buffer.from(data, 'utf8')
  else if (data instanceof Uint8Array) yield data
  else for await (const c of data) yield typeof c === 'string' ? Buffer.from(c, 'utf8') : c
}

/** Flush the folder entry of the rename (POSIX); best effort, skipped where folders cannot be opened. */
async function syncFolder(fs: AtomicFs, dir: string): Promise<void> {
  if (process.platform === 'win32') return
  try {
    const h = await fs.open(dir, 'r')
    await h.sync().catch(() => undefined)
    await h.close()
  } catch {
    // the data is written and renamed; only durability of the folder entry is not confirmed
  }
}

function fail(path: string, message: string): SepiaError {
  return new SepiaError({ code: 'WRITE_FAILED', message, path })
}

/** A file system error in plain words. */
function writeError(path: string, e: unknown): SepiaError {
  if (e instanceof SepiaError) return e
  const code = (e as NodeJS.ErrnoException)?.code
  const why =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'the disk is full. Free some space and try again'
      : code === 'EACCES' || code === 'EPERM'
        ? 'Sepia is not allowed to write there. Choose a folder you can write to'
        : code === 'EROFS'
          ? 'that disk is read-only. Choose another folder'
          : code === 'ENOENT'
            ? 'its folder does not exist any more. Choose an existing folder'
            : `of an error (${code ?? (e instanceof Error ? e.message : String(e))}). Try again`
  return fail(path, `Could not write ${path} because ${why}. Nothing was changed.`)
}
