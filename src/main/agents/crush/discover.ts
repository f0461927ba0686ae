/**
 * Find Crush sessions under one home. Where Crush keeps `crush.db` (github:charmbracelet/crush):
 * - the project's data dir, `.crush` in the working directory by default
 *   (`internal/config/config.go` `defaultDataDirectory`, `load.go` `setDefaults`): found in the
 *   project folders other agents' sessions name and in a walk of the home down to 5 levels
 *   ({@link findProjectFolders}, `../project-folders.ts`);
 * - the global data dir (`load.go` `GlobalConfigData`/`GlobalWorkspaceDir`):
 *   `$CRUSH_GLOBAL_DATA` (own home only), else `$XDG_DATA_HOME/crush`, else
 *   `~/.local/share/crush` (Linux and macOS) or `%LOCALAPPDATA%\crush` (Windows). It is the
 *   working dir of `crush server`'s global workspace, whose store is `<global>/.crush/crush.db`
 *   (the default data dir inside it; `<global>/crush.db` is looked at too), and it holds
 *   `projects.json` (`internal/projects/projects.go`:
 *   `{ projects: [{ path, data_dir, last_accessed }] }`), whose `data_dir`s are looked in too.
 * Each database is opened (on a temporary copy) to list its `sessions` rows; one ref per row.
 */
import { readFile, stat } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { folderNamedLikeFileMessage, loopMessage } from '../link-loop'
import { findProjectFolders } from '../project-folders'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'
import { sessionRows, walFrames, withCrushDb } from './db'

/** Store generation of `crush.db` sessions. */
export const FORMAT_CRUSH_DB = 'crush-sqlite'
/** Crush's default per-project data folder and its database file. */
export const DATA_DIR = '.crush'
export const DB_FILE = 'crush.db'

/**
 * Size and mtime of a regular file; undefined when it is absent. A special file in its place (a
 * FIFO, a device, a link to one), a folder so named or a link that loops (agents/link-loop.ts) is
 * never opened: it becomes a warning in `diagnostics`.
 */
async function fileStat(path: string, diagnostics: Diagnostic[]): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const s = await stat(path)
    if (s.isFile()) return { size: s.size, mtimeMs: s.mtimeMs }
    const message = s.isDirectory() ? folderNamedLikeFileMessage(path) : 'not a regular file (a FIFO, device or link to one); not read'
    diagnostics.push({ severity: 'warning', skipped: 1, path, message, agent: 'crush' })
    return undefined
  } catch (e) {
    const loop = loopMessage(path, e)
    if (loop) diagnostics.push({ severity: 'warning', skipped: 1, path, message: loop, agent: 'crush' })
    return undefined
  }
}

/** Crush's global data dir for `layout` (see the module doc). */
export function crushGlobalDir(layout: HomeLayout): string | undefined {
  const p = pathApiFor(layout.home)
  const env = layout.isOwnHome ? process.env['CRUSH_GLOBAL_DATA'] : undefined
  if (env) return env
  if (layout.os === 'win32') return layout.localAppData ? p.join(layout.localAppData, 'crush') : undefined
  return p.join(layout.xdgDataHome, 'crush')
}

/** List Crush sessions under `layout`. Never throws: an unreadable database is a diagnostic. */
export async function discoverCrush(layout: HomeLayout, ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  /** Data dir → the project folder it belongs to (when known). */
  const dataDirs = new Map<string, string | undefined>()
  /** Data dirs named by the catalog's projects or by Crush's projects.json (may lie outside the home). */
  const known = new Set<string>()
  for (const hit of await findProjectFolders(layout, ctx)) {
    if (!hit.markers.has(DATA_DIR)) continue
    dataDirs.set(p.join(hit.dir, DATA_DIR), hit.dir)
    if (hit.known) known.add(p.join(hit.dir, DATA_DIR))
  }
  const global = crushGlobalDir(layout)
  if (global) {
    if (!dataDirs.has(global)) dataDirs.set(global, undefined)
    // The global server workspace's own store: its working dir is the global dir, so its data dir
    // is the default `.crush` inside it (`load.go` GlobalWorkspaceDir, setDefaults).
    const serverDir = p.join(global, DATA_DIR)
    if (!dataDirs.has(serverDir)) dataDirs.set(serverDir, undefined)
    const listPath = p.join(global, 'projects.json')
    let text: string | undefined
    try {
      text = await readFile(listPath, 'utf8')
    } catch {
      text = undefined
    }
    if (text !== undefined) {
      try {
        const list = JSON.parse(text) as { projects?: { path?: unknown; data_dir?: unknown }[] }
        for (const pr of Array.isArray(list.projects) ? list.projects : []) {
          if (typeof pr?.data_dir === 'string' && !dataDirs.has(pr.data_dir)) {
            dataDirs.set(pr.data_dir, typeof pr.path === 'string' ? pr.path : undefined)
            known.add(pr.data_dir)
          }
        }
      } catch (e) {
        diagnostics.push({ severity: 'warning', path: listPath, message: `projects.json is not valid JSON: ${(e as Error).message}`, agent: 'crush' })
      }
    }
  }
  const seenDb = new Set<string>()
  for (const [dir, projectDir] of dataDirs) {
    const db = p.join(dir, DB_FILE)
    if (seenDb.has(db)) continue
    seenDb.add(db)
    const s = await fileStat(db, diagnostics)
    if (!s) continue
    const files = [db]
    let size = s.size
    let mtimeMs = s.mtimeMs
    const wal = await fileStat(`${db}-wal`, diagnostics)
    if (wal) {
      files.push(`${db}-wal`)
      size += wal.size
      mtimeMs = Math.max(mtimeMs, wal.mtimeMs)
    }
    if (wal && wal.size > 0) {
      const w = walFrames(`${db}-wal`)
      // A frame SQLite cannot verify ends what it reads of the WAL: later rows are silently lost.
      if (w && w.valid < w.frames) diagnostics.push({ severity: 'warning', path: `${db}-wal`, message: `the -wal is damaged at frame ${w.valid + 1} of ${w.frames}: SQLite ignores it from there, so rows written after it are not shown`, agent: 'crush' })
    }
    try {
      const rows = withCrushDb(db, sessionRows)
      for (const r of rows) {
        if (typeof r.id !== 'string' || r.id === '') continue
        refs.push({
          agent: 'crush', sessionId: r.id, format: FORMAT_CRUSH_DB, files, size, mtimeMs, home: layout.home,
          ...(r.parent_session_id ? { parentSessionId: r.parent_session_id } : {}),
          hints: { dataDir: dir, ...(projectDir ? { projectDir } : {}), ...(known.has(dir) ? { knownProject: true } : {}) },
        })
      }
    } catch (e) {
      diagnostics.push({ severity: 'warning', skipped: 1, path: db, message: `cannot read Crush database: ${(e as Error).message}`, agent: 'crush' })
      if (wal) diagnostics.push({ severity: 'warning', path: `${db}-wal`, message: 'the database could not be read with this -wal (damaged, or not this database\'s): its rows may sit here', agent: 'crush' })
    }
  }
  return { refs, diagnostics }
}
