/**
 * Streaming zip writing and reading for review bundles, on fflate (no whole file in memory).
 *
 * Writing uses fflate's streaming `Zip` (DEFLATE entries with data descriptors). fflate writes no
 * ZIP64 records, so a bundle zip holds at most {@link ZIP_MAX_ENTRIES} files and about 4 GB
 * ({@link ZIP_MAX_BYTES}); bigger homes are collected to a folder instead.
 *
 * Reading goes through the central directory (APPNOTE.txt 4.3.12, 4.3.16; ZIP64 4.3.14-15 and
 * extra field 0x0001), so zips made by other tools (stored entries, ZIP64, data descriptors) open
 * too: each entry is streamed from its local header through fflate's `Inflate` (method 8) or as
 * is (method 0). Entry names that would leave the target folder are refused.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, open, stat, utimes, type FileHandle } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import type { Zip } from 'fflate'
import { lazyRequire } from '../util/lazy-require'

const fflate = lazyRequire<typeof import('fflate')>('fflate')

/** Most entries a bundle zip may hold (no ZIP64 on write). */
export const ZIP_MAX_ENTRIES = 65_000
/** Most bytes a bundle zip may hold (no ZIP64 on write), with room for headers. */
export const ZIP_MAX_BYTES = 4_000_000_000

/** Extensions whose data is already compressed: stored at level 0 to save time. */
const COMPRESSED = /\.(png|jpe?g|gif|webp|zip|gz|bz2|xz|zst|pack|idx|pdf|mp4|woff2?)$/i

/** A zip being written to a file. Entries are added one after another. */
export class ZipWriter {
  private zip: Zip
  private pending: Uint8Array[] = []
  private error: Error | undefined
  private done = false

  private constructor(private readonly fh: FileHandle) {
    this.zip = new (fflate().Zip)((err, chunk, final) => {
      if (err) this.error = err
      else this.pending.push(chunk)
      if (final) this.done = true
    })
  }

  /** Create the zip file (`wx`: fails when it exists). */
  static async create(path: string): Promise<ZipWriter> {
    return new ZipWriter(await open(path, 'wx'))
  }

  private async flush(): Promise<void> {
    if (this.error) throw this.error
    while (this.pending.length) await this.fh.write(this.pending.shift()!)
  }

