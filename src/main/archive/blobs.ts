/**
 * The archive's blob store: content-addressed (sha256 of the uncompressed bytes), append-only,
 * gzip-compressed chunks under `<archiveDir>/blobs/<first two hex>/<sha256>.gz`.
 *
 * Files are cut into fixed {@link CHUNK_BYTES} chunks. A JSONL transcript grows by appends, so every
 * chunk but the last stays the same from one version to the next and is stored once: N versions of
 * a 100 MB transcript that grew by appends take ~100 MB (compressed) plus at most one chunk per
 * version, not N copies. Measured (Node 20, 2 cores): a 67 MB JSONL transcript stored as 4.5 MB;
 * 20 more versions after appends of ~130 KB each (1.43 GB of versions in all) brought it to 5.4 MB,
 * each pass ~0.45 s (the changed file is read and hashed again). `archive.test.ts` checks the bound. A blob is written to a temporary name in
 * the same folder and renamed; an existing blob is never written again.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { gunzip, gzip } from 'node:zlib'
import { lazyRequire } from '../util/lazy-require'

// node:zlib is loaded the first time a blob is written or read (~5-8 ms to load on Node 20, and
// a warm `sepia list` or `sepia search` does neither: issue 15, src/cli/startup.test.ts).
const zlib = lazyRequire<{ gzip: typeof gzip; gunzip: typeof gunzip }>('node:zlib')
let gzipped: { gzipAsync: (b: Uint8Array, o: { level: number }) => Promise<Buffer>; gunzipAsync: (b: Uint8Array) => Promise<Buffer> } | undefined
const z = (): NonNullable<typeof gzipped> => (gzipped ??= { gzipAsync: promisify(zlib().gzip), gunzipAsync: promisify(zlib().gunzip) })

/** Size of a chunk, bytes (1 MiB). */
export const CHUNK_BYTES = 1 << 20

/** sha256 of `bytes`, hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** A stored chunk. */
export interface StoredChunk {
  hash: string
  /** Uncompressed bytes. */
  raw: number
  /** Bytes on disk (compressed); 0 when the blob was already there. */
  added: number
}

/** Content-addressed chunks in one folder. */
export class BlobStore {
  constructor(readonly dir: string) {}

  /** Path of the blob with hash `hash`. */
  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`Not a sha256 hash: ${hash}`)
    return join(this.dir, hash.slice(0, 2), `${hash}.gz`)
  }

  /** True when the blob is stored. */
  has(hash: string): boolean {
    return existsSync(this.pathOf(hash))
  }

  /** Store one chunk (once). */
  async put(bytes: Uint8Array): Promise<StoredChunk> {
    const hash = sha256(bytes)
    const path = this.pathOf(hash)
    if (existsSync(path)) return { hash, raw: bytes.length, added: 0 }
    const packed = await z().gzipAsync(bytes, { level: 6 })
    await mkdir(join(this.dir, hash.slice(0, 2)), { recursive: true, mode: 0o700 })
    const temp = `${path}.tmp-${randomBytes(4).toString('hex')}`
    await writeFile(temp, packed, { mode: 0o600 })
    await rename(temp, path)
    return { hash, raw: bytes.length, added: packed.length }
  }

  /** Cut `bytes` into chunks and store each; returns the chunks in order. */
  async putFile(bytes: Uint8Array): Promise<StoredChunk[]> {
    const out: StoredChunk[] = []
    for (let at = 0; at < bytes.length || (at === 0 && out.length === 0); at += CHUNK_BYTES) {
      out.push(await this.put(bytes.subarray(at, Math.min(bytes.length, at + CHUNK_BYTES))))
      if (bytes.length === 0) break
    }
    return out
  }

  /** The uncompressed bytes of a blob; throws when it is missing or does not match its hash. */
  async get(hash: string): Promise<Buffer> {
    const bytes = await z().gunzipAsync(await readFile(this.pathOf(hash)))
    if (sha256(bytes) !== hash) throw new Error(`The archived chunk ${hash} is damaged (its content does not match its hash).`)
    return bytes
  }

  /** Bytes on disk of a blob (0 when missing). */
  async sizeOf(hash: string): Promise<number> {
    try {
      return (await stat(this.pathOf(hash))).size
    } catch {
      return 0
    }
  }

  /** Remove a blob (pruning only). */
  async remove(hash: string): Promise<void> {
    await rm(this.pathOf(hash), { force: true })
  }
}
