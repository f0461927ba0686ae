/**
 * "Collect for review" (issue "Review bundles"): copy the agent stores of one or more homes into a
 * new folder or zip with a manifest, for someone else to open with Sepia on any OS.
 *
 * Safety: sources are only read. The output is built under a temporary name next to the target
 * and renamed into place at the end, so a failure or a cancel leaves nothing at the target (and
 * never replaces anything there: an existing target is refused). A SQLite database is copied with
 * its `-wal`/`-shm`/`-journal` files as one snapshot, re-copied when any of them changed meanwhile.
 * Inside a write job (`util/write-journal.ts`) the temporary names are recorded first, so a kill
 * leaves nothing at the target after the next start.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { link, mkdir, open, readdir, rename, rm, rmdir, stat, unlink, utimes, writeFile } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { SepiaError } from '../../shared/api'
import type { CollectResult } from '../../shared/export'
import type { AgentId, HomeOs } from '../../shared/ir'
import type { AgentDefinition, ReadContext } from '../agents/types'
import type { HomeLayout } from '../platform'
import { BUNDLE_FORMAT, MANIFEST_NAME, type BundleManifest, type ManifestFile } from './manifest'
import { planHome, type PlannedFile } from './plan'
import { storeRoots } from './rules'
import { noteWrite, pausePoint } from '../util/write-journal'
import { bundlePath, ZIP_MAX_BYTES, ZIP_MAX_ENTRIES, ZipWriter } from './zip'

/** Options for {@link collectForReview}. */
export interface CollectOptions {
  /** Layouts of the homes to collect (the own home's with its env; copied homes detected). */
  layouts: HomeLayout[]
  target: 'folder' | 'zip'
  /** Absolute output path: a new folder (or an empty one), or a new zip file. */
  outPath: string
  includeCredentials?: boolean
  agents: readonly AgentDefinition[]
  ctx: ReadContext
  /** e.g. `Sepia 0.1.0`. */
  createdBy: string
  /** Files done, files in total, phase (`scan`, `copy`, `zip`), bytes copied. */
  onProgress?: (done: number, total: number, phase: string, bytes: number) => void
  signal?: AbortSignal
  /** Test hook: runs after each file is copied (throw to inject a fault). */
  afterFile?: (done: number) => void
}

/**
 * Collect the homes. Rejects with SepiaError `ALREADY_EXISTS` (target exists and is not an empty
 * folder), `BAD_ARGUMENT` (target inside a store being collected; zip too big), `CANCELLED`,
 * `WRITE_FAILED` (the target folder cannot be written; nothing left behind).
 */
