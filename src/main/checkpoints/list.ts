/**
 * The checkpoints of one session, opened: for each, the files it covers (state at the
 * checkpoint, readable on demand) and the refused paths; for the session, the project folder
 * and where a restore goes when the user picks no folder.
 *
 * Sources: Claude Code file history (`claude.ts`), Cline SDK `stash`/`commit` refs in the
 * workspace's own repository and Cline legacy shadow repositories (`gitsource.ts`), Codex ghost
 * snapshot commits (a commit on top of HEAD holding the working tree, like `commit`).
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import type { Checkpoint, MessageNode, Session } from '../../shared/ir'
import { claudeDirOf, claudeFilesAt, readFileHistory } from './claude'
import { GitRepo } from './git'
import { coveredSets, gitFilesAt, openGitSnapshot, type GitSnapshot } from './gitsource'
import type { CheckpointFiles } from './types'
import { cutOutsideSecrets } from '../secrets/mask'

/** Kinds whose ref is a commit in the workspace's own repository. */
const WORKSPACE_GIT_KINDS = new Set(['stash', 'commit', 'ghost-snapshot'])

/** Where to look besides what the session recorded. */
export interface LocateOptions {
  /** The folder the user restores into; also searched for the checkpoint commits. */
  targetDir?: string
  /** A folder (or git directory) holding the repository with the checkpoint commits. */
  repoDir?: string
}

/** One checkpoint of a session, opened. */
export interface OpenedCheckpoint {
  /** Id within the session (the ref; `<ref>@<n>` when a ref repeats). */
  id: string
  ref: string
  kind: string
  createdAt?: number
  runCount?: number
  /** The message it belongs to (the prompt of the run it precedes). */
  nodeId?: string
  /** Plain words for lists, e.g. `Run 2: before "Continue: re-read NOTES.md."`. */
  label: string
  /** The files, or `undefined` when the payload is not reachable (see `problem`). */
  files?: CheckpointFiles
  /** Why the files cannot be read (plain words). */
  problem?: string
}

/** A session's checkpoints with the folders involved. */
export interface OpenedSession {
  /** The project folder the session recorded. */
  projectDir?: string
  /** True when that folder exists on this computer. */
  projectExists: boolean
  /** Where a restore writes when no folder is picked; absent when the user must pick one. */
  defaultTarget?: string
  /** Why a folder must be picked (plain words), when `defaultTarget` is absent. */
  targetNote?: string
  /** Where the checkpoint contents were read from (a git directory or a file-history folder). */
  store?: string
  checkpoints: OpenedCheckpoint[]
}

async function isDir(p: string | undefined): Promise<boolean> {
  if (!p) return false
  try {
    return (await stat(p)).isDirectory()
  } catch {
    return false
  }
}

/**
 * Open the checkpoints of `session`.
 *
 * @param isOwnHome true when the session's home is the running user's own (a copied home's
 *   recorded project folder may be another project on this computer)
 */
export async function openSessionCheckpoints(session: Session, isOwnHome: boolean, options: LocateOptions = {}): Promise<OpenedSession> {
  const cps = [...session.checkpoints]
  let projectDir = session.workingDirectory
  const ids = checkpointIds(cps)
  const base: OpenedCheckpoint[] = cps.map((c, i) => opened(session, c, i, ids[i]!))
  let store: string | undefined
  let repoInProject = true
  const gitKinds = cps.every((c) => WORKSPACE_GIT_KINDS.has(c.kind ?? ''))
  if (cps.length > 0 && cps.every((c) => c.kind === 'file-history')) {
    const file = session.source.files[0]!
    store = join(claudeDirOf(file), 'file-history', session.id)
    const history = await readFileHistory(file, projectDir)
    for (const c of base) c.files = await claudeFilesAt(history, c.ref, store, projectDir)
  } else if (cps.length > 0 && (gitKinds || cps.every((c) => c.kind === 'shadow-git'))) {
    const shadow = !gitKinds
    const found = shadow ? await findShadowRepo(session, cps, options) : await findWorkspaceRepo(cps, [options.repoDir, options.targetDir, projectDir])
    if (!found) {
      const where = shadow ? 'Cline\'s checkpoint folder (checkpoints/ next to tasks/)' : projectDir ? `${projectDir}` : 'the project folder'
      const problem = `The checkpoint commits are not in ${where} on this computer. Choose the folder that holds the project's repository.`
      for (const c of base) c.problem = problem
      repoInProject = false
    } else {
      store = found.repo.gitdir
      repoInProject = shadow || (projectDir !== undefined && resolve(found.dir) === resolve(projectDir))
      if (shadow && !projectDir) projectDir = await shadowWorktree(found.repo.gitdir)
      const snaps: (GitSnapshot | undefined)[] = []
      for (const c of base) {
        const s = await openGitSnapshot(found.repo, c.ref, c.kind)
        if ('problem' in s) {
          c.problem = s.problem
          snaps.push(undefined)
        } else snaps.push(s)
      }
      const sets = await coveredSets(found.repo, snaps)
      for (let i = 0; i < base.length; i++) {
        const s = snaps[i]
        if (s) base[i]!.files = await gitFilesAt(found.repo, s, sets[i]!)
      }
    }
  } else {
    for (const c of base) c.problem = `Sepia cannot restore ${c.kind ?? 'untyped'} checkpoints yet.`
  }
  const projectExists = await isDir(projectDir)
  const out: OpenedSession = { projectExists, checkpoints: base }
  if (projectDir) out.projectDir = projectDir
  if (store) out.store = store
  if (!projectDir) out.targetNote = 'The session did not record its project folder. Choose a folder to restore the files into.'
  else if (!projectExists) out.targetNote = `The project folder ${projectDir} is not on this computer. Choose a folder to restore the files into (they are exported there).`
  else if (!isOwnHome) out.targetNote = `This session comes from a copied home (${session.source.home ?? 'another computer'}); ${projectDir} on this computer may be a different project. Choose the folder to restore into.`
  else if (!repoInProject) out.targetNote = `${projectDir} does not hold this session's checkpoint commits, so it is not the project the session recorded. Choose the folder to restore into.`
  else out.defaultTarget = projectDir
  return out
}

