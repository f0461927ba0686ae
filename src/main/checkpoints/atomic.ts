/**
 * Atomic file replacement for restores: the new content goes to a temp file in the same folder
 * (flushed to disk), gets its permission bits, then is renamed over the target; a failure
 * removes the temp file and leaves the target as it was. The file-system calls go through a
 * {@link RestoreIo} so tests can inject a fault mid-write. Inside a write job
 * (`util/write-journal.ts`) each temp file and each folder made is recorded before it is created.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { chmod, copyFile, constants, lstat, mkdir, open, readlink, rename, rmdir, symlink, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { dropWrite, noteWrite, pausePoint } from '../util/write-journal'

/** The file-system calls a restore makes in the target folder (injectable for fault tests). */
export interface RestoreIo {
  /** Create `path` (must not exist) with `data`, flushed to disk. */
  writeFile(path: string, data: Uint8Array): Promise<void>
  /** Copy `src` to `dest` (must not exist), flushed to disk. */
  copyFile(src: string, dest: string): Promise<void>
  rename(from: string, to: string): Promise<void>
  unlink(path: string): Promise<void>
  symlink(target: string, path: string): Promise<void>
  chmod(path: string, mode: number): Promise<void>
}

async function flush(path: string): Promise<void> {
  const fh = await open(path, 'r+')
  try {
    await fh.sync()
  } finally {
    await fh.close()
  }
}

/** The real file system. */
export const nodeIo: RestoreIo = {
  async writeFile(path, data) {
    const fh = await open(path, 'wx', 0o600)
    try {
      let off = 0
      while (off < data.length) off += (await fh.write(data, off, data.length - off)).bytesWritten
      await fh.sync()
    } finally {
      await fh.close()
    }
  },
  async copyFile(src, dest) {
    await copyFile(src, dest, constants.COPYFILE_EXCL)
    await flush(dest)
  },
  rename: (from, to) => rename(from, to),
  unlink: (path) => unlink(path),
  symlink: (target, path) => symlink(target, path),
  chmod: (path, mode) => chmod(path, mode),
}

/** What to put at a path: bytes, a copy of a file, or a symbolic link. */
export type Content = { bytes: Uint8Array } | { copyFrom: string } | { linkTarget: string }

/** Replace (or create) `abs` with `content` atomically; `mode` is applied before the rename. */
export async function writeAtomic(io: RestoreIo, abs: string, content: Content, mode: number): Promise<void> {
  const tmp = join(dirname(abs), `.${basename(abs)}.sepia-${randomBytes(4).toString('hex')}.tmp`)
  noteWrite({ type: 'temp', path: tmp })
  try {
    if ('linkTarget' in content) await io.symlink(content.linkTarget, tmp)
    else {
      if ('bytes' in content) await io.writeFile(tmp, content.bytes)
      else await io.copyFile(content.copyFrom, tmp)
      await io.chmod(tmp, mode)
    }
    pausePoint('temp')
    await io.rename(tmp, abs)
    dropWrite({ type: 'temp', path: tmp })
    pausePoint('written')
  } catch (e) {
    await unlink(tmp).catch(() => undefined)
    throw e
  }
}

/**
 * Create the missing parent folders of `abs` (inside a folder known to be safe), returning the
 * ones created, outermost first, so they can be removed again.
 */
export async function makeParents(abs: string): Promise<string[]> {
  const missing: string[] = []
  let d = dirname(abs)
  for (;;) {
    try {
      await lstat(d)
      break
    } catch {
      missing.unshift(d)
      const up = dirname(d)
      if (up === d) break
      d = up
    }
  }
  for (const m of missing) noteWrite({ type: 'dir', path: m })
  if (missing.length) await mkdir(missing[missing.length - 1]!, { recursive: true })
  return missing
}

/** Remove folders a restore created, deepest first, when they are empty again. */
export async function removeEmptyDirs(dirs: readonly string[]): Promise<void> {
  for (const d of [...dirs].reverse()) await rmdir(d).catch(() => undefined)
}

/**
 * Whether the executable bit is compared: Windows file systems keep no such bit (`stat` never
 * reports it and `chmod` cannot set it), so there only the bytes count.
 */
export const EXEC_BIT_MATTERS = process.platform !== 'win32'

/** `x` or `-` for a mode's owner executable bit (always `-` where it is not kept). */
export function execFlag(mode: number): 'x' | '-' {
  return EXEC_BIT_MATTERS && mode & 0o100 ? 'x' : '-'
}

/** SHA-256 (hex) of bytes. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** SHA-256 (hex) of a file, streamed. */
export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256')
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer)
  return h.digest('hex')
}

/**
 * A short signature of what is at `abs` now: `absent`, `link:<target>`, or
 * `file:<x|->:<sha256>` (with the owner executable bit), to tell whether a file changed.
 */
export async function signatureOf(abs: string): Promise<string> {
  let st
  try {
    st = await lstat(abs)
  } catch {
    return 'absent'
  }
  if (st.isSymbolicLink()) return `link:${await readlink(abs)}`
  return `file:${execFlag(st.mode)}:${await sha256File(abs)}`
}

/** The signature {@link signatureOf} gives a file with these bytes (or copy source) and mode. */
export async function signatureFor(content: Content, mode: number): Promise<string> {
  if ('linkTarget' in content) return `link:${content.linkTarget}`
  const hash = 'bytes' in content ? sha256(content.bytes) : await sha256File(content.copyFrom)
  return `file:${execFlag(mode)}:${hash}`
}

/**
 * Permission bits to write: a new file gets the checkpoint's; an existing one keeps its own and
 * only takes the checkpoint's executable bit (as git does), so a restore never loosens a file.
 */
export function modeToWrite(checkpointMode: number, diskMode: number | undefined): number {
  if (diskMode === undefined) return checkpointMode & 0o777
  if (checkpointMode & 0o100) return diskMode | ((diskMode & 0o444) >> 2)
  return diskMode & ~0o111 & 0o777
}
