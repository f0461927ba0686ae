/**
 * A cheap "nothing changed" check for one agent's discovery (issue 15: a warm `sepia list` spent
 * ~40% of its time discovering every store again to find that nothing had changed).
 *
 * After a full discovery of one agent in one home, the refresh records a snapshot: the size,
 * mtime and inode of every file the agent's sessions are made of, of the side files discovery
 * reads (an index, a database), and the mtime of every folder discovery lists (whole folder trees
 * the agent names, walked, plus single folders). The next refresh `stat`s exactly those paths
 * (synchronously, ~µs each) and skips that agent's discovery only when every one is unchanged.
 *
 * Why this is enough (the guarantee): discovery's result depends only on folder listings, the
 * refs' files and the declared side files (each agent's {@link FreshnessDeps} says so, from its
 * own discover.ts). Adding, removing or renaming an entry changes its folder's mtime; appending to
 * or rewriting a file (Claude Code and Codex append to their JSONL) changes the file's size or
 * mtime, which are recorded per file, not per folder; a path that did not exist is recorded with
 * its nearest existing ancestor, whose mtime changes when anything is created below it. Folder
 * trees are walked when the snapshot is taken; a symbolic link to a folder inside a tree (which a
 * walk cannot follow safely) means no snapshot for that agent, so it is always discovered.
 *
 * Races: every value is observed before the reads that make the catalog hold what it holds — the
 * folders, side files and already-known session files before discovery, new session files right
 * after discovery (they are read after that) — so a change after an observation shows in the next
 * check. The CLI may observe the signatures earlier, on a worker started with the process
 * (`early-freshness.ts`): still after the command started and before the refresh decides, and the
 * answer is used only for the exact snapshot text the refresh read, so the same holds. A snapshot is not kept when a session of that agent could not be read (the next refresh
 * tries again) and keeps the discovery's diagnostics, which a skipped discovery reports again.
 * Agents without {@link FreshnessDeps} (or with `projectFolders`, which depend on the catalog) are
 * discovered every time.
 */
import { readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Diagnostic } from '../../shared/ir'

/**
 * What one agent's discovery depends on besides its refs' files (paths may not exist).
 * Declared by the agent (`AgentDefinition.freshness`) from its own discover.ts.
 */
export interface FreshnessDeps {
  /** Folders whose whole folder tree discovery may list (every folder in it is recorded). */
  trees: string[]
  /** Folders discovery lists without descending (their own mtime is recorded). */
  dirs: string[]
  /** Side files discovery reads (an index, a database and its `-wal`). */
  files: string[]
}

/**
 * A recorded snapshot: path → signature, plus the discovery's diagnostics (JSON in the catalog's
 * meta table), and the {@link FreshnessDeps} it was recorded for ({@link depsKey}): the deps come
 * from the home's layout, which is detected again by each process (a copied home's OS, the editor
 * folders found in it), so a snapshot of other deps says nothing about this discovery.
 */
export interface FreshnessSnapshot {
  v: 2
  deps: string
  /** `[path, signature]`; see {@link signature}. */
  entries: [string, string][]
  diagnostics: Diagnostic[]
}

/** `f:<size>:<mtimeMs>:<ino>` for a file, `d:<mtimeMs>:<ino>` for a folder, `-` for nothing there. */
export function signature(path: string): string {
  let st
  try {
    st = statSync(path, { throwIfNoEntry: false })
  } catch {
    return '!' // unreadable (EACCES, ENOTDIR): never equal to a later good stat
  }
  if (!st) return '-'
  return st.isDirectory() ? `d:${st.mtimeMs}:${st.ino}` : `f:${st.size}:${st.mtimeMs}:${st.ino}`
}

/**
 * Record the folders and side files of `deps` (before discovery). Returns undefined when the
 * trees cannot be recorded safely (a link to a folder inside a tree, an unreadable folder).
 */
