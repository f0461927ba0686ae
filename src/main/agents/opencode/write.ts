/**
 * Write a prepared session (src/main/convert/prepare.ts) as a new session of an OpenCode-family
 * CLI: OpenCode's `<xdg data>/opencode/opencode.db` (`opencode -s <id>` resumes it) or Kilo Code
 * CLI's `<xdg data>/kilo/kilo.db` (`kilo -s <id>`). One writer for both, parameterised by
 * {@link FamilyWriteSpec}.
 *
 * What a resumable session needs (realstores/README.md "OpenCode 1.18.33 and Kilo Code CLI 7.7.7",
 * "Minimal session", from the hand-written probe, resumed for real): a `session` row, `message`
 * rows and their `part` rows (a message without parts is listed but resumes with an empty history);
 * the `project` row is created by the CLI when missing, but the database enforces the foreign key
 * for any other writer, so it is added when missing (`write-project.ts` says which project).
 * Ids: `ses_`/`msg_`/`prt_` + 12 hex digits of `ms * 0x1000 + counter` (bitwise NOT for sessions,
 * so the newest sorts first) + 14 random base62 characters (OpenCode's `Identifier`,
 * packages/opencode/src/id/id.ts; fixtures/real/opencode ids decode to their row times), made at the
 * time of writing (`idClock`); the rows keep the session's own times.
 * The database is copied to a backup before the rows are added, and created with the CLI's own
 * schema and migration list when missing (`write-schema.ts`, `write-schema-kilo.ts`).
 * The origin is recorded in the `session.metadata` JSON column as `{importedFrom: {agent,
 * sessionId, path, importedAt, importer: "sepia"}}`. User messages name the model the home's CLI is
 * set up with (`configuredModel`), else none: `run -s` then takes the CLI's default model, but the
 * terminal UI shows no earlier turn (a model the home cannot reach would stop `run -s` instead).
 */
import Database from 'better-sqlite3'
import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { SepiaError } from '../../../shared/api'
import { type ConvertWarning, isAbsoluteOn, quoteArg } from '../../../shared/convert'
import type { HomeOs, Session } from '../../../shared/ir'
import { addRowWithBackup, type ExtraRow } from '../../util/sqlite-row'
import type { WriteOptions, WriteResult } from '../types'
import { KILO_CONFIG, OPENCODE_CONFIG, type OpencodeFamilyConfig } from './config'
import { familyRows } from './write-rows'
import { configuredModel, hasProject, projectInDb, type ProjectInfo, projectOfFolder } from './write-project'
import { KILO_DB_TABLES, KILO_MIGRATIONS } from './write-schema-kilo'
import { OPENCODE_DB_TABLES, OPENCODE_MIGRATIONS, schemaStatements } from './write-schema'

/** What tells the members apart as write targets. */
export interface FamilyWriteSpec {
  config: OpencodeFamilyConfig
  /** The CLI version whose store this follows (`session.version`). */
  version: string
  /** The primary agent messages name (`build` in OpenCode, `code` in Kilo; fixtures/real). */
  agentName: string
  /** The command that resumes a session: `<command> -s <id>` (both CLIs' `--session`). */
  command: string
  tables: readonly string[]
  migrations: readonly string[]
}

/** OpenCode 1.18.33 (npm `opencode-ai`). */
export const OPENCODE_WRITE: FamilyWriteSpec = { config: OPENCODE_CONFIG, version: '1.18.33', agentName: 'build', command: 'opencode', tables: OPENCODE_DB_TABLES, migrations: OPENCODE_MIGRATIONS }

/** Kilo Code CLI 7.7.7 (npm `@kilocode/cli`). */
export const KILO_WRITE: FamilyWriteSpec = { config: KILO_CONFIG, version: '7.7.7', agentName: 'code', command: 'kilo', tables: KILO_DB_TABLES, migrations: KILO_MIGRATIONS }

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/**
 * An OpenCode id: `<prefix>_` + 12 hex digits of `ms * 0x1000 + counter` (48 bits; inverted when
 * `descending`) + 14 base62 characters taken from the random UUID `uuid`.
 */
export function familyId(prefix: 'ses' | 'msg' | 'prt', ms: number, counter: number, uuid: string, descending: boolean): string {
  const mask = (1n << 48n) - 1n
  let v = (BigInt(Math.trunc(ms)) * 0x1000n + BigInt(counter)) & mask
  if (descending) v = ~v & mask
  let r = BigInt(`0x${uuid.replace(/[^0-9a-f]/gi, '') || '0'}`)
  let tail = ''
  for (let k = 0; k < 14; k++) {
    tail += BASE62[Number(r % 62n)]
    r /= 62n
  }
  return `${prefix}_${v.toString(16).padStart(12, '0')}${tail}`
}

/**
 * Ascending ids made at `ms` (the time of writing): the counter counts up, then the ms. Not from the
 * messages' own times: an id keeps only 48 bits of `ms * 0x1000`, so it wraps every 2^36 ms (about
 * 2.2 years; last on 2026-08-14) and an id made from an older time may sort after the ids the CLI
 * makes when it resumes. Kilo Code 7.7.7 then took the whole history for answered and sent the model
 * only the new prompt (the resume matrix, Devin samples from March 2026).
 */
function idClock(newId: () => string, ms: number): (prefix: 'msg' | 'prt') => string {
  let counter = -1
  return (prefix) => {
    if (++counter > 0xfff) {
      ms++
      counter = 0
    }
    return familyId(prefix, ms, counter, newId(), false)
  }
}