export async function collectForReview(o: CollectOptions): Promise<CollectResult> {
  const outPath = resolve(o.outPath)
  await checkTarget(outPath, o.target)
  const check = () => {
    if (o.signal?.aborted) throw new SepiaError({ code: 'CANCELLED', message: 'Collecting was cancelled; nothing was written.' })
  }
  for (const layout of o.layouts) {
    for (const root of storeRoots(layout)) {
      const r = relative(resolve(root.dir), outPath)
      if (r === '' || (!r.startsWith('..') && !r.startsWith('/'))) {
        throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The bundle cannot be written inside ${root.dir}, a store it collects. Choose a folder outside the agents' data.`, path: outPath })
      }
    }
  }

  o.onProgress?.(0, 0, 'scan', 0)
  const warnings: string[] = []
  const planned: PlannedFile[] = []
  const seen = new Set<string>()
  let credentialsLeftOut = 0
  for (const layout of o.layouts) {
    const plan = await planHome(layout, { includeCredentials: o.includeCredentials === true, agents: o.agents, ctx: o.ctx, check })
    warnings.push(...plan.warnings)
    credentialsLeftOut += plan.credentialsLeftOut
    for (const f of plan.files) {
      if (seen.has(f.dest.toLowerCase())) {
        warnings.push(`${f.dest} exists in more than one home; the copy from the first home was kept.`)
        continue
      }
      seen.add(f.dest.toLowerCase())
      planned.push(f)
    }
  }
  const sourceOs: HomeOs = o.layouts[0]?.os ?? 'linux'
  if (o.layouts.some((l) => l.os !== sourceOs)) warnings.push('The homes follow different OS layouts; the bundle is marked with the first one.')
  const total = planned.reduce((n, f) => n + 1 + (f.sidecars?.length ?? 0), 0)
  const totalBytes = planned.reduce((n, f) => n + f.size + (f.sidecars ?? []).reduce((m, s) => m + s.size, 0), 0)
  if (o.target === 'zip' && (total > ZIP_MAX_ENTRIES || totalBytes > ZIP_MAX_BYTES)) {
    throw new SepiaError({ code: 'BAD_ARGUMENT', message: `These homes hold ${total} files (${Math.round(totalBytes / 1e6)} MB), more than a zip bundle can hold (${ZIP_MAX_ENTRIES} files, 4 GB). Collect them into a folder instead.` })
  }

  const temp = join(dirname(outPath), `.${basename(outPath)}.${randomBytes(4).toString('hex')}.partial`)
  const manifestFiles: ManifestFile[] = []
  let done = 0
  let bytes = 0
  const record = (f: PlannedFile, r: { size: number; sha256: string; mtimeMs: number }) => {
    const entry: ManifestFile = { agent: f.agent, path: f.dest, size: r.size, sha256: r.sha256, mtime: Math.round(r.mtimeMs) }
    if (f.credential) entry.credential = true
    manifestFiles.push(entry)
    bytes += r.size
    done++
    o.onProgress?.(done, total, o.target === 'zip' ? 'zip' : 'copy', bytes)
    pausePoint('partial')
    o.afterFile?.(done)
  }

  let zip: ZipWriter | undefined
  const staging = o.target === 'folder' ? temp : `${temp}.d`
  try {
    noteWrite({ type: 'temp', path: staging })
    if (staging !== temp) noteWrite({ type: 'temp', path: temp })
    await mkdir(staging, { recursive: true })
    if (o.target === 'zip') zip = await ZipWriter.create(temp)
    for (const f of planned) {
      check()
      if (f.sidecars?.length || o.target === 'folder') {
        // Databases (always) and every file of a folder bundle: copied into the staging folder.
        const copies = await snapshot([f, ...(f.sidecars ?? [])], staging, check, warnings)
        for (const [i, member] of [f, ...(f.sidecars ?? [])].entries()) {
          const c = copies[i]!
          if (zip) {
            const r = await zip.addFile(member.dest, bundlePath(staging, member.dest), c.mtimeMs, check)
            record(member, { ...r, mtimeMs: c.mtimeMs })
          } else record(member, c)
        }
      } else if (zip) {
        const st = await stat(f.abs)
        const r = await zip.addFile(f.dest, f.abs, st.mtimeMs, check)
        record(f, { ...r, mtimeMs: st.mtimeMs })
      }
    }
    manifestFiles.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    const manifest: BundleManifest = {
      format: BUNDLE_FORMAT,
      version: 1,
      createdAt: o.ctx.now(),
      createdBy: o.createdBy,
      sourceOs,
      sourceHomes: o.layouts.map((l) => l.home),
      includeCredentials: o.includeCredentials === true,
      files: manifestFiles,
    }
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n', 'utf8')
    if (zip) {
      await zip.addBytes(MANIFEST_NAME, manifestBytes, manifest.createdAt)
      await zip.finish()
      zip = undefined
      await placeFile(temp, outPath)
      await rm(staging, { recursive: true, force: true })
    } else {
      await writeFile(join(staging, MANIFEST_NAME), manifestBytes)
      await placeFolder(staging, outPath)
    }
  } catch (e) {
    if (zip) await zip.abort()
    await rm(staging, { recursive: true, force: true }).catch(() => undefined)
    await rm(temp, { force: true, recursive: true }).catch(() => undefined)
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the bundle at ${outPath}: ${(e as Error).message}. Nothing was left there.`, path: outPath })
  }
  const byAgent: Partial<Record<AgentId, number>> = {}
  for (const f of manifestFiles) byAgent[f.agent] = (byAgent[f.agent] ?? 0) + 1
  return {
    path: outPath,
    files: manifestFiles.length,
    bytes,
    manifestPath: o.target === 'zip' ? MANIFEST_NAME : join(outPath, MANIFEST_NAME),
    byAgent,
    credentialsLeftOut: o.includeCredentials ? 0 : credentialsLeftOut,
    warnings,
  }
}

/** Refuse a target that exists (an empty folder is fine for a folder bundle). */
async function checkTarget(outPath: string, target: 'folder' | 'zip'): Promise<void> {
  let st
  try {
    st = await stat(outPath)
  } catch {
    try {
      await mkdir(dirname(outPath), { recursive: true })
    } catch (e) {
      throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not create the folder ${dirname(outPath)}: ${(e as Error).message}.`, path: outPath })
    }
    return
  }
  if (target === 'folder' && st.isDirectory() && (await readdir(outPath)).length === 0) return
  throw new SepiaError({ code: 'ALREADY_EXISTS', message: `${outPath} already exists. Choose a new ${target === 'zip' ? 'file name' : 'folder name'}; Sepia does not replace it.`, path: outPath })
}

