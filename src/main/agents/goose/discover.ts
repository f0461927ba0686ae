/**
 * Find Goose sessions under one home. Goose keeps them in `<data dir>/goose/sessions/`
 * (block/goose crates/goose/src/session/session_manager.rs @01643006 `ensure_session_dir`:
 * `Paths::data_dir().join("sessions")`; the data dir is `~/.local/share/goose` on Linux and macOS,
 * as in the public real sample from a Mac, and `%APPDATA%\Block\goose\data` on Windows):
 * - `sessions.db` (SQLite, Goose ≥ 1.10): one ref per row of its `sessions` table, every row,
 *   including sessions with no messages (Goose's own list joins `messages` and so hides them;
 *   fixtures/public-real/goose/empty-cli-session must still show).
 * - `<name>.jsonl` (older Goose, crates/goose/src/session/storage.rs @01a262b2): one ref per file,
 *   the session id is the file name without `.jsonl`. A file whose name is also a row of
 *   `sessions.db` was imported into it by Goose (`import_legacy`) and is left out (info note).
 * The database is read from a temporary copy ({@link openSqliteReadOnly}); nothing is written
 * beside it.
 */
import { readdir } from 'node:fs/promises'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import { storeEntries } from '../link-loop'
import { openSqliteReadOnly } from '../../util/sqlite'
import { statRegular, statSessionFile } from '../../util/regular-file'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'

/** Store generation of `sessions.db` sessions. */
export const FORMAT_SQLITE = 'goose-sqlite'
/** Store generation of legacy `sessions/<name>.jsonl` files. */
export const FORMAT_JSONL = 'goose-jsonl'

/** The `sessions/` folders Goose may use under `layout` (Linux/macOS XDG data dir; Windows roaming AppData). */
export function gooseSessionDirs(layout: HomeLayout): string[] {
  const p = pathApiFor(layout.home)
  const dirs = [p.join(layout.xdgDataHome, 'goose', 'sessions')]
  if (layout.os === 'win32') dirs.push(p.join(layout.configRoot, 'Block', 'goose', 'data', 'sessions'))
  return [...new Set(dirs)]
}

/** List Goose sessions under `layout`. Never throws: an unreadable folder or database is a diagnostic. */
export async function discoverGoose(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const refs: StoreRef[] = []
  const p = pathApiFor(layout.home)
  for (const dir of gooseSessionDirs(layout)) {
    let names: string[]
    try {
      // A link that loops or leads above, and a folder named like a session file, are named, not read (agents/link-loop.ts).
      names = (await storeEntries(dir, await readdir(dir, { withFileTypes: true }), 'goose', diagnostics, (n) => n.endsWith('.jsonl'))).files
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: 'goose' })
      continue
    }
    const dbIds = new Set<string>()
    const db = p.join(dir, 'sessions.db')
    const dbStat = await statSessionFile(db, 'goose', diagnostics)
    if (dbStat) {
      const files = [db]
      let { size, mtimeMs } = dbStat
      const wal = await statRegular(`${db}-wal`)
      if (wal) {
        files.push(`${db}-wal`)
        size += wal.size
        mtimeMs = Math.max(mtimeMs, wal.mtimeMs)
      }
      try {
        const h = openSqliteReadOnly(db)
        try {
          const rows = h.db.prepare('SELECT id FROM sessions ORDER BY id').all() as { id: unknown }[]
          for (const r of rows) {
            if (typeof r.id !== 'string' || r.id === '') continue
            dbIds.add(r.id)
            refs.push({ agent: 'goose', sessionId: r.id, format: FORMAT_SQLITE, files, size, mtimeMs, home: layout.home })
          }
        } finally {
          h.close()
        }
      } catch (e) {
        diagnostics.push({ severity: 'error', path: db, message: `cannot read the sessions table: ${(e as Error).message}`, agent: 'goose' })
      }
    }
    for (const name of names) {
      if (!name.endsWith('.jsonl')) continue
      const id = name.slice(0, -'.jsonl'.length)
      const path = p.join(dir, name)
      if (dbIds.has(id)) {
        diagnostics.push({ severity: 'info', path, message: `legacy session ${id} is also in sessions.db (Goose imported it); the database copy is listed`, agent: 'goose' })
        continue
      }
      const s = await statSessionFile(path, 'goose', diagnostics)
      if (s) refs.push({ agent: 'goose', sessionId: id, format: FORMAT_JSONL, files: [path], size: s.size, mtimeMs: s.mtimeMs, home: layout.home })
    }
  }
  return { refs, diagnostics }
}