/** `$XDG_STATE_HOME`: beside the data home when that is `<x>/.local/share`, else `~/.local/state`. */
function stateHome(layout: WriteOptions['layout']): string {
  return basename(layout.xdgDataHome) === 'share' && basename(dirname(layout.xdgDataHome)) === '.local' ? join(dirname(layout.xdgDataHome), 'state') : join(layout.home, '.local', 'state')
}

/** The project (see write-project.ts) and whether its row must be added. */
function resolveProject(dbPath: string, cwd: string, cacheName: string, os: HomeOs): { project: ProjectInfo; addRow: boolean } {
  // A folder from another OS (`D:\\src` for a Linux home) is never looked up: `git -C` would resolve
  // it against the folder Sepia runs in (issue 14). It is the global project; the plan warns.
  const folder: ProjectInfo = isAbsoluteOn(cwd, os) ? projectOfFolder(cwd, cacheName) : { id: 'global', worktree: '/' }
  if (!existsSync(dbPath)) return { project: folder, addRow: true }
  const db = new Database(dbPath, { readonly: true, fileMustExist: true })
  try {
    const known = folder.cached ? undefined : projectInDb(db, cwd)
    const project = known ? { ...folder, id: known } : folder
    return { project, addRow: !hasProject(db, project.id) }
  } finally {
    db.close()
  }
}

/**
 * Write `session` as a new session of `spec`'s CLI under `options.layout` (see the module comment).
 * With `dryRun` nothing is written. Rejects `WRITE_FAILED` when anything fails; the database is then
 * as it was (the rows are added in one transaction) and no backup is left.
 */
export async function writeFamilySession(session: Session, options: WriteOptions, spec: FamilyWriteSpec): Promise<WriteResult> {
  const { config } = spec
  const dbPath = join(options.layout.xdgDataHome, config.dataDirName, `${config.dbName}.db`)
  const now = options.now()
  const created = Math.min(session.createdAt ?? now, now)
  const id = familyId('ses', now, 0, options.newId(), true)
  const cwd = session.workingDirectory ?? options.layout.home
  const output = { sessionId: id, files: [dbPath], resumeCommand: `${spec.command} -s ${quoteArg(id, options.layout.os)}`, cwd, backups: [] as string[] }
  const keepInputUsage = options.sourceRef.agent === config.id
  const warnings: ConvertWarning[] = [
    { kind: 'input-usage-dropped', count: keepInputUsage ? 0 : session.nodes.filter((n) => n.usage?.inputTokens !== undefined || n.usage?.cacheReadTokens !== undefined).length },
  ]
  if (options.dryRun) return { output, warnings }

  try {
    const { project, addRow } = resolveProject(dbPath, cwd, config.dataDirName, options.layout.os)
    const userModel = configuredModel(options.layout.xdgConfigHome, stateHome(options.layout), config.dataDirName)
    const { messages, parts } = familyRows(session.nodes, {
      sessionId: id,
      agentName: spec.agentName,
      cwd,
      root: project.worktree === '/' ? cwd : project.worktree,
      ...(userModel ? { userModel } : {}),
      ...(session.model ? { sessionModel: session.model } : {}),
      keepInputUsage,
      newId: idClock(options.newId, now),
      now,
      start: created,
    })
    const prompt = session.nodes.find((n) => n.role === 'user' && n.content.trim() !== '')?.content.trim().split('\n')[0]
    const title = session.title ?? (prompt ? (prompt.length > 100 ? `${prompt.slice(0, 97)}...` : prompt) : `Imported from ${options.sourceRef.agent}`)
    const importedFrom: Record<string, unknown> = { agent: options.sourceRef.agent, sessionId: options.sourceRef.sessionId }
    if (options.sourceRef.path) importedFrom.path = options.sourceRef.path
    Object.assign(importedFrom, { importedAt: new Date(now).toISOString(), importer: 'sepia' })
    const updated = messages.reduce((t, m) => Math.max(t, m.time_updated), created)
    const sessionRow = {
      id,
      project_id: project.id,
      slug: `imported-${options.newId().replace(/[^0-9a-z]/gi, '').slice(0, 6).toLowerCase()}`,
      directory: cwd,
      title,
      version: spec.version,
      metadata: JSON.stringify({ importedFrom }),
      time_created: created,
      time_updated: updated,
    }
    const rows: ExtraRow[] = []
    if (addRow) {
      const p = { id: project.id, worktree: project.worktree, vcs: project.vcs ?? null, time_created: now, time_updated: now, sandboxes: '[]' }
      rows.push({ table: 'project', row: p })
    }
    rows.push({ table: 'session', row: sessionRow })
    for (const m of messages) rows.push({ table: 'message', row: { ...m } })
    for (const p of parts) rows.push({ table: 'part', row: { ...p } })
    const [first, ...more] = rows
    const schema = ['PRAGMA journal_mode = WAL', ...schemaStatements(spec.tables, spec.migrations, now)]
    const added = await addRowWithBackup({ dbPath, schema, table: first!.table, row: first!.row, more, now, ...(options.fault ? { fault: options.fault } : {}) })
    if (added.backup) output.backups.push(added.backup)
  } catch (e) {
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the ${config.displayName} session: ${(e as Error).message}. Nothing was left behind.`, path: dbPath })
  }
  return { output, warnings }
}
