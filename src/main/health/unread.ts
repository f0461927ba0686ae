/**
 * Stores of agents Sepia cannot read yet, found by their paths so that `sepia doctor` and the
 * Health view can say so plainly. Paths from each agent's docs and the public-real corpus
 * (../shared/samples/public-real/SOURCES.md "Layout"):
 * - Goose: `~/.local/share/goose/sessions/sessions.db` (and `<appData>/goose/sessions/` elsewhere).
 * (Aider and Crush have readers now: src/main/agents/aider, src/main/agents/crush.) Reads `stat`s only.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { UnreadStore } from '../../shared/health'
import type { HomeLayout } from '../platform'

const KEEP_PATHS = 5

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p)
    return true
  } catch {
    return false
  }
}

/** Every unread store under one home (empty when none is found). */
export async function findUnreadStores(layout: HomeLayout): Promise<UnreadStore[]> {
  const found = new Map<string, string[]>()
  const note = (name: string, p: string): void => {
    found.set(name, [...(found.get(name) ?? []), p])
  }
  const home = layout.home
  const gooseDirs = [join(home, '.local', 'share', 'goose', 'sessions'), ...layout.appDataRoots.map((r) => join(r, 'goose', 'sessions')), ...layout.appDataRoots.map((r) => join(r, 'Block', 'goose', 'sessions'))]
  for (const d of [...new Set(gooseDirs)]) {
    const db = join(d, 'sessions.db')
    if (await exists(db)) note('Goose', db)
  }
  return [...found].map(([agentName, paths]) => ({ agentName, paths: paths.slice(0, KEEP_PATHS), count: paths.length }))
}

/**
 * The names of the agents Sepia cannot read yet whose history is under any of `layouts`
 * ("Goose"; each once, in the order found). Reads directory listings only.
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
