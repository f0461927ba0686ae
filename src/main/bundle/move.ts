/**
 * Move bundles (issue 19 "Move to another machine or folder"): one session with everything its
 * agent keeps for it — the transcript, its sub-agents, its checkpoints and (Claude Code) its file
 * history — plus a manifest ({@link MoveInfo}: agent, session id, original project path, path
 * style, index rows), as a zip the other computer installs (`src/main/move/install.ts`).
 *
 * Unlike a review bundle (`collect.ts`), a move bundle keeps the session exactly as stored,
 * secrets included: it is the user's own data going to their own machine. The UI and the CLI say
 * so before it is written. Files sit at home-relative paths (`.claude/projects/<folder>/<id>.jsonl`,
 * `.codex/sessions/...`), so Sepia can also open a move bundle as a home to look at it.
 *
 * What belongs to a session (the readers' discovery documents the places):
 * - Claude Code (`claude-code/discover.ts`): `<config>/projects/<folder>/<id>.jsonl`, the folder
 *   `<config>/projects/<folder>/<id>/` (sub-agents `subagents/agent-*.jsonl` + `.meta.json`, tool
 *   results), and `<config>/file-history/<id>/` (the checkpoints' file backups, which the
 *   transcript's `file-history-snapshot` records name);
 * - Cline CLI 3 (SDK store, `cline/discover-sdk.ts`): the folder `<data>/sessions/<id>/` (manifest,
 *   messages, sub-agents' messages) and its `sessions` rows in `<data>/db/sessions.db` (the
 *   session's and its sub-agents'); the checkpoints are refs in the project's own repository
 *   (`refs/cline/checkpoints/...`), which move with the project, not with the session;
 * - Codex (`codex/discover.ts`, `codex/state.ts`): the thread's rollout and its sub-agent threads'
 *   rollouts (`thread_spawn_edges`, `threads.source`), and their `threads` / `thread_spawn_edges`
 *   rows from `state_<n>.sqlite`. Codex keeps no checkpoints of its own.
 * Sources are only read.
 */
import { existsSync } from 'node:fs'
import { link, mkdir, readdir, readFile, rm, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join, relative, sep } from 'node:path'
import { SepiaError } from '../../shared/api'
import type { AgentId } from '../../shared/ir'
import type { AgentDefinition, ReadContext, StoreRef } from '../agents/types'
import { SDK_FORMAT } from '../agents/cline/discover-sdk'
import { codexHomeOf } from '../agents/codex/discover'
import type { HomeLayout } from '../platform'
import { openSqliteReadOnly } from '../util/sqlite'
import { pathStyleOf } from '../move/paths'
import { hashBytes, MANIFEST_NAME, MOVE_BUNDLE_FORMAT, readManifest, type BundleManifest, type ManifestFile, type MoveInfo } from './manifest'
import { bundlePath, extractZip, ZipWriter } from './zip'
import { stateDbPath } from '../agents/codex/state'

/** The agents a move bundle can carry (issue 19: "Start with Claude Code and Codex"; Cline CLI 3's SDK store too). */
export const MOVABLE_AGENTS: readonly AgentId[] = ['claude-code', 'codex', 'cline']

/** One file of a move bundle, in memory. */
export interface MoveFile {
  /** Home-relative path with `/` separators (`.claude/...`, `.codex/...`). */
  path: string
  bytes: Buffer
  /** The source file's modification time, ms since epoch. */
  mtime: number
  /** Where it was read from (absent for a bundle read from a zip). */
  source?: string
}

/** A move bundle in memory: its manifest (with `move`) and its files. */
export interface MoveBundle {
  manifest: BundleManifest & { move: MoveInfo }
  files: MoveFile[]
  /** Messages read from the source session (the install's read-back compares with it). */
  nodeCount: number
}

/** Options of {@link gatherMoveBundle}. */
export interface GatherOptions {
  layout: HomeLayout
  agent: AgentDefinition
  sessionId: string
  ctx: ReadContext
  /** e.g. `Sepia 0.1.0`. */
  createdBy: string
}

/**
 * Gather one session of `layout` into a move bundle. Rejects `CANNOT_WRITE` for an agent Sepia
 * cannot move yet, `SESSION_NOT_FOUND` when the session is not in the home, `READ_FAILED` when a
 * file cannot be read.
 */
