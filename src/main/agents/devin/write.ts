/**
 * Write a prepared session (src/main/convert/prepare.ts) as a new Devin CLI session in
 * `sessions.db`, which `devin --resume <id>` continues. No Devin CLI runs here: the output is
 * verified by reading it back with Sepia's Devin reader and against the documented schema.
 *
 * Store facts (`shared/formats/cursor-devin-atif-acp.md` C1-C5; seed 002 "Devin CLI"):
 * - the database is `$XDG_DATA_HOME/devin/cli/sessions.db` (default `~/.local/share`, also on
 *   macOS), on Windows `%LOCALAPPDATA%\devin\cli` (C1); an existing store in any folder the reader
 *   probes (`discover.ts` `storeRoots`) is used first;
 * - one `sessions` row: `id` a two-word slug (`quiet-harbor`, C3), `working_directory` the project
 *   folder, `created_at`/`last_activity_at` in **unix seconds**, `main_chain_id` = the last node,
 *   `hidden = 0`, `agent_mode = 'normal'`, `workspace_dirs = '[]'` (C3); `model`, `backend_type`
 *   and the `core/model` cog of `cogs_json` are taken from the newest session already in the
 *   database (seed 002 "Resumable via: ... cogs_json scaffolding (sepia grafts core/model cog from
 *   donors when importing)"), else `backend_type = 'windsurf'` (C3 "seen"), the source's model
 *   when it is a Devin session (else `''`, which C3 allows), no cogs;
 * - the `message_nodes` chain, `tool_call_state` and `prompt_history` rows: `write-messages.ts`;
 * - the origin is recorded in the `sessions.metadata` JSON (C2 migration 16
 *   `add_session_json_metadata`; seed 002 "Tables": "metadata carries total_credit_cost, ...") as
 *   `imported_from: {agent, session_id, path, imported_at, importer: "sepia", model}`.
 * No ATIF `transcripts/<id>.json` is written: the CLI resumes from `sessions.db` (seed 002
 * "Resumable via: devin acp (loadSession) reading sessions.db"), rewrites that file itself after
 * every step (D "Devin's ATIF output"), and it is not always present (C1 "observed empty"); a
 * second copy would only add a file that can disagree with the database.
 * Every row goes in one transaction after a backup copy of an existing database
 * (`addRowWithBackup`); a missing database is created with the real schema (`schema.ts`).
 * Resume command: `-r/--resume <SESSION_ID>` (C1, docs.devin.ai cli/reference/commands).
 */
import { existsSync } from 'node:fs'
import { rmdir } from 'node:fs/promises'
import { SepiaError } from '../../../shared/api'
import { type ConvertWarning, quoteArg } from '../../../shared/convert'
import type { Session } from '../../../shared/ir'
import { addRowWithBackup, type ExtraRow } from '../../util/sqlite-row'
import { type HomeLayout, pathApiFor } from '../../platform'
import { openSqliteReadOnly } from '../../util/sqlite'
import type { WriteOptions, WriteResult } from '../types'
import { columns } from './db'
import { storeRoots } from './discover'
import { newDatabaseSchema } from './schema'
import { devinRows } from './write-messages'
import { ADJECTIVES, NOUNS } from './write-words'

/**
 * The store folder to write into: the first probed folder that has a `sessions.db`, else the one the
 * CLI creates (`%LOCALAPPDATA%\devin\cli` for a Windows home, `<XDG data>/devin/cli` otherwise; C1).
 */
export function devinStoreDir(layout: HomeLayout): string {
  const p = pathApiFor(layout.home)
  const existing = storeRoots(layout).find((r) => existsSync(p.join(r, 'sessions.db')))
  if (existing) return existing
  const base = layout.os === 'win32' && layout.localAppData ? layout.localAppData : layout.xdgDataHome
  return p.join(base, 'devin', 'cli')
}

/** A two-word slug (C3) from a UUID: an adjective and a noun chosen by its hex digits. */
export function devinSessionId(uuid: string): string {
  const hex = uuid.replace(/[^0-9a-f]/gi, '').padEnd(8, '0')
  return `${ADJECTIVES[parseInt(hex.slice(0, 4), 16) % ADJECTIVES.length]}-${NOUNS[parseInt(hex.slice(4, 8), 16) % NOUNS.length]}`
}

/** What the target database already holds: session ids and the newest session (the donor). */
interface Existing {
  ids: Set<string>
  donor?: { model?: string; backendType?: string; cogsJson?: string }
}

/** Read `db` through a temporary copy (nothing is created beside it). Throws when it is not a database. */
function readExisting(db: string): Existing {
  if (!existsSync(db)) return { ids: new Set() }
  const h = openSqliteReadOnly(db)
  try {
    const have = columns(h.db, 'sessions')
    if (!have.has('id')) return { ids: new Set() }
    const ids = new Set((h.db.prepare('SELECT id FROM sessions').all() as { id: unknown }[]).map((r) => String(r.id)))
    const want = ['model', 'backend_type', 'cogs_json'].filter((c) => have.has(c))
    const order = have.has('last_activity_at') ? 'last_activity_at DESC, rowid DESC' : 'rowid DESC'
    const hidden = have.has('hidden') ? 'WHERE hidden = 0' : ''
    const row = want.length ? (h.db.prepare(`SELECT ${want.join(', ')} FROM sessions ${hidden} ORDER BY ${order} LIMIT 1`).get() as Record<string, unknown> | undefined) : undefined
    if (!row) return { ids }
    const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined)
    const donor: NonNullable<Existing['donor']> = {}
    if (text(row.model)) donor.model = text(row.model)
    if (text(row.backend_type)) donor.backendType = text(row.backend_type)
    if (text(row.cogs_json)) donor.cogsJson = text(row.cogs_json)
    return { ids, donor }
  } finally {
    h.close()
  }
}

