/**
 * Find Zed agent threads under one home. Zed keeps them in `<data dir>/threads/threads.db`
 * (github:zed-industries/zed `crates/agent/src/db.rs` `ThreadsDatabase::new`:
 * `paths::data_dir().join("threads")`, commit 0642ec7e49e2d2c06f55db8c5bb2d4eca0f5223b), where
 * `paths::data_dir()` (`crates/paths/src/paths.rs`) is `$XDG_DATA_HOME/zed` (`~/.local/share/zed`)
 * on Linux, `~/Library/Application Support/Zed` on macOS and `%LOCALAPPDATA%\Zed` on Windows.
 * One ref per `threads` row; a subagent thread names its parent in `parent_id`.
 */
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'
import { folderPaths, threadList, withZedDb } from './db'

/** Store generation of `threads.db` rows. */
export const FORMAT_ZED_THREADS_DB = 'zed-threads-sqlite'

/** Zed's data dir for `layout` (see the module doc); undefined on Windows without a local app-data root. */
export function zedDataDir(layout: HomeLayout): string | undefined {
  const p = pathApiFor(layout.home)
  if (layout.os === 'win32') return layout.localAppData ? p.join(layout.localAppData, 'Zed') : undefined
  if (layout.os === 'darwin') return p.join(layout.home, 'Library', 'Application Support', 'Zed')
  return p.join(layout.xdgDataHome, 'zed')
}

/** The `threads.db` path for `layout`. */
export function zedThreadsDb(layout: HomeLayout): string | undefined {
  const dir = zedDataDir(layout)
  return dir ? pathApiFor(layout.home).join(dir, 'threads', 'threads.db') : undefined
}

/** List Zed threads under `layout`. Never throws: an unreadable database is a diagnostic. */
export async function discoverZed(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const db = zedThreadsDb(layout)
  if (!db) return { refs, diagnostics }
  const s = await statSessionFile(db, 'zed', diagnostics)
  if (!s) return { refs, diagnostics }
  const files = [db]
  let size = s.size
  let mtimeMs = s.mtimeMs
  const wal = await statSessionFile(`${db}-wal`, 'zed', diagnostics)
  if (wal) {
    files.push(`${db}-wal`)
    size += wal.size
    mtimeMs = Math.max(mtimeMs, wal.mtimeMs)
  }
  try {
    for (const r of withZedDb(db, threadList)) {
      if (typeof r.id !== 'string' || r.id === '') {
        // Zed reads `id` as text (`Arc<str>`); a row without one cannot be opened by Zed either.
        diagnostics.push({ severity: 'warning', path: db, line: r.rowid, message: `threads row ${r.rowid} has no text id (${r.id === null ? 'NULL' : typeof r.id === 'object' ? 'a blob' : typeof r.id}); not listed`, agent: 'zed' })
        continue
      }
      const folders = folderPaths(r.folder_paths, r.folder_paths_order)
      refs.push({
        agent: 'zed', sessionId: r.id, format: FORMAT_ZED_THREADS_DB, files, size, mtimeMs, home: layout.home,
        ...(typeof r.parent_id === 'string' && r.parent_id ? { parentSessionId: r.parent_id } : {}),
        hints: { ...(typeof r.summary === 'string' ? { title: r.summary } : {}), ...(folders.length ? { folders } : {}) },
      })
    }
  } catch (e) {
    diagnostics.push({ severity: 'warning', skipped: 1, path: db, message: `cannot read Zed threads database: ${(e as Error).message}`, agent: 'zed' })
  }
  return { refs, diagnostics }
}