export async function gatherMoveBundle(o: GatherOptions): Promise<MoveBundle> {
  if (!MOVABLE_AGENTS.includes(o.agent.id)) {
    throw new SepiaError({ code: 'CANNOT_WRITE', message: `Sepia cannot move ${o.agent.displayName} sessions yet (it moves ${MOVABLE_AGENTS.join(', ')}).` })
  }
  const { refs } = await o.agent.discover(o.layout, o.ctx)
  const ref = refs.find((r) => r.sessionId === o.sessionId && !r.parentSessionId)
  if (!ref) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `No ${o.agent.displayName} session ${o.sessionId} is in ${o.layout.home}.` })
  const session = await o.agent.read(ref, o.ctx)
  const projectPath = session.workingDirectory
  if (!projectPath) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `Session ${o.sessionId} records no project folder, so there is nothing to remap; open it and convert or export it instead.` })
  const files: MoveFile[] = []
  let subagentIds: string[]
  let storeRoot: string
  let indexRows: MoveInfo['indexRows']
  if (o.agent.id === 'claude-code') {
    storeRoot = o.layout.claudeConfigDir
    const transcript = ref.files[0]!
    const add = (abs: string) => addFile(files, abs, '.claude', storeRoot)
    await add(transcript)
    for (const f of await listTree(join(dirname(transcript), o.sessionId))) await add(f)
    for (const f of await listTree(join(storeRoot, 'file-history', o.sessionId))) await add(f)
    subagentIds = refs.filter((r) => r.parentSessionId === o.sessionId).map((r) => r.sessionId)
  } else if (o.agent.id === 'cline') {
    if (ref.format !== SDK_FORMAT) throw new SepiaError({ code: 'CANNOT_WRITE', message: 'Sepia moves Cline CLI 3 sessions (the SDK store); tasks of the older layout cannot be moved yet.' })
    storeRoot = o.layout.clineDataDir
    for (const f of await listTree(join(storeRoot, 'sessions', o.sessionId))) await addFile(files, f, '.cline/data', storeRoot)
    subagentIds = refs.filter((r) => r.parentSessionId === o.sessionId).map((r) => r.sessionId)
    indexRows = clineIndexRows(storeRoot, o.sessionId)
  } else {
    storeRoot = codexHomeOf(o.layout)
    const threads = codexThreadTree(refs, o.sessionId)
    subagentIds = threads.slice(1).map((r) => r.sessionId)
    for (const r of threads) await addFile(files, r.files[0]!, '.codex', storeRoot)
    indexRows = await codexIndexRows(storeRoot, threads.map((r) => r.sessionId))
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  const move: MoveInfo = { agent: o.agent.id, sessionId: o.sessionId, subagentIds, projectPath, pathStyle: pathStyleOf(projectPath), storeRoot, secretsIncluded: true, nodeCount: session.nodes.length }
  if (indexRows) move.indexRows = indexRows
  const manifest: BundleManifest & { move: MoveInfo } = {
    format: MOVE_BUNDLE_FORMAT,
    version: 1,
    createdAt: o.ctx.now(),
    createdBy: o.createdBy,
    sourceOs: o.layout.os,
    sourceHomes: [o.layout.home],
    includeCredentials: false,
    files: files.map((f): ManifestFile => ({ agent: o.agent.id, path: f.path, size: f.bytes.length, sha256: hashBytes(f.bytes), mtime: f.mtime })),
    move,
  }
  return { manifest, files, nodeCount: session.nodes.length }
}

/** The thread `id` and its sub-agent threads (children of children too), parent first. */
function codexThreadTree(refs: StoreRef[], id: string): StoreRef[] {
  const root = refs.find((r) => r.sessionId === id)!
  const out = [root]
  for (let i = 0; i < out.length; i++) {
    for (const r of refs) if (r.parentSessionId === out[i]!.sessionId && !out.includes(r)) out.push(r)
  }
  return out
}

/** The newest `state_<n>.sqlite` of a Codex home: the one the reader uses (codex/state.ts). */
export const codexStateDb = stateDbPath

/** `threads` and `thread_spawn_edges` rows of `ids` (undefined when the home has no thread database). */
async function codexIndexRows(codexHome: string, ids: string[]): Promise<MoveInfo['indexRows']> {
  const path = await codexStateDb(codexHome)
  if (!path) return undefined
  const db = openSqliteReadOnly(path)
  try {
    const tables = new Set((db.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name))
    const marks = ids.map(() => '?').join(', ')
    const out: Record<string, Record<string, unknown>[]> = {}
    if (tables.has('threads')) out.threads = db.db.prepare(`SELECT * FROM threads WHERE id IN (${marks})`).all(...ids) as Record<string, unknown>[]
    if (tables.has('thread_spawn_edges')) out.thread_spawn_edges = db.db.prepare(`SELECT * FROM thread_spawn_edges WHERE child_thread_id IN (${marks})`).all(...ids) as Record<string, unknown>[]
    return out
  } finally {
    db.close()
  }
}

/** `sessions` rows of `db/sessions.db` for the session and its sub-agents (`parent_session_id`). */
function clineIndexRows(clineDataDir: string, id: string): MoveInfo['indexRows'] {
  const path = join(clineDataDir, 'db', 'sessions.db')
  if (!existsSync(path)) return undefined
  const db = openSqliteReadOnly(path)
  try {
    return { sessions: db.db.prepare('SELECT * FROM sessions WHERE session_id = ? OR parent_session_id = ?').all(id, id) as Record<string, unknown>[] }
  } finally {
    db.close()
  }
}

