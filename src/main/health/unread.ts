/**
 * Stores of agents Sepia cannot read yet, found by their paths so that `sepia doctor` and the
 * Health view can say so plainly. Paths from each agent's docs and the public-real corpus
 * (../shared/samples/public-real/SOURCES.md "Layout"):
 * - Aider: `<project>/.aider.chat.history.md` in a project's git root (anywhere under the home).
 * - Crush: `<project>/.crush/crush.db` (anywhere under the home).
 * Reads directory listings only; the walk for project files is bounded in depth and folders.
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { UnreadStore } from '../../shared/health'
import type { HomeLayout } from '../platform'

/** Folders the project walk never enters. */
const SKIP = new Set(['node_modules', '.git', '.cache', '.npm', '.cargo', '.rustup', 'Library', 'AppData', '.vscode', '.vscode-server', '.local', '.config'])
const MAX_DEPTH = 7
const MAX_DIRS = 20000
const KEEP_PATHS = 5

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p)
    return true
  } catch {
    return false
  }
}

async function list(dir: string): Promise<{ name: string; dir: boolean }[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).map((d) => ({ name: d.name, dir: d.isDirectory() }))
  } catch {
    return []
  }
}

/** Every unread store under one home (empty when none is found). */
export async function findUnreadStores(layout: HomeLayout): Promise<UnreadStore[]> {
  const found = new Map<string, string[]>()
  const note = (name: string, p: string): void => {
    found.set(name, [...(found.get(name) ?? []), p])
  }
  const home = layout.home
  // Project files: a bounded breadth-first walk of the home.
  let queue: string[] = [home]
  let seen = 0
  for (let depth = 0; depth <= MAX_DEPTH && queue.length > 0 && seen < MAX_DIRS; depth++) {
    const next: string[] = []
    for (const dir of queue) {
      if (++seen > MAX_DIRS) break
      for (const e of await list(dir)) {
        if (!e.dir) {
          if (e.name === '.aider.chat.history.md') note('Aider', join(dir, e.name))
          continue
        }
        if (e.name === '.crush') {
          const db = join(dir, e.name, 'crush.db')
          if (await exists(db)) note('Crush', db)
          continue
        }
        if (SKIP.has(e.name) || (e.name.startsWith('.') && depth === 0 && e.name !== '.crush')) continue
        next.push(join(dir, e.name))
      }
    }
    queue = next
  }
  return [...found].map(([agentName, paths]) => ({ agentName, paths: paths.slice(0, KEEP_PATHS), count: paths.length }))
}

/**
 * The names of the agents Sepia cannot read yet whose history is under any of `layouts`
 * ("Aider", "Crush"; each once, in the order found). Reads directory listings only.
 */
export async function unreadAgentNames(layouts: readonly HomeLayout[]): Promise<string[]> {
  const names = new Set<string>()
  for (const layout of layouts) for (const u of await findUnreadStores(layout)) names.add(u.agentName)
  return [...names]
}

/** "it found Aider history, which Sepia cannot read yet." for `names` (non-empty), joined with "and". */
export function unreadSentence(names: readonly string[]): string {
  const list = names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
  return `it found ${list} history, which Sepia cannot read yet.`
}
