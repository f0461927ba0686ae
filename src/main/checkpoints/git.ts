/**
 * Reading git objects without the `git` command (isomorphic-git): users on Windows and air-gapped
 * laptops may have no git installed. Only reads: nothing here writes into a repository (no index,
 * no refs, no config), so the workspace's `.git` and Cline's shadow repository stay as they were.
 *
 * Loose objects, packfiles (`git gc`), packed refs and binary blobs are all handled by
 * isomorphic-git. A `.git` file (`gitdir: ...`, worktrees and submodules) and the `commondir` of a
 * linked worktree are followed here. Object reads share one cache per repository so pack indexes
 * are parsed once.
 */
import * as fs from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { isAbsolute, join, resolve } from 'node:path'
import type IsoGit from 'isomorphic-git'

let loaded: Promise<typeof IsoGit> | undefined
/**
 * isomorphic-git, imported on first use: loading it costs more than the rest of a CLI start-up, and
 * most commands never read a repository (issue 15).
 */
function isoGit(): Promise<typeof IsoGit> {
  return (loaded ??= import('isomorphic-git').then((m) => m.default))
}

/** Git tree entry modes (octal as git writes them). */
export const GIT_MODE = { file: 0o100644, exec: 0o100755, symlink: 0o120000, gitlink: 0o160000, tree: 0o040000 } as const

/** One blob (or symlink / gitlink) in a tree, by its path from the tree's root (POSIX `/`). */
export interface GitEntry {
  /** SHA-1 of the blob (gitlink: of the submodule commit). */
  oid: string
  /** Git mode as a number: 0o100644, 0o100755, 0o120000 (symlink), 0o160000 (submodule). */
  mode: number
}

/** A commit as the restore needs it. */
export interface GitCommit {
  oid: string
  /** Root tree oid. */
  tree: string
  /** Parent commit oids in order (a Cline stash checkpoint has three: base, index, untracked). */
  parents: string[]
  message: string
  /** Committer time, ms since epoch. */
  committedAt: number
}

/**
 * Find the git directory of a folder: `<dir>/.git` (a folder, or a file `gitdir: <path>`), or
 * `dir` itself when it is a bare repository (holds `HEAD` and `objects/`). Resolves `undefined`
 * when there is none. Never throws.
 */
export async function findGitDir(dir: string): Promise<string | undefined> {
  const dotGit = join(dir, '.git')
  try {
    const st = await stat(dotGit)
    if (st.isDirectory()) return dotGit
    if (st.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, 'utf8'))
      if (m?.[1]) return isAbsolute(m[1]) ? m[1] : resolve(dir, m[1])
    }
  } catch {
    // no .git: maybe a bare repository
  }
  try {
    if ((await stat(join(dir, 'objects'))).isDirectory() && (await stat(join(dir, 'HEAD'))).isFile()) return dir
  } catch {
    // not a repository
  }
  return undefined
}

/** Read-only access to one repository's objects. */
export class GitRepo {
  private readonly cache = {}
  private readonly trees = new Map<string, { path: string; oid: string; mode: number }[]>()

  private constructor(
    /** The git directory objects and refs are read from (a worktree's `commondir` when linked). */
    readonly gitdir: string,
  ) {}

  /** Open the repository of `dir` (see {@link findGitDir}); `undefined` when there is none. */
  static async open(dir: string): Promise<GitRepo | undefined> {
    const gitdir = await findGitDir(dir)
    return gitdir ? GitRepo.at(gitdir) : undefined
  }

  /** Open a git directory directly (Cline's shadow `checkpoints/<hash>/.git`). */
  static async at(gitdir: string): Promise<GitRepo> {
    // A linked worktree keeps its objects and most refs in the main repository (`commondir`).
    try {
      const common = (await readFile(join(gitdir, 'commondir'), 'utf8')).trim()
      if (common) return new GitRepo(isAbsolute(common) ? common : resolve(gitdir, common))
    } catch {
      // not a linked worktree
    }
    return new GitRepo(gitdir)
  }

  /**
   * Resolve a ref name (`refs/cline/checkpoints/<id>/2`, `HEAD`), a full sha or an abbreviated one
   * to a full oid; `undefined` when the repository does not have it.
   */
  async resolve(ref: string): Promise<string | undefined> {
    try {
      if (/^[0-9a-f]{40}$/i.test(ref)) return (await this.hasObject(ref.toLowerCase())) ? ref.toLowerCase() : undefined
      if (/^[0-9a-f]{4,39}$/i.test(ref)) return await (await isoGit()).expandOid({ fs, gitdir: this.gitdir, oid: ref.toLowerCase(), cache: this.cache })
      return await (await isoGit()).resolveRef({ fs, gitdir: this.gitdir, ref })
    } catch {
      return undefined
    }
  }

  /** True when the object store holds `oid` (loose or packed). */
  async hasObject(oid: string): Promise<boolean> {
    try {
      await (await isoGit()).readObject({ fs, gitdir: this.gitdir, oid, format: 'deflated', cache: this.cache })
      return true
    } catch {
      return false
    }
  }

  /** One commit. Rejects when it is missing or not a commit. */
  async commit(oid: string): Promise<GitCommit> {
    const { commit } = await (await isoGit()).readCommit({ fs, gitdir: this.gitdir, oid, cache: this.cache })
    return { oid, tree: commit.tree, parents: commit.parent, message: commit.message, committedAt: commit.committer.timestamp * 1000 }
  }