/** Every file under `dir` (recursively, name order); none when it does not exist. */
async function listTree(dir: string): Promise<string[]> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return []
  }
  const out: string[] = []
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...(await listTree(p)))
    else if (e.isFile()) out.push(p)
  }
  return out
}

async function addFile(files: MoveFile[], abs: string, prefix: string, root: string): Promise<void> {
  const rel = relative(root, abs)
  if (rel.startsWith('..')) throw new SepiaError({ code: 'READ_FAILED', message: `${abs} is outside ${root}; it was not bundled.`, path: abs })
  try {
    const [bytes, st] = await Promise.all([readFile(abs), stat(abs)])
    files.push({ path: `${prefix}/${rel.split(sep).join('/')}`, bytes, mtime: Math.round(st.mtimeMs), source: abs })
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `Could not read ${abs}: ${(e as Error).message}.`, path: abs })
  }
}

/**
 * Write a move bundle as a zip at `outPath` (a new file: an existing one is refused with
 * `ALREADY_EXISTS`). Written under a temporary name and renamed at the end.
 */
export async function writeMoveBundle(bundle: MoveBundle, outPath: string): Promise<{ path: string; files: number; bytes: number }> {
  const exists = await stat(outPath).then(() => true, () => false)
  if (exists) throw new SepiaError({ code: 'ALREADY_EXISTS', message: `${outPath} already exists. Choose a new file name; Sepia does not replace it.`, path: outPath })
  await mkdir(dirname(outPath), { recursive: true })
  const temp = join(dirname(outPath), `.${basename(outPath)}.${process.pid}-${Date.now()}.partial`)
  const zip = await ZipWriter.create(temp)
  try {
    for (const f of bundle.files) await zip.addBytes(f.path, f.bytes, f.mtime)
    await zip.addBytes(MANIFEST_NAME, Buffer.from(JSON.stringify(bundle.manifest, null, 2) + '\n', 'utf8'), bundle.manifest.createdAt)
    await zip.finish()
    await link(temp, outPath)
    await unlink(temp)
  } catch (e) {
    await zip.abort().catch(() => undefined)
    await rm(temp, { force: true }).catch(() => undefined)
    if (e instanceof SepiaError) throw e
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new SepiaError({ code: 'ALREADY_EXISTS', message: `${outPath} appeared while the bundle was written; it was not replaced.`, path: outPath })
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the bundle at ${outPath}: ${(e as Error).message}. Nothing was left there.`, path: outPath })
  }
  return { path: outPath, files: bundle.files.length, bytes: bundle.files.reduce((n, f) => n + f.bytes.length, 0) }
}

/**
 * Read a move bundle zip (extracted into `workDir`, which must be new or empty), every file
 * checked against the manifest's size and sha256. Rejects `BAD_ARGUMENT` when it is not a move
 * bundle, `READ_FAILED` for a damaged zip or a file that does not match its manifest.
 */
export async function readMoveBundle(zipPath: string, workDir: string): Promise<MoveBundle> {
  try {
    await extractZip(zipPath, workDir)
  } catch (e) {
    throw new SepiaError({ code: 'READ_FAILED', message: `${zipPath} could not be opened as a zip (${(e as Error).message}).`, path: zipPath })
  }
  const manifest = await readManifest(join(workDir, MANIFEST_NAME))
  if (typeof manifest !== 'object' || manifest.format !== MOVE_BUNDLE_FORMAT || !manifest.move) {
    throw new SepiaError({ code: 'BAD_ARGUMENT', message: `${zipPath} is not a Sepia session bundle (${typeof manifest === 'string' ? manifest : manifest ? 'it is a review bundle: open it instead' : 'it has no manifest'}).`, path: zipPath })
  }
  const files: MoveFile[] = []
  for (const f of manifest.files) {
    let bytes: Buffer
    try {
      bytes = await readFile(bundlePath(workDir, f.path))
    } catch {
      throw new SepiaError({ code: 'READ_FAILED', message: `${zipPath} lacks ${f.path}, which its manifest lists; ask for the bundle again.`, path: zipPath })
    }
    if (bytes.length !== f.size || hashBytes(bytes) !== f.sha256) throw new SepiaError({ code: 'READ_FAILED', message: `${f.path} in ${zipPath} differs from the manifest (damaged or changed); nothing was installed.`, path: zipPath })
    files.push({ path: f.path, bytes, mtime: f.mtime })
  }
  const move = manifest.move
  return { manifest: manifest as BundleManifest & { move: MoveInfo }, files, nodeCount: move.nodeCount ?? 0 }
}