  /**
   * Add a file's content under `name` (POSIX separators), streaming it from `src`. Resolves its
   * size and sha256 (hex) as read. `check` runs between chunks (throws to cancel).
   */
  async addFile(name: string, src: string, mtimeMs: number, check?: () => void): Promise<{ size: number; sha256: string }> {
    const entry = new (fflate().ZipDeflate)(name, { level: COMPRESSED.test(name) ? 0 : 6 })
    entry.mtime = new Date(clampZipTime(mtimeMs))
    this.zip.add(entry)
    const hash = createHash('sha256')
    let size = 0
    for await (const chunk of createReadStream(src, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      check?.()
      hash.update(chunk)
      size += chunk.length
      entry.push(chunk)
      await this.flush()
    }
    entry.push(new Uint8Array(0), true)
    await this.flush()
    return { size, sha256: hash.digest('hex') }
  }

  /** Add bytes (the manifest) under `name`. */
  async addBytes(name: string, data: Uint8Array, mtimeMs: number): Promise<void> {
    const entry = new (fflate().ZipDeflate)(name, { level: 6 })
    entry.mtime = new Date(clampZipTime(mtimeMs))
    this.zip.add(entry)
    entry.push(data, true)
    await this.flush()
  }

  /** Write the central directory and close the file. */
  async finish(): Promise<void> {
    this.zip.end()
    await this.flush()
    if (!this.done) throw new Error('the zip was not completed')
    await this.fh.sync()
    await this.fh.close()
  }

  /** Stop and close the file (the caller removes it). */
  async abort(): Promise<void> {
    this.zip.terminate()
    await this.fh.close().catch(() => undefined)
  }
}

/** DOS time in zips covers 1980–2107. */
function clampZipTime(ms: number): number {
  return Math.min(Math.max(ms, Date.UTC(1980, 0, 1, 12)), Date.UTC(2107, 11, 31))
}

/** One entry of a zip's central directory. */
export interface ZipEntry {
  name: string
  method: number
  compressedSize: number
  size: number
  localHeaderOffset: number
  /** ms since epoch from the DOS date/time (local time as UTC), when valid. */
  mtimeMs?: number
  isDirectory: boolean
}

/** Read the central directory. Throws a plain Error when the file is not a zip. */
export async function readZipDirectory(path: string): Promise<ZipEntry[]> {
  const fh = await open(path, 'r')
  try {
    const { size } = await fh.stat()
    const tailLen = Math.min(size, 65_535 + 22 + 20)
    const tail = Buffer.alloc(tailLen)
    await fh.read(tail, 0, tailLen, size - tailLen)
    let eocd = -1
    for (let i = tailLen - 22; i >= 0; i--) if (tail.readUInt32LE(i) === 0x06054b50) { eocd = i; break }
    if (eocd < 0) throw new Error('not a zip file (no end of central directory)')
    let count = tail.readUInt16LE(eocd + 10)
    let cdSize = tail.readUInt32LE(eocd + 12)
    let cdOffset = tail.readUInt32LE(eocd + 16)
    if ((count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) && eocd >= 20 && tail.readUInt32LE(eocd - 20) === 0x07064b50) {
      const recOffset = Number(tail.readBigUInt64LE(eocd - 20 + 8))
      const rec = Buffer.alloc(56)
      await fh.read(rec, 0, 56, recOffset)
      if (rec.readUInt32LE(0) !== 0x06064b50) throw new Error('broken ZIP64 end record')
      count = Number(rec.readBigUInt64LE(32))
      cdSize = Number(rec.readBigUInt64LE(40))
      cdOffset = Number(rec.readBigUInt64LE(48))
    }
    const cd = Buffer.alloc(cdSize)
    await fh.read(cd, 0, cdSize, cdOffset)
    const entries: ZipEntry[] = []
    let at = 0
    for (let i = 0; i < count; i++) {
      if (cd.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory')
      const flags = cd.readUInt16LE(at + 8)
      const method = cd.readUInt16LE(at + 10)
      const time = cd.readUInt16LE(at + 12)
      const date = cd.readUInt16LE(at + 14)
      let compressedSize = cd.readUInt32LE(at + 20)
      let uncompressed = cd.readUInt32LE(at + 24)
      const nameLen = cd.readUInt16LE(at + 28)
      const extraLen = cd.readUInt16LE(at + 30)
      const commentLen = cd.readUInt16LE(at + 32)
      let localHeaderOffset = cd.readUInt32LE(at + 42)
      const rawName = cd.subarray(at + 46, at + 46 + nameLen)
      const name = flags & 0x800 ? rawName.toString('utf8') : rawName.toString('latin1')
      const extra = cd.subarray(at + 46 + nameLen, at + 46 + nameLen + extraLen)
      for (let e = 0; e + 4 <= extra.length; ) {
        const id = extra.readUInt16LE(e)
        const len = extra.readUInt16LE(e + 2)
        if (id === 0x0001) {
          let z = e + 4
          if (uncompressed === 0xffffffff) (uncompressed = Number(extra.readBigUInt64LE(z))), (z += 8)
          if (compressedSize === 0xffffffff) (compressedSize = Number(extra.readBigUInt64LE(z))), (z += 8)
          if (localHeaderOffset === 0xffffffff) localHeaderOffset = Number(extra.readBigUInt64LE(z))
        }
        e += 4 + len
      }
      const entry: ZipEntry = { name: name.replace(/\\/g, '/'), method, compressedSize, size: uncompressed, localHeaderOffset, isDirectory: name.endsWith('/') }
      const mtime = dosTime(date, time)
      if (mtime !== undefined) entry.mtimeMs = mtime
      entries.push(entry)
      at += 46 + nameLen + extraLen + commentLen
    }
    return entries
  } finally {
    await fh.close()
  }
}

function dosTime(date: number, time: number): number | undefined {
  if (date === 0) return undefined
  const ms = Date.UTC(1980 + (date >> 9), ((date >> 5) & 15) - 1, date & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2)
  return Number.isNaN(ms) ? undefined : ms
}

/** True when a zip entry name stays inside the folder it is extracted to. */
export function isSafeEntryName(name: string): boolean {
  if (name === '' || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.includes('\0')) return false
  return name.split('/').every((seg) => seg !== '..')
}

/**
 * Extract every file of a zip into `destDir` (which must exist), streaming. Unsafe names and
 * unsupported compression methods are skipped and reported in `skipped`. `check` runs between
 * chunks (throws to cancel); `onEntry` after each file.
 */
export async function extractZip(
  zipPath: string,
  destDir: string,
  options: { check?: () => void; onEntry?: (done: number, total: number) => void; limits?: Partial<ZipLimits> } = {},
): Promise<{ files: string[]; skipped: { name: string; reason: string }[] }> {
  const entries = await readZipDirectory(zipPath)
  const limits = { ...ZIP_LIMITS, ...options.limits }
  const zipBytes = (await stat(zipPath)).size
  if (entries.length > limits.maxEntries) throw new ZipLimitError(`it holds ${entries.length} entries, more than the ${limits.maxEntries} Sepia opens`)
  const declared = entries.reduce((n, e) => n + (e.size > 0 ? e.size : 0), 0)
  const cap = Math.min(limits.maxTotalBytes, Math.max(limits.minRatioBytes, zipBytes * limits.maxRatio))
  if (declared > cap) throw new ZipLimitError(`it would unpack to ${mb(declared)}, more than ${mb(cap)} (${limits.maxRatio} times its size, at most ${mb(limits.maxTotalBytes)})`)
  let written = 0
  const count = (n: number): void => {
    written += n
    // Sizes in a zip can lie: the bytes actually written are counted too.
    if (written > cap) throw new ZipLimitError(`it unpacks to more than ${mb(cap)} (${limits.maxRatio} times its size, at most ${mb(limits.maxTotalBytes)})`)
  }
  const root = resolve(destDir)
  const files: string[] = []
  const skipped: { name: string; reason: string }[] = []
  const fh = await open(zipPath, 'r')
  try {
    let done = 0
    for (const e of entries) {
      options.check?.()
      if (e.isDirectory) continue
      const target = resolve(root, ...e.name.split('/'))
      if (!isSafeEntryName(e.name) || !(target + sep).startsWith(root + sep)) {
        skipped.push({ name: e.name, reason: 'its name points outside the bundle folder' })
        continue
      }
      if (e.method !== 0 && e.method !== 8) {
        skipped.push({ name: e.name, reason: `compression method ${e.method} is not supported` })
        continue
      }
      const local = Buffer.alloc(30)
      await fh.read(local, 0, 30, e.localHeaderOffset)
      if (local.readUInt32LE(0) !== 0x04034b50) {
        skipped.push({ name: e.name, reason: 'its local header is broken' })
        continue
      }
      const dataStart = e.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28)
      await mkdir(dirname(target), { recursive: true })
      const out = await open(target, 'w')
      try {
        const queue: Uint8Array[] = []
        const inflate = e.method === 8 ? new (fflate().Inflate)((chunk) => void queue.push(chunk)) : undefined
        if (e.compressedSize > 0) {
          const stream = createReadStream(zipPath, { start: dataStart, end: dataStart + e.compressedSize - 1, highWaterMark: 1 << 20 })
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            options.check?.()
            if (inflate) inflate.push(chunk)
            else queue.push(chunk)
            while (queue.length) {
              const c = queue.shift()!
              count(c.length)
              await out.write(c)
            }
          }
        }
        if (inflate && e.compressedSize > 0) inflate.push(new Uint8Array(0), true)
        while (queue.length) {
          const c = queue.shift()!
          count(c.length)
          await out.write(c)
        }
      } finally {
        await out.close()
      }
      if (e.mtimeMs !== undefined) await utimes(target, new Date(), new Date(e.mtimeMs)).catch(() => undefined)
      files.push(e.name)
      options.onEntry?.(++done, entries.length)
    }
  } finally {
    await fh.close()
  }
  return { files, skipped }
}