/**
 * The donor's `core/model` cog alone, as `cogs_json` (seed 002 "Resumable via"), or null. The
 * column's layout is undocumented: an object keyed by cog key (`{"core/model": ...}`), nested
 * (`{"core": {"model": ...}}`), or an array of cogs naming their `key` are recognised; anything
 * else grafts nothing.
 */
export function graftCogs(donor: string | undefined): string | null {
  if (!donor) return null
  try {
    const v = JSON.parse(donor) as unknown
    if (Array.isArray(v)) {
      const kept = v.filter((c) => typeof c === 'object' && c !== null && (c as Record<string, unknown>).key === 'core/model')
      return kept.length ? JSON.stringify(kept) : null
    }
    if (typeof v !== 'object' || v === null) return null
    const o = v as Record<string, unknown>
    if (o['core/model'] !== undefined) return JSON.stringify({ 'core/model': o['core/model'] })
    const core = o.core
    if (typeof core === 'object' && core !== null && (core as Record<string, unknown>).model !== undefined) return JSON.stringify({ core: { model: (core as Record<string, unknown>).model } })
  } catch {
    // not JSON: nothing to graft
  }
  return null
}

const seconds = (ms: number) => Math.floor(ms / 1000)
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')

/** Folders on the way to `dir` that do not exist yet (deepest first), to remove after a failure. */
function missingDirs(dir: string, layout: HomeLayout): string[] {
  const p = pathApiFor(layout.home)
  const out: string[] = []
  for (let d = dir; !existsSync(d) && p.dirname(d) !== d; d = p.dirname(d)) out.push(d)
  return out
}

/**
 * Write `session` as a new Devin session under `options.layout` (see the module comment). With
 * `dryRun` nothing is written (an existing database is only read, through a copy). Rejects
 * `WRITE_FAILED` when anything fails; the database is then as it was and no file is left behind.
 */
export async function writeDevinSession(session: Session, options: WriteOptions): Promise<WriteResult> {
  const dir = devinStoreDir(options.layout)
  const dbPath = pathApiFor(options.layout.home).join(dir, 'sessions.db')
  const now = options.now()
  let existing: Existing
  try {
    existing = readExisting(dbPath)
  } catch (e) {
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not read Devin's session database: ${(e as Error).message}. Nothing was written.`, path: dbPath })
  }
  let id = devinSessionId(options.newId())
  for (let k = 0; k < 20 && existing.ids.has(id); k++) id = devinSessionId(options.newId())
  if (existing.ids.has(id)) id = `${id}-${options.newId().replace(/[^0-9a-f]/gi, '').slice(0, 6)}`
  const cwd = session.workingDirectory ?? options.layout.home
  const output = { sessionId: id, files: [dbPath], resumeCommand: `devin --resume ${quoteArg(id, options.layout.os)}`, cwd, backups: [] as string[] }
  const warnings: ConvertWarning[] = [{ kind: 'usage-not-representable', count: session.nodes.filter((n) => n.usage?.cost !== undefined).length }]
  if (options.dryRun) return { output, warnings }

  const start = session.createdAt ?? now
  const rows = devinRows(session.nodes, { cwd, startMs: start, newId: options.newId })
  const prompt = session.nodes.find((n) => n.role === 'user' && n.content.trim() !== '')?.content.trim().split('\n')[0]
  const origin: Record<string, unknown> = { agent: options.sourceRef.agent, session_id: options.sourceRef.sessionId }
  if (options.sourceRef.path) origin.path = options.sourceRef.path
  origin.imported_at = new Date(now).toISOString()
  origin.importer = 'sepia'
  if (session.model) origin.model = session.model
  const donor = existing.donor
  const row = {
    id,
    working_directory: cwd,
    backend_type: donor?.backendType ?? 'windsurf',
    model: donor?.model ?? (options.sourceRef.agent === 'devin' ? (session.model ?? '') : ''),
    agent_mode: 'normal',
    created_at: seconds(start),
    last_activity_at: seconds(Math.max(session.lastActivityAt ?? 0, rows.lastMs)),
    title: session.title ?? (prompt ? prompt.slice(0, 100) : `Imported from ${options.sourceRef.agent}`),
    main_chain_id: rows.head,
    shell_last_seen_index: 0,
    cogs_json: graftCogs(donor?.cogsJson),
    workspace_dirs: '[]',
    hidden: 0,
    metadata: JSON.stringify({ imported_from: origin }),
  }
  const more: ExtraRow[] = [
    ...rows.nodes.map((n) => ({ table: 'message_nodes', row: { session_id: id, ...n } })),
    ...rows.toolStates.map((t) => ({ table: 'tool_call_state', row: { session_id: id, ...t }, optional: true })),
    ...rows.prompts.map((p) => ({ table: 'prompt_history', row: { session_id: id, ...p }, optional: true })),
  ]
  const created = missingDirs(dir, options.layout)
  try {
    const added = await addRowWithBackup({ dbPath, schema: newDatabaseSchema(isoSeconds(now)), table: 'sessions', row, more, now, ...(options.fault ? { fault: options.fault } : {}) })
    if (added.backup) output.backups.push(added.backup)
  } catch (e) {
    for (const d of created) await rmdir(d).catch(() => undefined)
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the Devin session: ${(e as Error).message}. The database is unchanged.`, path: dbPath })
  }
  return { output, warnings }
}