export function recordDeps(deps: FreshnessDeps): Map<string, string> | undefined {
  const out = new Map<string, string>()
  const missing = (p: string): void => {
    // Nothing there: record the nearest existing ancestor, whose mtime changes when it appears.
    let cur = p
    for (;;) {
      const sig = signature(cur)
      out.set(cur, sig)
      if (sig !== '-') return
      const up = dirname(cur)
      if (up === cur) return
      cur = up
    }
  }
  const walk = (dir: string): boolean => {
    const sig = signature(dir)
    if (sig === '-') {
      missing(dir)
      return true
    }
    out.set(dir, sig)
    if (!sig.startsWith('d:')) return true // a file where a folder was expected: discovery finds nothing; its signature says when it changes
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return false
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!walk(join(dir, e.name))) return false
      } else if (e.isSymbolicLink() && signature(join(dir, e.name)).startsWith('d:')) return false
    }
    return true
  }
  for (const t of deps.trees) if (!walk(t)) return undefined
  for (const p of [...deps.dirs, ...deps.files]) {
    const sig = signature(p)
    if (sig === '-') missing(p)
    else out.set(p, sig)
  }
  return out
}

/** Signatures of `files` not yet in `into` (the refs' files). */
export function recordFiles(into: Map<string, string>, files: Iterable<string>): void {
  for (const f of files) if (!into.has(f)) into.set(f, signature(f))
}

/** The key of `deps` a snapshot records (the same deps give the same key). */
export function depsKey(deps: FreshnessDeps): string {
  return JSON.stringify([deps.trees, deps.dirs, deps.files])
}

/** True when the snapshot was recorded for `deps` and every recorded path still has its recorded signature. */
export function unchanged(snapshot: FreshnessSnapshot, deps: FreshnessDeps): boolean {
  return snapshot.deps === depsKey(deps) && entriesUnchanged(snapshot.entries)
}

/** True when every recorded path still has its recorded signature (the stats of {@link unchanged}). */
export function entriesUnchanged(entries: readonly (readonly [string, string])[]): boolean {
  for (const [path, sig] of entries) if (signature(path) !== sig) return false
  return true
}

/** Entries per claim of {@link checkEntriesShared} (~1-2 ms of stats). */
const SHARED_CHUNK = 256

/**
 * Check `entries` together with another thread (`early-freshness.ts`): both claim chunks of
 * entries from one counter, so each entry is stat'ed once. `shared` holds, at `slot * 3`: the next
 * entry to claim, the number of entries checked and found unchanged, and 1 once an entry differs
 * (then both stop). The check is over when the changed flag is set or the count reaches
 * `entries.length`, whichever thread did the last chunk.
 */
export function checkEntriesShared(entries: readonly (readonly [string, string])[], shared: Int32Array, slot: number): void {
  const base = slot * 3
  const n = entries.length
  for (;;) {
    if (Atomics.load(shared, base + 2) !== 0) return
    const start = Atomics.add(shared, base, SHARED_CHUNK)
    if (start >= n) return
    const end = Math.min(n, start + SHARED_CHUNK)
    for (let i = start; i < end; i++) {
      const [path, sig] = entries[i]!
      if (signature(path) !== sig) {
        Atomics.store(shared, base + 2, 1)
        return
      }
    }
    Atomics.add(shared, base + 1, end - start)
  }
}

/** The outcome of a {@link checkEntriesShared} check so far: true unchanged, false changed, undefined not finished. */
export function sharedOutcome(shared: Int32Array, slot: number, count: number): boolean | undefined {
  if (Atomics.load(shared, slot * 3 + 2) !== 0) return false
  return Atomics.load(shared, slot * 3 + 1) >= count ? true : undefined
}

/** Parse a stored snapshot; undefined for anything else (then the agent is discovered). */
export function parseSnapshot(text: string | undefined): FreshnessSnapshot | undefined {
  if (!text) return undefined
  try {
    const s = JSON.parse(text) as FreshnessSnapshot
    return s && s.v === 2 && typeof s.deps === 'string' && Array.isArray(s.entries) && Array.isArray(s.diagnostics) ? s : undefined
  } catch {
    return undefined
  }
}

/** The meta key of one home's and agent's snapshot. */
export function snapshotKey(home: string, agent: string): string {
  return `fresh:${home}:${agent}`
}
