/**
 * Stores of agents Sepia cannot read yet, found by their paths so that `sepia doctor` and the
 * Health view can say so plainly. Each entry of {@link UNREAD_DETECTORS} names an agent and the
 * paths to look at under a home (from the agent's docs or the public-real corpus,
 * ../shared/samples/public-real/SOURCES.md "Layout"). There is none at present: Aider, Crush and
 * Goose, the last ones listed here, have readers now (src/main/agents/aider, crush, goose). Reads
 * `stat`s only.
 */
import { stat } from 'node:fs/promises'
import type { UnreadStore } from '../../shared/health'
import type { HomeLayout } from '../platform'

const KEEP_PATHS = 5

/** An agent Sepia cannot read yet: its display name and the store paths to look for under a home. */
export interface UnreadDetector {
  agentName: string
  paths: (layout: HomeLayout) => string[]
}

/** The agents whose stores are looked for (none at present). */
export const UNREAD_DETECTORS: readonly UnreadDetector[] = []

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p)
    return true
  } catch {
    return false
  }
}

/** Every unread store under one home (empty when none is found). */
export async function findUnreadStores(layout: HomeLayout, detectors: readonly UnreadDetector[] = UNREAD_DETECTORS): Promise<UnreadStore[]> {
  const found: UnreadStore[] = []
  for (const d of detectors) {
    const paths: string[] = []
    for (const p of [...new Set(d.paths(layout))]) if (await exists(p)) paths.push(p)
    if (paths.length) found.push({ agentName: d.agentName, paths: paths.slice(0, KEEP_PATHS), count: paths.length })
  }
  return found
}

/**
 * The names of the agents Sepia cannot read yet whose history is under any of `layouts` (each
 * once, in the order found). Reads `stat`s only.
 */
export async function unreadAgentNames(layouts: readonly HomeLayout[], detectors: readonly UnreadDetector[] = UNREAD_DETECTORS): Promise<string[]> {
  const names = new Set<string>()
  for (const layout of layouts) for (const u of await findUnreadStores(layout, detectors)) names.add(u.agentName)
  return [...names]
}

/** "it found Aider history, which Sepia cannot read yet." for `names` (non-empty), joined with "and". */
export function unreadSentence(names: readonly string[]): string {
  const list = names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
  return `it found ${list} history, which Sepia cannot read yet.`
}