  /** The entries of one tree object (not recursive), cached. */
  async treeEntries(oid: string): Promise<{ path: string; oid: string; mode: number }[]> {
    const hit = this.trees.get(oid)
    if (hit) return hit
    // Parsed here, not with git.readTree: isomorphic-git rejects a whole tree for one unsafe entry
    // name (`..`, `.git`, a backslash), which hid every checkpoint of the session (issue 16). An
    // unsafe entry is left out and remembered in `unsafeNames`; the rest of the tree is kept.
    const obj = await (await isoGit()).readObject({ fs, gitdir: this.gitdir, oid, format: 'content', cache: this.cache })
    if (obj.type !== 'tree' || !(obj.object instanceof Uint8Array)) throw new Error(`Object ${oid} is a ${obj.type}, not a tree.`)
    const entries: { path: string; oid: string; mode: number }[] = []
    for (const e of parseTreeObject(obj.object)) {
      if (isUnsafeEntryName(e.path)) this.unsafeNames.add(e.path)
      else entries.push(e)
    }
    if (this.trees.size > 5000) this.trees.clear()
    this.trees.set(oid, entries)
    return entries
  }

  /** Entry names left out of trees because they are unsafe as a file name (see {@link isUnsafeEntryName}). */
  readonly unsafeNames = new Set<string>()

  /** The bytes of a blob (for a symlink: its target). Rejects when it is missing. */
  async blob(oid: string): Promise<Uint8Array> {
    const { blob } = await (await isoGit()).readBlob({ fs, gitdir: this.gitdir, oid, cache: this.cache })
    return blob
  }

  /** Every blob under a tree, by path (recursive). */
  async listTree(treeOid: string, prefix = '', out = new Map<string, GitEntry>()): Promise<Map<string, GitEntry>> {
    for (const e of await this.treeEntries(treeOid)) {
      const path = prefix + e.path
      if (e.mode === GIT_MODE.tree) await this.listTree(e.oid, path + '/', out)
      else out.set(path, { oid: e.oid, mode: e.mode })
    }
    return out
  }

  /** The blob at `path` in a tree; `undefined` when the path is not a blob there. */
  async entryAt(treeOid: string, path: string): Promise<GitEntry | undefined> {
    const parts = path.split('/')
    let tree = treeOid
    for (let i = 0; i < parts.length; i++) {
      const e = (await this.treeEntries(tree)).find((x) => x.path === parts[i])
      if (!e) return undefined
      if (i === parts.length - 1) return e.mode === GIT_MODE.tree ? undefined : { oid: e.oid, mode: e.mode }
      if (e.mode !== GIT_MODE.tree) return undefined
      tree = e.oid
    }
    return undefined
  }

  /**
   * Paths of the blobs that differ between two trees (added, removed, content or mode changed),
   * like `git diff --name-only a b`. Identical subtrees are skipped by oid, so a diff of two
   * snapshots of a large project reads only the changed folders. `undefined` is the empty tree.
   */
  async diffTrees(a: string | undefined, b: string | undefined, prefix = '', out = new Set<string>()): Promise<Set<string>> {
    if (a === b) return out
    const ea = a ? await this.treeEntries(a) : []
    const eb = b ? await this.treeEntries(b) : []
    const mb = new Map(eb.map((e) => [e.path, e]))
    const ma = new Map(ea.map((e) => [e.path, e]))
    for (const name of new Set([...ma.keys(), ...mb.keys()])) {
      const x = ma.get(name)
      const y = mb.get(name)
      if (x && y && x.oid === y.oid && x.mode === y.mode) continue
      const path = prefix + name
      const xt = x?.mode === GIT_MODE.tree ? x.oid : undefined
      const yt = y?.mode === GIT_MODE.tree ? y.oid : undefined
      if (xt || yt) await this.diffTrees(xt, yt, path + '/', out)
      if ((x && !xt) || (y && !yt)) out.add(path)
    }
    return out
  }
}

/** The entries of a raw git tree object (`<mode> <name>\0<20-byte oid>` repeated). Rejects when malformed. */
export function parseTreeObject(buf: Uint8Array): { path: string; oid: string; mode: number }[] {
  const out: { path: string; oid: string; mode: number }[] = []
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength)
  let at = 0
  while (at < b.length) {
    const space = b.indexOf(32, at)
    const nul = space < 0 ? -1 : b.indexOf(0, space)
    if (space < 0 || nul < 0 || nul + 21 > b.length) throw new Error(`A tree object is malformed at byte ${at}.`)
    out.push({ mode: parseInt(b.subarray(at, space).toString('latin1'), 8), path: b.subarray(space + 1, nul).toString('utf8'), oid: b.subarray(nul + 1, nul + 21).toString('hex') })
    at = nul + 21
  }
  return out
}

/**
 * True for a tree entry name that must not become a file name: empty, `.`/`..` (also spelled with
 * trailing dots or spaces, which Windows strips), containing `/` or `\`, or `.git` (any case,
 * also its 8.3 alias `git~1`). The same class git's verify_path and isomorphic-git refuse.
 */
export function isUnsafeEntryName(name: string): boolean {
  if (name === '' || name.includes('/') || name.includes('\\') || name.includes('\0')) return true
  const trimmed = name.replace(/[. ]+$/, '')
  if (trimmed === '') return true
  const lower = trimmed.toLowerCase()
  return lower === '.git' || /^\.?git~[1-9]$/.test(lower)
}
