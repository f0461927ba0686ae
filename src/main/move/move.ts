/**
 * Moving a session to another project folder on the same machine (issue 19: "The same operation
 * moves a session to another project folder"): the session is bundled in memory
 * (`bundle/move.ts`), installed into the same home under the new folder (`install.ts`, read back
 * there), and only then is anything done with the original.
 *
 * Decision (never lose data): the original is kept by default, so a move is a copy under the new
 * folder. Because the original still holds the session id, the copy gets a new id (the agents
 * resume by id; two files with one id would be ambiguous). With `removeOriginal`, after the copy
 * read back right, the original is first written as a move bundle zip into Sepia's data folder
 * (`<app data>/moved/<time>-<agent>-<id>.zip`, read back and checked against its manifest), then
 * its files are removed (and its index rows — Codex `threads`, Cline `sessions` — after a backup
 * copy of the database).
 * `sepia install-bundle <that zip>` puts it back.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm, rmdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { SepiaError } from '../../shared/api'
import type { MoveSessionResult } from '../../shared/move'
import type { AgentDefinition, ReadContext } from '../agents/types'
import { codexHomeOf } from '../agents/codex/discover'
import { codexStateDb, gatherMoveBundle, readMoveBundle, writeMoveBundle } from '../bundle/move'
import { deleteRowsWithBackup, fileStamp } from '../util/sqlite-row'
import type { HomeLayout } from '../platform'
import { installMoveBundle, type InstallResult } from './install'
import { segmentsBelow } from './paths'

/** Options of {@link moveSession}. */
export interface MoveOptions {
  layout: HomeLayout
  agent: AgentDefinition
  sessionId: string
  /** The new project folder (absolute, this machine's style). */
  toProject: string
  /** Remove the original after the copy read back right (a backup is kept in `appDataDir`). */
  removeOriginal?: boolean
  /** Sepia's data folder (backups of removed originals). */
  appDataDir: string
  ctx: ReadContext
  now(): number
  newId(): string
  createdBy: string
}

/** What a move did (src/shared/move.ts). */
export type MoveResult = MoveSessionResult

/**
 * Move (see the module comment). Rejects `BAD_ARGUMENT` when the session already lives in that
 * folder, and like `gatherMoveBundle` / `installMoveBundle`; a failure after the copy was
 * installed (writing the backup) leaves the original untouched.
 */
export async function moveSession(o: MoveOptions): Promise<MoveResult> {
  const bundle = await gatherMoveBundle({ layout: o.layout, agent: o.agent, sessionId: o.sessionId, ctx: o.ctx, createdBy: o.createdBy })
  const from = bundle.manifest.move.projectPath
  if (segmentsBelow(o.toProject.trim(), from)?.length === 0) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The session already lives in ${from}.` })
  const install = await installMoveBundle({ bundle, layout: o.layout, project: o.toProject, now: o.now, newId: o.newId, ctx: o.ctx })
  const original: MoveResult['original'] = { sessionId: o.sessionId, kept: true, removed: [], databaseBackups: [] }
  if (!o.removeOriginal) return { install, original }

  const backup = join(o.appDataDir, 'moved', `${fileStamp(o.now())}-${o.agent.id}-${o.sessionId}.zip`)
  await writeMoveBundle(bundle, backup)
  const check = await mkdtemp(join(tmpdir(), 'sepia-move-check-'))
  try {
    await readMoveBundle(backup, check) // every file against the manifest's sha256
  } finally {
    await rm(check, { recursive: true, force: true })
  }
  original.backup = backup
  const written = new Set(install.files)
  const dirs = new Set<string>()
  for (const f of bundle.files) {
    if (!f.source || written.has(f.source)) continue
    await rm(f.source, { force: true })
    original.removed.push(f.source)
    for (let d = dirname(f.source); d.length > o.layout.home.length; d = dirname(d)) dirs.add(d)
  }
  // Folders the removed files leave empty (the session folder, its file history); never a project folder with other sessions.
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) await rmdir(d).catch(() => undefined)
  if (o.agent.id === 'codex') {
    const db = await codexStateDb(codexHomeOf(o.layout))
    const ids = [o.sessionId, ...bundle.manifest.move.subagentIds]
    if (db) {
      const r = await deleteRowsWithBackup({ dbPath: db, now: o.now(), deletes: [{ table: 'threads', column: 'id', values: ids }, { table: 'thread_spawn_edges', column: 'child_thread_id', values: ids, optional: true }] })
      original.databaseBackups.push(r.backup)
    }
  }
  if (o.agent.id === 'cline') {
    const db = join(o.layout.clineDataDir, 'db', 'sessions.db')
    const ids = [o.sessionId, ...bundle.manifest.move.subagentIds]
    if (existsSync(db)) {
      const r = await deleteRowsWithBackup({ dbPath: db, now: o.now(), deletes: [{ table: 'sessions', column: 'session_id', values: ids }, { table: 'sessions', column: 'parent_session_id', values: [o.sessionId] }] })
      original.databaseBackups.push(r.backup)
    }
  }
  original.kept = false
  return { install, original }
}
