/**
 * Writing export files: atomic (a temp file in the target folder, then a hard link / rename to the
 * final name), never over an existing file (a free name is chosen instead), so an interrupted or
 * failed export leaves no partial file and never replaces anything the user had. Inside a write
 * job (`util/write-journal.ts`) the temp file is recorded first, so a kill leaves nothing behind
 * after the next start.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { link, open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, extname, join } from 'node:path'
import { dropWrite, noteWrite, pausePoint } from '../util/write-journal'

/** Test hooks for {@link writeNewFileAtomic}: called after each chunk is written (may throw). */
export interface WriteHooks {
  afterChunk?: (bytesWritten: number) => void
}

const CHUNK = 1 << 16

/**
 * Write `data` to a new file at `path`, or at `name (2).ext`, `name (3).ext`… when `path` exists.
 * Resolves the path written and its size in bytes. On any failure the temp file is removed and
 * nothing is left at the target; the error is rethrown.
 */
export async function writeNewFileAtomic(path: string, data: string | Uint8Array, hooks: WriteHooks = {}): Promise<{ path: string; bytes: number }> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  const dir = dirname(path)
  const temp = join(dir, `.${basename(path)}.${randomBytes(4).toString('hex')}.partial`)
  noteWrite({ type: 'temp', path: temp })
  const fh = await open(temp, 'wx')
  try {
    for (let at = 0; at < bytes.length; at += CHUNK) {
      const end = Math.min(at + CHUNK, bytes.length)
      await fh.write(bytes, at, end - at)
      hooks.afterChunk?.(end)
    }
    await fh.sync()
  } catch (e) {
    await fh.close().catch(() => undefined)
    await unlink(temp).catch(() => undefined)
    throw e
  }
  await fh.close()
  pausePoint('partial')
  try {
    const final = await placeNew(temp, path)
    dropWrite({ type: 'temp', path: temp })
    return { path: final, bytes: bytes.length }
  } catch (e) {
    await unlink(temp).catch(() => undefined)
    throw e
  }
}

/** Give `temp` the first free name derived from `path`, never replacing an existing file. */
async function placeNew(temp: string, path: string): Promise<string> {
  for (let n = 1; n < 10_000; n++) {
    const candidate = n === 1 ? path : numbered(path, n)
    try {
      await link(temp, candidate) // fails with EEXIST instead of replacing
      await unlink(temp)
      return candidate
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'EEXIST') continue
      // File systems without hard links (FAT, some network shares): check, then rename.
      if (existsSync(candidate)) continue
      await rename(temp, candidate)
      return candidate
    }
  }
  throw new Error(`no free file name near ${path}`)
}

/** `a/name.ext` → `a/name (n).ext` (a double extension such as `.atif.json` stays whole). */
export function numbered(path: string, n: number): string {
  const dir = dirname(path)
  const name = basename(path)
  const dbl = /(\.atif\.json)$/i.exec(name)
  const ext = dbl ? dbl[1]! : extname(name)
  return join(dir, `${name.slice(0, name.length - ext.length)} (${n})${ext}`)
}