/**
 * Limits on opening a zip (issue 16: a 306 KB zip wrote 300 MB). `maxEntries` files;
 * unpacked bytes at most `maxRatio` times the zip's size (but always `minRatioBytes`), and never
 * more than `maxTotalBytes`. Both the sizes the zip declares and the bytes written are checked.
 */
export interface ZipLimits {
  maxEntries: number
  maxTotalBytes: number
  maxRatio: number
  minRatioBytes: number
}
export const ZIP_LIMITS: ZipLimits = { maxEntries: 200_000, maxTotalBytes: 8 * 1024 ** 3, maxRatio: 100, minRatioBytes: 64 * 1024 ** 2 }

/** A zip refused by {@link ZIP_LIMITS}; the message says why in plain words. */
export class ZipLimitError extends Error {
  constructor(why: string) {
    super(`Sepia did not unpack this zip: ${why}. A zip that big is not a review bundle; if it really is one, unpack it yourself and open the folder.`)
    this.name = 'ZipLimitError'
  }
}

function mb(bytes: number): string {
  return `${Math.round(bytes / 1048576)} MB`
}

/** `destDir` joined with a POSIX bundle path. */
export function bundlePath(destDir: string, posixPath: string): string {
  return join(destDir, ...posixPath.split('/'))
}
