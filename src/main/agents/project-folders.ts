/**
 * Where project-folder stores are found: agents that keep their history inside the project
 * (Aider's `.aider.chat.history.md`, Crush's `.crush/crush.db`) have no folder of their own under
 * the home, so discovery looks in two places (both cheap):
 *
 * 1. The project folders Sepia already knows for this home ({@link ReadContext.projectFolders}: the
 *    working directories the catalog recorded for other agents' sessions). One `readdir`-free
 *    `stat` per folder and marker (synchronous: a few µs each). A project first named by a session read in this refresh is
 *    found on the next refresh (discovery of every agent runs before any session is read).
 * 2. A bounded walk of the home itself (the folder the user opened, or `--home`): breadth first,
 *    the home and its sub-folders down to {@link WALK_MAX_DEPTH} levels below it (a project at
 *    `~/Code/github.com/owner/repo/main` is depth 5), skipping hidden folders and known bulk
 *    folders ({@link WALK_SKIP}), and listing at most {@link WALK_MAX_DIRS} folders.
 *
 * Both agents use one walk per home, reused for {@link WALK_TTL_MS}.
 * Refs found in a known folder carry `hints.knownProject: true`: the symlink guard
 * (src/main/paths.ts `guardAgents`) lets such a file lie outside the home as long as no symbolic
 * link is on its path (the folder was named by the user's own sessions, not reached through a link).
 */
import { statSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { type HomeLayout, pathApiFor } from '../platform'
import type { ReadContext } from './types'

/** Deepest folder level below the home the walk lists (home = 0). */
export const WALK_MAX_DEPTH = 5
/** Most folders one walk lists (a bound on the cost in a large home). */
export const WALK_MAX_DIRS = 4000
/**
 * How long (ms) one walk's result is reused for the same home: live refreshes run while an agent
 * writes, and must not list thousands of folders each time. Files in folders already found, and
 * the known folders, are `stat`ed afresh on every discovery; only a new project folder waits.
 */
export const WALK_TTL_MS = 60_000
/** Folder names the walk does not enter (dependency trees, OS data, media). Hidden folders are skipped too. */
export const WALK_SKIP = new Set([
  'node_modules', 'Library', 'AppData', 'Applications', 'Pictures', 'Music', 'Movies', 'Videos', 'snap',
  'vendor', 'target', 'dist', 'build', 'out', '__pycache__', 'venv', 'site-packages', 'pkg', 'bower_components',
])
/** Entry names that mark a folder as holding a project-folder store (Aider, Crush). */
export const PROJECT_MARKERS = ['.aider.chat.history.md', '.aider.input.history', '.crush'] as const

/** A folder holding at least one of {@link PROJECT_MARKERS}, and which ones. */
export interface ProjectFolderHit {
  /** Absolute folder path. */
  dir: string
  /** Markers present in it. */
  markers: Set<string>
  /** Named by {@link ReadContext.projectFolders} (it may lie outside the home). */
  known?: true
}

const walks = new Map<string, { at: number; result: Promise<ProjectFolderHit[]> }>()

/** Breadth-first walk of `home` (see the module doc). Never throws: unreadable folders are skipped. */
async function walkHome(home: string): Promise<ProjectFolderHit[]> {
  const p = pathApiFor(home)
  const hits: ProjectFolderHit[] = []
  let level = [home]
  let listed = 0
  for (let depth = 0; depth <= WALK_MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = []
    for (const dir of level) {
      if (listed >= WALK_MAX_DIRS) return hits
      listed++
      let entries: import('node:fs').Dirent[]
      try {
        entries = await readdir(dir, { withFileTypes: true })
      } catch {
        continue
      }
      const markers = new Set<string>()
      for (const e of entries) {
        if ((PROJECT_MARKERS as readonly string[]).includes(e.name)) markers.add(e.name)
        else if (e.isDirectory() && !e.name.startsWith('.') && !WALK_SKIP.has(e.name)) next.push(p.join(dir, e.name))
      }
      if (markers.size) hits.push({ dir, markers })
    }
    level = next.sort()
  }
  return hits
}

/**
 * Folders under or named for `layout.home` that hold a project-folder store: the known project
 * folders from `ctx` (checked with a `stat` per marker) and the bounded walk of the home.
 * Distinct, known folders first. Never throws.
 */
export async function findProjectFolders(layout: HomeLayout, ctx: ReadContext): Promise<ProjectFolderHit[]> {
  const home = layout.home
  const now = Date.now()
  let w = walks.get(home)
  if (!w || now - w.at > WALK_TTL_MS) {
    w = { at: now, result: walkHome(home) }
    walks.set(home, w)
    for (const [k, v] of walks) if (now - v.at > WALK_TTL_MS) walks.delete(k)
  }
  const out = new Map<string, ProjectFolderHit>()
  const p = pathApiFor(home)
  let known: readonly string[] = []
  try {
    known = ctx.projectFolders?.(home) ?? []
  } catch {
    known = []
  }
  for (const dir of known) {
    if (!dir || out.has(dir)) continue
    const markers = new Set<string>()
    for (const m of PROJECT_MARKERS) {
      try {
        // Sync and without an error object for a missing entry (issue 15: ~130 awaited `stat`s per
        // agent, nearly all missing, were ~20 ms of every warm command's discovery); any other
        // failure (ENOTDIR, EACCES) throws and counts as absent, as before.
        if (statSync(p.join(dir, m), { throwIfNoEntry: false })) markers.add(m)
      } catch {
        // absent
      }
    }
    if (markers.size) out.set(dir, { dir, markers, known: true })
  }
  for (const hit of await w.result) if (!out.has(hit.dir)) out.set(hit.dir, hit)
  return [...out.values()]
}
