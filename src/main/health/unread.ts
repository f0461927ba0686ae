/**
 * Stores of agents Sepia cannot read, found by their paths so that `sepia doctor`, `sepia list`
 * and the Health view can say so plainly instead of showing nothing. Each entry of
 * {@link UNREAD_DETECTORS} names an agent, why it is not read, and the paths to look at under a
 * home. Two kinds:
 * - `not-yet`: an agent with no reader (none at present: Aider, Crush and Goose, the last ones
 *   listed, have readers now);
 * - `encrypted`: an agent that encrypts its local chats (issue 18: Windsurf's Cascade and Trae),
 *   listed with how many files, their paths and times, but never opened.
 * Reads `stat`s and folder listings only.
 */
import { readdir, stat } from 'node:fs/promises'
import type { UnreadStore } from '../../shared/health'
import { type HomeLayout, pathApiFor } from '../platform'

const KEEP_PATHS = 5

/** An agent whose stores Sepia cannot read: its display name and the store paths to look for under a home. */
export interface UnreadDetector {
  agentName: string
  /** Candidate paths (files or folders); each that exists is one store. */
  paths: (layout: HomeLayout) => string[]
  /**
   * Optional: folders whose files (ending in `suffix`) are each one store (one chat), e.g.
   * Windsurf's `cascade/<uuid>.pb`.
   */
  folders?: (layout: HomeLayout) => { dir: string; suffix: string }[]
  /** Why they are not read; `not-yet` when absent. */
  reason?: UnreadStore['reason']
}

/**
 * Windsurf (Cascade): one `<uuid>.pb` per conversation in `~/.codeium/windsurf/cascade/`
 * (`windsurf-next` for Windsurf Next), as public notes on Windsurf's internals describe it (e.g.
 * github:karstenheld3/IPPS `_Sessions/_2026-01-26_AutoModelSwitcher/NOTES.md`: "UUID-named
 * protobuf files"; issue 18: "said to be encrypted"). The files carry no schema Sepia can use and
 * are described as encrypted, so they are listed, never opened. The editor's `state.vscdb` holds no
 * transcript.
 */
export const WINDSURF_DETECTOR: UnreadDetector = {
  agentName: 'Windsurf',
  reason: 'encrypted',
  paths: () => [],
  folders: (l) => {
    const p = pathApiFor(l.home)
    return ['windsurf', 'windsurf-next'].map((d) => ({ dir: p.join(l.home, '.codeium', d, 'cascade'), suffix: '.pb' }))
  },
}

/**
 * Trae (ByteDance's VS Code fork, also Trae CN): its agent keeps chats in
 * `<Trae user dir>/ModularData/ai-agent/database.db` (public notes: a SQLCipher-encrypted
 * SQLite database, with `-wal`/`-shm`); `workspaceStorage/<hash>/state.vscdb` keeps only prompt
 * history and session metadata. Listed, never opened.
 */
export const TRAE_DETECTOR: UnreadDetector = {
  agentName: 'Trae',
  reason: 'encrypted',
  paths: (l) => {
    const p = pathApiFor(l.home)
    return ['Trae', 'Trae CN'].map((product) => p.join(l.configRoot, product, 'ModularData', 'ai-agent', 'database.db'))
  },
}

/** The agents whose stores are looked for. */
export const UNREAD_DETECTORS: readonly UnreadDetector[] = [WINDSURF_DETECTOR, TRAE_DETECTOR]

async function mtimeOf(p: string): Promise<number | undefined> {
  try {
    return (await stat(p)).mtimeMs
  } catch {
    return undefined
  }
}

/** Every unread store under one home (empty when none is found). */
export async function findUnreadStores(layout: HomeLayout, detectors: readonly UnreadDetector[] = UNREAD_DETECTORS): Promise<UnreadStore[]> {
  const found: UnreadStore[] = []
  for (const d of detectors) {
    const hits: { path: string; mtimeMs: number }[] = []
    for (const p of [...new Set(d.paths(layout))]) {
      const m = await mtimeOf(p)
      if (m !== undefined) hits.push({ path: p, mtimeMs: m })
    }
    const p = pathApiFor(layout.home)
    for (const f of d.folders?.(layout) ?? []) {
      let names: string[]
      try {
        names = (await readdir(f.dir)).filter((n) => n.endsWith(f.suffix)).sort()
      } catch {
        continue
      }
      for (const n of names) {
        const m = await mtimeOf(p.join(f.dir, n))
        if (m !== undefined) hits.push({ path: p.join(f.dir, n), mtimeMs: m })
      }
    }
    if (!hits.length) continue
    const store: UnreadStore = { agentName: d.agentName, paths: hits.slice(0, KEEP_PATHS).map((h) => h.path), count: hits.length }
    if (d.reason === 'encrypted') {
      store.reason = 'encrypted'
      store.oldestMs = Math.min(...hits.map((h) => h.mtimeMs))
      store.newestMs = Math.max(...hits.map((h) => h.mtimeMs))
    }
    found.push(store)
  }
  return found
}

/**
 * The names of the agents Sepia cannot read whose history is under any of `layouts` (each
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

/** The English line `sepia doctor` prints for one store (the renderer has its own words, `health.unread`/`health.encrypted`). */
export function unreadStoreLine(u: UnreadStore): string {
  if (u.reason === 'encrypted') {
    const span = u.oldestMs !== undefined && u.newestMs !== undefined ? `, ${new Date(u.oldestMs).toISOString().slice(0, 10)} to ${new Date(u.newestMs).toISOString().slice(0, 10)}` : ''
    return `${u.agentName}: found ${u.count} ${u.count === 1 ? 'file' : 'files'}${span}; ${u.agentName} keeps its chats encrypted; Sepia can list them but not read them.`
  }
  return `${u.agentName}: found ${u.count} ${u.count === 1 ? 'store' : 'stores'}; Sepia cannot read ${u.agentName} history yet.`
}
