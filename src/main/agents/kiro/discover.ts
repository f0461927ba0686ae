/**
 * Find Kiro (AWS's VS Code fork) agent chats under one home. Kiro's agent extension
 * `kiro.kiroagent` keeps them in its `globalStorage` folder:
 * `<Kiro user dir>/User/globalStorage/kiro.kiroagent/workspace-sessions/<workspace key>/`, one
 * `<sessionId>.json` per chat in Continue's session shape (`{sessionId, title,
 * workspaceDirectory, history: [{message: {role, content}, ...}]}`) plus a `sessions.json` index
 * (`[{sessionId, title, dateCreated, workspaceDirectory}]`); the workspace key is the workspace
 * path in base64. Kiro's source is not public: these facts come from public descriptions (third-
 * party readers of the folder found by code search, which agree on the layout) and from Kiro being
 * built on Continue (Continue's `core/util/history.ts` writes the same two files). Not read here:
 * the per-execution logs beside `workspace-sessions` (`<32 hex>/<hash>/<executionId>`), which
 * third-party readers say hold the full tool trajectory that the session file only summarises.
 * The Kiro user dirs are the `globalStorage` folders the platform module finds for "Kiro"
 * (desktop `~/.config/Kiro`, `~/Library/Application Support/Kiro`, `%APPDATA%\Kiro`, and the
 * `.kiro-server` remote folder).
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { type StoreEntries, storeEntries } from '../link-loop'
import { readRegularFile, statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of `workspace-sessions/<key>/<id>.json`. */
export const FORMAT_KIRO_SESSION = 'kiro-workspace-session-json'
/** Kiro's agent extension id (its `globalStorage` folder name). */
export const KIRO_EXTENSION_ID = 'kiro.kiroagent'

const AGENT = 'kiro' as const

/** Every `workspace-sessions` folder candidate under `layout` (existing or not). */
export function kiroSessionRoots(layout: HomeLayout): string[] {
  const p = pathApiFor(layout.home)
  return layout.globalStorage.filter((g) => g.editor.startsWith('Kiro')).map((g) => p.join(g.dir, KIRO_EXTENSION_ID, 'workspace-sessions'))
}

/**
 * The folders and files of `dir` (agents/link-loop.ts `storeEntries`: a link that loops or leads above,
 * and a folder named like a chat file, are named in a warning and in neither list), or undefined.
 */
async function listDir(dir: string, diagnostics: Diagnostic[]): Promise<StoreEntries | undefined> {
  try {
    return await storeEntries(dir, await readdir(dir, { withFileTypes: true }), AGENT, diagnostics, (n) => n.endsWith('.json'))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: AGENT })
    return undefined
  }
}

/** List Kiro chats under `layout`. Never throws: unreadable folders and indexes are diagnostics. */
export async function discoverKiro(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  for (const root of [...new Set(kiroSessionRoots(layout))]) {
    const workspaces = await listDir(root, diagnostics)
    for (const ws of workspaces?.folders ?? []) {
      const dir = p.join(root, ws)
      const names = (await listDir(dir, diagnostics))?.files ?? []
      const index = new Map<string, Record<string, unknown>>()
      const indexPath = p.join(dir, 'sessions.json')
      if (names.includes('sessions.json')) {
        try {
          const list: unknown = JSON.parse(await readRegularFile(indexPath))
          if (!Array.isArray(list)) throw new Error('not a list')
          for (const e of list) {
            const entry = typeof e === 'object' && e !== null ? (e as Record<string, unknown>) : undefined
            if (entry && typeof entry.sessionId === 'string') index.set(entry.sessionId, entry)
          }
        } catch (e) {
          diagnostics.push({ severity: 'warning', path: indexPath, message: `the session index cannot be read (${(e as Error).message}); session files are listed without it`, agent: AGENT })
        }
      }
      for (const name of names) {
        if (!name.endsWith('.json') || name === 'sessions.json') continue
        const id = name.slice(0, -'.json'.length)
        const path = p.join(dir, name)
        const s = await statSessionFile(path, AGENT, diagnostics)
        if (!s) continue
        const entry = index.get(id)
        refs.push({ agent: AGENT, sessionId: id, format: FORMAT_KIRO_SESSION, files: [path], size: s.size, mtimeMs: s.mtimeMs, home: layout.home, hints: { workspaceKey: ws, ...(entry && { index: entry }) } })
      }
    }
  }
  return { refs, diagnostics }
}