/** Ids unique within the session: the ref, or `<ref>@<n>` (1-based position) when a ref repeats. */
export function checkpointIds(cps: readonly Checkpoint[]): string[] {
  const count = new Map<string, number>()
  for (const c of cps) count.set(c.ref, (count.get(c.ref) ?? 0) + 1)
  return cps.map((c, i) => ((count.get(c.ref) ?? 0) > 1 ? `${c.ref}@${i + 1}` : c.ref))
}

function opened(session: Session, c: Checkpoint, index: number, id: string): OpenedCheckpoint {
  const kind = c.kind ?? 'unknown'
  const node = c.nodeId ? session.nodes.find((n) => n.nodeId === c.nodeId) : inferNode(session.nodes, c)
  const o: OpenedCheckpoint = { id, ref: c.ref, kind, label: '' }
  if (c.createdAt !== undefined) o.createdAt = c.createdAt
  if (c.runCount !== undefined) o.runCount = c.runCount
  if (node) o.nodeId = node.nodeId
  const prompt = node?.role === 'user' ? oneLine(node.content, 60) : undefined
  if (kind === 'shadow-git') o.label = `Checkpoint ${index + 1} (${c.ref.slice(0, 7)})`
  else if (c.runCount !== undefined) o.label = prompt ? `Run ${c.runCount}: before "${prompt}"` : `Run ${c.runCount} (${kind})`
  else o.label = prompt ? `Before "${prompt}"` : `Checkpoint ${index + 1}`
  return o
}

/**
 * The message a checkpoint without `nodeId` belongs to: a Cline SDK checkpoint is taken right
 * after the run's prompt is stored (fixtures/real/cline: prompt ts 1796022222087, checkpoint
 * 1796022222199), so it is the last user message at or before `createdAt`; a legacy shadow-git
 * checkpoint is the message that carries its hash (same ts).
 */
function inferNode(nodes: readonly MessageNode[], c: Checkpoint): MessageNode | undefined {
  if (c.createdAt === undefined) return undefined
  let best: MessageNode | undefined
  for (const n of nodes) {
    if (n.createdAt === undefined || n.createdAt > c.createdAt) continue
    if (c.kind === 'shadow-git' ? true : n.role === 'user' && !n.isMeta && !n.toolCallId) best = n
  }
  return best
}

function oneLine(text: string, max: number): string | undefined {
  const t = text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim()
  if (!t) return undefined
  return cutOutsideSecrets(t, max) // never inside a secret: it is masked whole afterwards
}

/** The first repository among `dirs` holding every checkpoint commit, else the one holding most. */
async function findWorkspaceRepo(cps: readonly Checkpoint[], dirs: (string | undefined)[]): Promise<{ repo: GitRepo; dir: string } | undefined> {
  let best: { repo: GitRepo; dir: string; count: number } | undefined
  for (const dir of dirs) {
    if (!dir || !(await isDir(dir))) continue
    const repo = await GitRepo.open(dir)
    if (!repo) continue
    let count = 0
    for (const c of cps) if (await repo.resolve(c.ref)) count++
    if (count === cps.length) return { repo, dir }
    if (count > 0 && (!best || count > best.count)) best = { repo, dir, count }
  }
  return best && { repo: best.repo, dir: best.dir }
}

/**
 * Cline's shadow repository: `<root>/checkpoints/<cwd hash>/.git` (3.x) or
 * `<root>/tasks/<id>/checkpoints/.git` (older, and Roo Code), where `<root>` holds `tasks/`
 * (seed 000: globalStorage `saoudrizwan.claude-dev/checkpoints/`). Found by the commit it holds.
 */
async function findShadowRepo(session: Session, cps: readonly Checkpoint[], options: LocateOptions): Promise<{ repo: GitRepo; dir: string } | undefined> {
  const candidates: string[] = []
  if (options.repoDir) candidates.push(options.repoDir)
  const file = session.source.files[0]
  if (file && basename(dirname(dirname(file))) === 'tasks') {
    const root = dirname(dirname(dirname(file)))
    candidates.push(join(dirname(file), 'checkpoints'))
    try {
      for (const d of await readdir(join(root, 'checkpoints'), { withFileTypes: true })) if (d.isDirectory()) candidates.push(join(root, 'checkpoints', d.name))
    } catch {
      // no shadow repositories
    }
  }
  return findWorkspaceRepo(cps, candidates)
}

/** `core.worktree` of a shadow repository (the workspace it snapshots). */
async function shadowWorktree(gitdir: string): Promise<string | undefined> {
  try {
    const m = /^\s*worktree\s*=\s*(.+?)\s*$/m.exec(await readFile(join(gitdir, 'config'), 'utf8'))
    return m?.[1]
  } catch {
    return undefined
  }
}
