/**
 * Checkpoints that are git commits: Cline SDK `stash` / `commit` refs in the workspace's own
 * repository, and Cline legacy `lastCheckpointHash` commits in the shadow repository.
 *
 * Format facts (seed 002 "Checkpoints"; fixtures/real/cline/README.md "Worth knowing"):
 * - `stash`: a synthetic commit (`cline checkpoint session=<id> run=<n>`) whose first parent is
 *   the base (HEAD), second the index, third (when there were untracked files) a commit whose
 *   tree holds only the untracked files. Its own tree is the working tree of tracked files.
 * - `commit`: HEAD itself, taken on a clean tree (no ref is written).
 * - `shadow-git` (legacy VS Code extension / CLI 2.x): every checkpoint is a full snapshot commit
 *   of the workspace in `checkpoints/<cwd hash>/.git`, chained to the previous one.
 *
 * The covered file set of a checkpoint is what it changes against its base (untracked files
 * included, `git diff --name-only <ref>^ <ref>` plus the third parent's tree), widened by the
 * files that changed at any later checkpoint of the same session: restoring an early checkpoint
 * must also put back (or delete) files the agent touched afterwards.
 */
import { GIT_MODE, type GitRepo } from './git'
import { relativeCheckpointPath } from './paths'
import type { CheckpointFiles, FileAtCheckpoint } from './types'

/** One git checkpoint, opened. */
export interface GitSnapshot {
  /** Commit oid. */
  oid: string
  kind: string
  /** Tree of tracked files at the checkpoint. */
  tree: string
  /** Tree of the untracked files (stash third parent), when present. */
  untracked?: string
  /** Paths the checkpoint changes against its base (untracked files included). */
  own: Set<string>
}

/**
 * Open the checkpoint `ref` (a sha, or a ref name) of `kind` in `repo`. Resolves a plain-words
 * problem when the commit is not in this repository.
 */
export async function openGitSnapshot(repo: GitRepo, ref: string, kind: string): Promise<GitSnapshot | { problem: string }> {
  const oid = await repo.resolve(ref)
  if (!oid) return { problem: `The commit ${ref.slice(0, 12)} is not in the repository ${repo.gitdir}.` }
  let c
  try {
    c = await repo.commit(oid)
  } catch {
    return { problem: `${ref.slice(0, 12)} in ${repo.gitdir} is not a commit.` }
  }
  if (kind === 'stash' && c.parents.length >= 2) {
    const base = await repo.commit(c.parents[0]!)
    const own = await repo.diffTrees(base.tree, c.tree)
    let untracked: string | undefined
    if (c.parents[2]) {
      untracked = (await repo.commit(c.parents[2])).tree
      for (const p of (await repo.listTree(untracked)).keys()) own.add(p)
    }
    return { oid, kind, tree: c.tree, own, ...(untracked ? { untracked } : {}) }
  }
  const parent = c.parents[0] ? (await repo.commit(c.parents[0])).tree : undefined
  // A shadow repository's first commit snapshots the whole workspace before the agent did
  // anything: it changes nothing of the agent's, so it covers only what later checkpoints changed.
  if (kind === 'shadow-git' && !parent) return { oid, kind, tree: c.tree, own: new Set() }
  return { oid, kind, tree: c.tree, own: await repo.diffTrees(parent, c.tree) }
}

/**
 * The covered path sets of a session's checkpoints, in order: each checkpoint's own changes plus
 * every change between it and the session's later checkpoints. `undefined` entries (checkpoints
 * not found) are skipped and get an empty set.
 */
export async function coveredSets(repo: GitRepo, snaps: (GitSnapshot | undefined)[]): Promise<Set<string>[]> {
  // covered(k) = own(k) ∪ changes between k and the next checkpoint ∪ covered(next)
  const out: Set<string>[] = snaps.map(() => new Set())
  let next: { snap: GitSnapshot; covered: Set<string> } | undefined
  for (let k = snaps.length - 1; k >= 0; k--) {
    const s = snaps[k]
    if (!s) continue
    const covered = new Set(s.own)
    if (next) {
      for (const p of next.covered) covered.add(p)
      for (const p of await repo.diffTrees(s.tree, next.snap.tree)) covered.add(p)
      for (const t of [s.untracked, next.snap.untracked]) if (t) for (const p of (await repo.listTree(t)).keys()) covered.add(p)
    }
    out[k] = covered
    next = { snap: s, covered }
  }
  return out
}

/**
 * The state of `paths` at a checkpoint: the untracked tree first, then the commit's tree; a path
 * in neither did not exist then. Submodules and unsafe paths are refused.
 */
export async function gitFilesAt(repo: GitRepo, snap: GitSnapshot, paths: Iterable<string>): Promise<CheckpointFiles> {
  const out: CheckpointFiles = { files: [], refused: [] }
  for (const stored of [...paths].sort()) {
    const rel = relativeCheckpointPath(stored)
    if (!rel.ok) {
      out.refused.push({ path: stored, reason: rel.reason })
      continue
    }
    const entry = (snap.untracked ? await repo.entryAt(snap.untracked, stored) : undefined) ?? (await repo.entryAt(snap.tree, stored))
    if (entry?.mode === GIT_MODE.gitlink) {
      out.refused.push({ path: stored, reason: 'This is a submodule (a repository inside the project); restore it with git inside that folder.' })
      continue
    }
    const file: FileAtCheckpoint = entry
      ? {
          path: rel.value,
          exists: true,
          symlink: entry.mode === GIT_MODE.symlink,
          mode: entry.mode === GIT_MODE.exec ? 0o755 : 0o644,
          read: () => repo.blob(entry.oid),
        }
      : { path: rel.value, exists: false, symlink: false, mode: 0o644, read: async () => new Uint8Array() }
    out.files.push(file)
  }
  // Entries a commit holds under a name that is unsafe on disk were left out of its trees (git.ts).
  for (const name of repo.unsafeNames) out.refused.push({ path: name, reason: `A checkpoint holds an entry named "${name}", which is not a safe file name; Sepia leaves it out.` })
  return out
}
