/**
 * Only regular files are read (issue 16, "special files"). A copied home can hold a FIFO where a
 * store file should be (opening it blocks forever), or a link to `/dev/zero` (reading it never
 * ends). Every open point checks the file first: opened without blocking (`O_NONBLOCK`, so a FIFO
 * open returns at once), then `fstat` on that handle. A file read whole also has a size cap.
 * Errors carry `code: 'ENOTREGULAR'` or `'ETOOBIG'` and a message naming the file; readers turn
 * them into diagnostics like any unreadable file.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { lstat, open, stat } from 'node:fs/promises'
import { isMainThread } from 'node:worker_threads'
import type { AgentId, Diagnostic } from '../../shared/ir'

/** The largest file read whole into memory, in bytes (256 MiB). Larger files are streamed or refused. */
export const MAX_WHOLE_FILE_BYTES = 256 * 1024 * 1024

/** Flags that open a FIFO without waiting for a writer (POSIX; ignored where absent). */
const NONBLOCK_READ = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe (FIFO)'
  if (st.isCharacterDevice()) return 'a character device'
  if (st.isBlockDevice()) return 'a block device'
  if (st.isSocket()) return 'a socket'
  if (st.isDirectory()) return 'a folder'
  return 'not a regular file'
}

function notRegular(path: string, st: Stats): Error {
  return Object.assign(new Error(`${path} is ${kindOf(st)}, not a regular file; Sepia reads only regular files.`), { code: 'ENOTREGULAR', path })
}

function tooBig(path: string, size: number, max: number): Error {
  return Object.assign(new Error(`${path} is ${Math.round(size / 1048576)} MB, more than the ${Math.round(max / 1048576)} MB Sepia reads whole; it was not read.`), { code: 'ETOOBIG', path })
}

/**
 * Throw unless `path` (links followed) is a regular file. Never blocks on a FIFO. Throws the file
 * system error (ENOENT, EACCES...) when it cannot be opened, `ENOTREGULAR` otherwise.
 */
export function assertRegularFile(path: string): Stats {
  const fd = openSync(path, NONBLOCK_READ)
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw notRegular(path, st)
    return st
  } finally {
    closeSync(fd)
  }
}

/**
 * Read a regular file whole as UTF-8 text, at most `maxBytes` (default {@link MAX_WHOLE_FILE_BYTES}).
 * Rejects with `ENOTREGULAR` for a FIFO, device, socket or folder, `ETOOBIG` past the cap (also
 * when the file grows while read), or the file system error.
 */
export async function readRegularFile(path: string, maxBytes = MAX_WHOLE_FILE_BYTES): Promise<string> {
  return (await readRegularBytes(path, maxBytes)).toString('utf8')
}

/**
 * {@link readRegularFile} as bytes. On a worker thread (an indexing worker, `catalog/pool.ts`) the
 * file is read with synchronous calls: nothing else runs on that thread meanwhile, and each
 * thread-pool round trip of the promise API (open, stat, reads, close) cost more than the read
 * of a small session file itself (issue 15: a Cline task of three small files took ~3 ms, most of
 * it the worker waiting). The same checks, errors and result either way.
 */
export async function readRegularBytes(path: string, maxBytes = MAX_WHOLE_FILE_BYTES): Promise<Buffer> {
  if (!isMainThread) return readRegularBytesSync(path, maxBytes)
  const fh = await open(path, NONBLOCK_READ)
  try {
    const st = await fh.stat()
    if (!st.isFile()) throw notRegular(path, st)
    if (st.size > maxBytes) throw tooBig(path, st.size, maxBytes)
    const buf = Buffer.alloc(Math.min(maxBytes + 1, st.size + 1))
    let got = 0
    for (;;) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, got)
      if (bytesRead === 0) break
      got += bytesRead
      if (got === buf.length) {
        if (got > maxBytes) throw tooBig(path, got, maxBytes)
        break // exactly st.size + 1 can only mean it grew; the cap above still holds
      }
    }
    return buf.subarray(0, got)
  } finally {
    await fh.close()
  }
}

/** {@link readRegularBytes} with synchronous calls (worker threads). */
export function readRegularBytesSync(path: string, maxBytes = MAX_WHOLE_FILE_BYTES): Buffer {
  const fd = openSync(path, NONBLOCK_READ)
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw notRegular(path, st)
    if (st.size > maxBytes) throw tooBig(path, st.size, maxBytes)
    const buf = Buffer.alloc(Math.min(maxBytes + 1, st.size + 1))
    let got = 0
    for (;;) {
      const bytesRead = readSync(fd, buf, got, buf.length - got, got)
      if (bytesRead === 0) break
      got += bytesRead
      if (got === buf.length) {
        if (got > maxBytes) throw tooBig(path, got, maxBytes)
        break // exactly st.size + 1 can only mean it grew; the cap above still holds
      }
    }
    return buf.subarray(0, got)
  } finally {
    closeSync(fd)
  }
}

/**
 * Open a regular file for reading (for reads of a file's head): never blocks on a FIFO, rejects
 * with `ENOTREGULAR` for anything else, or the file system error. The caller closes the handle.
 */
export async function openRegularFile(path: string): Promise<import('node:fs/promises').FileHandle> {
  const fh = await open(path, NONBLOCK_READ)
  try {
    const st = await fh.stat()
    if (!st.isFile()) throw notRegular(path, st)
    return fh
  } catch (err) {
    await fh.close()
    throw err
  }
}

/**
 * Size and mtime (ms since epoch) of a regular file (links followed), or undefined for anything
 * else or nothing. Quiet: for a side file a session may have (an index, a `-wal`, a metadata
 * file); a session's own file goes through {@link statSessionFile}, which warns. Never throws.
 */
export async function statRegular(path: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const s = await stat(path)
    return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : undefined
  } catch {
    return undefined
  }
}

/**
 * Size and mtime (ms since epoch) of a session file a reader's discovery found, following links,
 * or undefined when nothing is there. Anything else at that path (a FIFO, device, socket, folder
 * or broken link) adds a warning diagnostic naming it and gives undefined: issue 16, a special file
 * is never dropped silently. Never throws.
 */
export async function statSessionFile(path: string, agent: AgentId, diagnostics: Diagnostic[]): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    await lstat(path)
  } catch {
    return undefined
  }
  let what: string
  try {
    const st = await stat(path)
    if (st.isFile()) return { size: st.size, mtimeMs: st.mtimeMs }
    what = kindOf(st)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    what = code === 'ENOENT' ? 'a broken link' : code === 'ELOOP' ? 'a symbolic link loop (it leads back to itself)' : `unreadable (${(e as Error).message})`
  }
  diagnostics.push({ severity: 'warning', skipped: 1, path, agent, message: `${path} is ${what}; Sepia reads only regular files, so it was skipped.` })
  return undefined
}