/**
 * Copy files as one consistent snapshot into `staging` (at their bundle paths), hashing as they
 * are copied: when any source changed size or time during the copy, copy them all again (three
 * tries, then keep the last copy with a warning).
 */
async function snapshot(members: PlannedFile[], staging: string, check: () => void, warnings: string[]): Promise<{ size: number; sha256: string; mtimeMs: number }[]> {
  for (let attempt = 1; ; attempt++) {
    const before = await Promise.all(members.map((m) => stat(m.abs)))
    const copies = []
    for (const [i, m] of members.entries()) copies.push({ ...(await copyHashed(m.abs, bundlePath(staging, m.dest), check)), mtimeMs: before[i]!.mtimeMs })
    const after = await Promise.all(members.map((m) => stat(m.abs).catch(() => undefined)))
    const stable = after.every((a, i) => a && a.size === before[i]!.size && a.mtimeMs === before[i]!.mtimeMs)
    if (stable || attempt === 3) {
      if (!stable) warnings.push(`${members[0]!.abs} kept changing while it was copied (the agent may be running); the bundle holds the last copy taken.`)
      for (const [i, m] of members.entries()) await utimes(bundlePath(staging, m.dest), new Date(), new Date(copies[i]!.mtimeMs)).catch(() => undefined)
      return copies
    }
  }
}

async function copyHashed(src: string, dest: string, check: () => void): Promise<{ size: number; sha256: string }> {
  await mkdir(dirname(dest), { recursive: true })
  const out = await open(dest, 'w')
  const hash = createHash('sha256')
  let size = 0
  try {
    for await (const chunk of createReadStream(src, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      check()
      hash.update(chunk)
      size += chunk.length
      await out.write(chunk)
    }
  } finally {
    await out.close()
  }
  return { size, sha256: hash.digest('hex') }
}

/** Move the finished zip to its name without replacing anything. */
async function placeFile(temp: string, outPath: string): Promise<void> {
  try {
    await link(temp, outPath)
    await unlink(temp)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new SepiaError({ code: 'ALREADY_EXISTS', message: `${outPath} appeared while the bundle was written; it was not replaced.`, path: outPath })
    await rename(temp, outPath)
  }
}

/** Move the finished folder to its name (an empty folder there is replaced, nothing else). */
async function placeFolder(staging: string, outPath: string): Promise<void> {
  try {
    await rmdir(outPath) // only succeeds for an empty folder
  } catch {
    // absent
  }
  await rename(staging, outPath)
}
