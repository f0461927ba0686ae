/**
 * What `openHome(path)` opens (issue "Review bundles": "Another Sepia opens the folder or zip as a
 * home, on any OS"; "Drag and drop a folder, a zip or a single store file onto the window opens
 * it"): a home folder, a review bundle folder (its manifest checked), a zip (extracted under the
 * app's data folder, then checked), or one store file (placed in a temporary home).
 *
 * Extracted zips and single-file homes live in `<app data>/opened/<name>-<key>/home`; a zip
 * opened again unchanged (same path, size and time) is not extracted again. Only the newest
 * {@link KEEP_OPENED} are kept.
 */
import { createHash } from 'node:crypto'
import { mkdir, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { SepiaError } from '../../shared/api'
import type { OpenedFrom } from '../../shared/export'
import type { Diagnostic, HomeOs } from '../../shared/ir'
import { MANIFEST_NAME, readManifest, verifyBundle, type MoveInfo } from './manifest'
import { placeStoreFile, recogniseStoreFile } from './single'
import { extractZip, ZipLimitError } from './zip'

/** Extracted bundles and single-file homes kept in the app data folder. */
export const KEEP_OPENED = 5

/** A path made ready to be read as a home. */
export interface PreparedHome {
  /** The folder to read as a home. */
  home: string
  /**
   * The OS layout a bundle's manifest records. The home is still read with the layout detected
   * from its content (`detectHomeOs`), which the bundle keeps (a Windows profile keeps `AppData`).
   */
  os?: HomeOs
  /** Absent for a plain folder. */
  openedFrom?: OpenedFrom
  /** What the user opened: `folder`, `zip` or `file` (for the recent list). */
  kind: 'folder' | 'zip' | 'file'
  /** Manifest mismatches, skipped zip entries... */
  diagnostics: Diagnostic[]
}

/**
 * Prepare `path` (absolute) to be opened. Rejects `NOT_FOUND` when it does not exist,
 * `NOT_A_DIRECTORY` for a file that is neither a zip nor a store file Sepia recognises,
 * `READ_FAILED` for a damaged zip.
 */
export async function prepareHome(path: string, appDataDir: string): Promise<PreparedHome> {
  let st
  try {
    st = await stat(path)
  } catch {
    throw new SepiaError({ code: 'NOT_FOUND', message: `${path} does not exist. Check the path and try again.`, path })
  }
  if (st.isDirectory()) return prepareFolder(path)
  const key = createHash('sha256').update(`${path}\0${st.size}\0${st.mtimeMs}`).digest('hex').slice(0, 12)
  const workDir = join(appDataDir, 'opened', `${safeName(basename(path))}-${key}`)
  if (await isZip(path)) return prepareZip(path, workDir, appDataDir)
  const placement = await recogniseStoreFile(path).catch(() => undefined)
  if (!placement) {
    throw new SepiaError({
      code: 'NOT_A_DIRECTORY',
      message: `${path} is a file Sepia cannot open: it is not a folder, a zip, or an agent's session file it recognises. Choose the folder that contains it.`,
      path,
    })
  }
  const home = join(workDir, 'home')
  await rm(workDir, { recursive: true, force: true })
  await mkdir(home, { recursive: true })
  await placeStoreFile(path, placement, home)
  await prune(appDataDir, workDir)
  return { home, kind: 'file', openedFrom: { path, kind: 'file' }, diagnostics: [] }
}

async function prepareFolder(path: string): Promise<PreparedHome> {
  const manifest = await readManifest(join(path, MANIFEST_NAME))
  if (manifest === undefined) return { home: path, kind: 'folder', diagnostics: [] }
  if (typeof manifest === 'string') {
    return { home: path, kind: 'folder', diagnostics: [{ severity: 'info', path: join(path, MANIFEST_NAME), message: `The bundle manifest could not be used (${manifest}); the folder is read as it is.` }] }
  }
  const diagnostics = await verifyBundle(path, manifest)
  const openedFrom: OpenedFrom = { path, kind: 'bundle-folder', createdAt: manifest.createdAt, sourceOs: manifest.sourceOs }
  if (manifest.move) openedFrom.sessionBundle = sessionBundleOf(manifest.move)
  return { home: path, os: manifest.sourceOs, kind: 'folder', openedFrom, diagnostics }
}

interface ZipState {
  home: string
  os?: HomeOs
  createdAt?: number
  /** A session bundle's session (issue 19). */
  sessionBundle?: OpenedFrom['sessionBundle']
  diagnostics: Diagnostic[]
}

async function prepareZip(zipPath: string, workDir: string, appDataDir: string): Promise<PreparedHome> {
  const stateFile = join(workDir, 'state.json')
  let state: ZipState | undefined
  try {
    state = JSON.parse(await readFile(stateFile, 'utf8')) as ZipState
  } catch {
    state = undefined
  }
  if (!state) {
    const extracted = join(workDir, 'home')
    await rm(workDir, { recursive: true, force: true })
    await mkdir(extracted, { recursive: true })
    let result
    try {
      result = await extractZip(zipPath, extracted)
    } catch (e) {
      await rm(workDir, { recursive: true, force: true })
      if (e instanceof ZipLimitError) throw new SepiaError({ code: 'READ_FAILED', message: `${zipPath}: ${e.message}`, path: zipPath })
      throw new SepiaError({ code: 'READ_FAILED', message: `${zipPath} could not be opened as a zip (${(e as Error).message}). It may be damaged or cut short; ask for it again.`, path: zipPath })
    }
    const diagnostics: Diagnostic[] = result.skipped.map((s) => ({ severity: 'warning', path: zipPath, message: `Zip entry "${s.name}" was not extracted: ${s.reason}.` }))
    const home = await bundleRoot(extracted)
    const manifest = await readManifest(join(home, MANIFEST_NAME))
    state = { home, diagnostics }
    if (typeof manifest === 'object') {
      diagnostics.push(...(await verifyBundle(home, manifest, { restoreMtimes: true })))
      state.os = manifest.sourceOs
      state.createdAt = manifest.createdAt
      if (manifest.move) state.sessionBundle = sessionBundleOf(manifest.move)
    } else {
      diagnostics.push({ severity: 'info', path: zipPath, message: manifest ? `The bundle manifest could not be used (${manifest}); files were not checked.` : 'This zip has no Sepia manifest; its files were not checked.' })
    }
    for (const d of diagnostics) if (d.path.startsWith(home)) d.path = `${zipPath}:${d.path.slice(home.length + 1).split('\\').join('/')}`
    await writeFile(stateFile, JSON.stringify(state))
    await prune(appDataDir, workDir)
  }
  const openedFrom: OpenedFrom = { path: zipPath, kind: 'zip' }
  if (state.createdAt !== undefined) openedFrom.createdAt = state.createdAt
  if (state.os) openedFrom.sourceOs = state.os
  if (state.sessionBundle) openedFrom.sessionBundle = state.sessionBundle
  const out: PreparedHome = { home: state.home, kind: 'zip', openedFrom, diagnostics: state.diagnostics }
  if (state.os) out.os = state.os
  return out
}

/** What the library tells about a session bundle it opened. */
function sessionBundleOf(m: MoveInfo): NonNullable<OpenedFrom['sessionBundle']> {
  return { agent: m.agent, sessionId: m.sessionId, projectPath: m.projectPath }
}

/**
 * The home inside an extracted zip: the zip's root, or its one top folder when the zip was made
 * from a folder (a manifest or an agent folder inside it and nothing else at the root).
 */
async function bundleRoot(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true })
  if (entries.some((e) => e.name === MANIFEST_NAME) || entries.length !== 1 || !entries[0]!.isDirectory()) return dir
  return join(dir, entries[0]!.name)
}

async function isZip(path: string): Promise<boolean> {
  const fh = await open(path, 'r')
  try {
    const b = Buffer.alloc(4)
    const { bytesRead } = await fh.read(b, 0, 4, 0)
    return bytesRead === 4 && b[0] === 0x50 && b[1] === 0x4b && (b[2] === 3 || b[2] === 5) && (b[3] === 4 || b[3] === 6)
  } finally {
    await fh.close()
  }
}

/** Keep the newest {@link KEEP_OPENED} work folders (and always `current`). */
async function prune(appDataDir: string, current: string): Promise<void> {
  const root = join(appDataDir, 'opened')
  try {
    const dirs = await Promise.all((await readdir(root)).map(async (n) => ({ path: join(root, n), t: (await stat(join(root, n))).mtimeMs })))
    dirs.sort((a, b) => b.t - a.t)
    for (const d of dirs.slice(KEEP_OPENED)) if (d.path !== current) await rm(d.path, { recursive: true, force: true })
  } catch {
    // nothing to prune
  }
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 40) || 'opened'
}
