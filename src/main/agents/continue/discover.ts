/**
 * Find Continue sessions under one home: `~/.continue/sessions/<sessionId>.json`, one `Session`
 * per file, and `~/.continue/sessions/sessions.json`, the index (`BaseSessionMetadata[]`:
 * `{sessionId, title, dateCreated, workspaceDirectory, messageCount?}`). Facts from
 * continuedev/continue core/util/paths.ts (`getSessionsFolderPath`, `getSessionFilePath`,
 * `getSessionsListPath`; the folder is `CONTINUE_GLOBAL_DIR` or `~/.continue`, the same on every
 * OS) and core/util/history.ts (`HistoryManager.list/load/save`). The IDE extensions and the CLI
 * (`@continuedev/cli`) share this folder. A session file missing from the index is still listed
 * (Continue's own list would hide it); an index entry with no file is an info note. The index
 * entry is passed to the reader as a hint.
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { storeEntries } from '../link-loop'
import { readRegularFile, statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of `sessions/<id>.json`. */
export const FORMAT_SESSION = 'continue-session-json'

const AGENT = 'continue' as const

/** The sessions folder under `layout`. */
export function continueSessionsDir(layout: HomeLayout): string {
  const p = pathApiFor(layout.home)
  return p.join(layout.home, '.continue', 'sessions')
}

/** List Continue sessions under `layout`. Never throws: an unreadable folder or index is a diagnostic. */
export async function discoverContinue(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  const dir = continueSessionsDir(layout)
  let names: string[]
  try {
    // A link that loops or leads above, and a folder named like a session file, are named, not read (agents/link-loop.ts).
    names = (await storeEntries(dir, await readdir(dir, { withFileTypes: true }), AGENT, diagnostics, (n) => n.endsWith('.json'))).files
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: AGENT })
    return { refs, diagnostics }
  }
  const indexPath = p.join(dir, 'sessions.json')
  const index = new Map<string, Record<string, unknown>>()
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
  const seen = new Set<string>()
  for (const name of names) {
    if (!name.endsWith('.json') || name === 'sessions.json') continue
    const id = name.slice(0, -'.json'.length)
    const path = p.join(dir, name)
    const s = await statSessionFile(path, AGENT, diagnostics)
    if (!s) continue
    seen.add(id)
    const entry = index.get(id)
    refs.push({ agent: AGENT, sessionId: id, format: FORMAT_SESSION, files: [path], size: s.size, mtimeMs: s.mtimeMs, home: layout.home, ...(entry && { hints: { index: entry } }) })
  }
  for (const id of index.keys()) {
    if (!seen.has(id)) diagnostics.push({ severity: 'info', path: indexPath, message: `index entry ${id} has no session file`, agent: AGENT })
  }
  return { refs, diagnostics }
}
