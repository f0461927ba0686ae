/**
 * Install a move bundle (`src/main/bundle/move.ts`) into a home's agent store with the project
 * path remapped (issue 19 "Move to another machine or folder"), so that the agent's own resume
 * (`claude --resume <id>`, `codex resume <id>`) continues it in the new project folder.
 *
 * What is rewritten (`paths.ts` `remapJsonPaths`: the keys that record a folder):
 * - Claude Code: the project folder name — `<config>/projects/<cwd with every UTF-16 unit that is
 *   not [A-Za-z0-9] as "-", cut at 200 + "-" + base36 hash>/` (`claudeProjectFolder`, the same rule
 *   as Claude Code 2.1.332's own function in its binary: `replace(/[^a-zA-Z0-9]/g,"-")`, 200,
 *   `Math.abs(hash).toString(36)`) — every record's `cwd` and every file-history backup's
 *   `realParentDir`; file-history backups themselves are copied byte for byte;
 * - Codex: `session_meta`/`turn_context` `cwd`, `runtime_workspace_roots`, the `<cwd>` of the
 *   `<environment_context>` message, and the `threads` rows (`cwd`, `rollout_path`) added to
 *   `state_5.sqlite` (after a backup copy: `util/sqlite-row.ts` `addRowWithBackup`). A home
 *   without the database gets none: Codex indexes every rollout when it builds it (codex/write.ts).
 * - Cline CLI 3 (SDK store): the manifest's and the `sessions` rows' `cwd` and `workspace_root`,
 *   the `metadata_json` inside the rows, and `messages_path` (Cline's own file, re-rooted at the
 *   target's data folder); the rows are added to `db/sessions.db` after a backup copy (created with
 *   Cline's own schema when missing, `cline/write-schema.ts`).
 * Tool inputs and message text are left as they were (they are what happened then).
 *
 * Ids: the session keeps its id unless that id is already in the target store (the same machine,
 * or installed twice); then it gets a new one (Claude Code a UUID, Codex a UUIDv7 — `codexThreadId`)
 * written everywhere the old one stood, so the original is never touched.
 *
 * Safety: every file is new (an existing file is never replaced: `util/file-transaction.ts`
 * FileTransaction), written under a temporary name and renamed; then the session is read back with
 * the agent's own reader and checked (found under its id, its project folder the new one, as many
 * messages as when it was bundled, no `cwd` left under the old folder). When a check fails,
 * everything written is removed and the call rejects `WRITE_FAILED`. Files get the install time as
 * their modification time: Claude Code deletes transcripts older than `cleanupPeriodDays` by mtime.
 */
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { SepiaError } from '../../shared/api'
import { quoteArg } from '../../shared/convert'
import type { AgentId } from '../../shared/ir'
import type { InstallBundleResult } from '../../shared/move'
import { claudeProjectFolder } from '../agents/claude-code/write'
import { clineSessionId } from '../agents/cline/write'
import { CLINE_SESSIONS_DB_SCHEMA } from '../agents/cline/write-schema'
import { codexHomeOf } from '../agents/codex/discover'
import { codexThreadId, codexThreadRow, configuredModelProvider } from '../agents/codex/write'
import { agentById } from '../agents/registry'
import type { ReadContext } from '../agents/types'
import { codexStateDb, type MoveBundle } from '../bundle/move'
import { FileTransaction } from '../util/file-transaction'
import { addRowWithBackup, deleteRowsWithBackup, type ExtraRow } from '../util/sqlite-row'
import type { HomeLayout } from '../platform'
import { openSqliteReadOnly } from '../util/sqlite'
import { isAbsoluteAnyStyle, pathStyleOf, remapJsonPaths, remapPath, segmentsBelow } from './paths'

/** Options of {@link installMoveBundle}. */
export interface InstallOptions {
  bundle: MoveBundle
  /** The home to install into. */
  layout: HomeLayout
  /** The project folder on this machine; default the one the bundle recorded. */
  project?: string
  /** ms since epoch. */
  now(): number
  /** A fresh UUID v4 (lower case). */
  newId(): string
  ctx: ReadContext
  /** Test hook: called at each write step (throw to simulate a fault). */
  fault?: (step: string) => void
}

/** What an install wrote (src/shared/move.ts). */
export type InstallResult = InstallBundleResult

type Json = Record<string, unknown>

/**
 * Install `o.bundle` (see the module comment). Rejects `BAD_ARGUMENT` (a project path of another
 * OS's style than the home, or not absolute), `CANNOT_WRITE` (an agent Sepia cannot install),
 * `WRITE_FAILED` (nothing left behind: files removed, no row added).
 */
export async function installMoveBundle(o: InstallOptions): Promise<InstallResult> {
  const move = o.bundle.manifest.move
  const from = move.projectPath
  const to = (o.project ?? '').trim() || from
  const homeStyle = o.layout.os === 'win32' ? 'windows' : 'posix'
  if (!isAbsoluteAnyStyle(to)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The project folder must be an absolute path (got "${to}").` })
  if (pathStyleOf(to) !== homeStyle) {
    throw new SepiaError({
      code: 'BAD_ARGUMENT',
      message: `The session's project folder ${to} is a ${pathStyleOf(to) === 'windows' ? 'Windows' : 'Linux/macOS'} path, but this home is a ${homeStyle === 'windows' ? 'Windows' : 'Linux/macOS'} one. Give the folder the project lives in on this computer (--project DIR).`,
    })
  }
  if (move.agent !== 'claude-code' && move.agent !== 'codex' && move.agent !== 'cline') throw new SepiaError({ code: 'CANNOT_WRITE', message: `Sepia cannot install ${move.agent} sessions yet.` })
  const agent = agentById(move.agent)
  const now = o.now()

  // Ids taken in the target store get new ones.
  const { refs } = await agent.discover(o.layout, o.ctx)
  const taken = new Set(refs.map((r) => r.sessionId))
  const codexHome = codexHomeOf(o.layout)
  const dbPath = move.agent === 'codex' ? await codexStateDb(codexHome) : undefined
  if (dbPath) for (const id of threadIdsIn(dbPath)) taken.add(id)
  const idMap = new Map<string, string>()
  if (move.agent === 'claude-code') {
    if (taken.has(move.sessionId)) idMap.set(move.sessionId, o.newId())
  } else if (move.agent === 'cline') {
    // Sub-agent ids are `<session id>__agent_...`: replacing the session id renames them too.
    if (taken.has(move.sessionId)) idMap.set(move.sessionId, clineSessionId(now, o.newId()))
  } else {
    for (const id of [move.sessionId, ...move.subagentIds]) if (taken.has(id)) idMap.set(id, codexThreadId(now, o.newId()))
  }
  const mapIds = (s: string): string => {
    for (const [a, b] of idMap) s = s.split(a).join(b)
    return s
  }
  const newId = (id: string): string => idMap.get(id) ?? id

  // Cline names its own files by absolute path (`messages_path`...): they follow the target store.
  const rebase = move.agent === 'cline' ? clineRebase(o.layout.clineDataDir) : undefined

  // Where each file goes, and its content.
  const staged: { abs: string; bytes: Uint8Array; rel: string }[] = []
  for (const f of o.bundle.files) {
    const target = targetPath(f.path, move.agent, o.layout, codexHome, to, mapIds)
    const isBackup = f.path.startsWith('.claude/file-history/')
    const text = !isBackup && /\.jsonl?$/i.test(f.path)
    const bytes = text ? Buffer.from(mapIds(remapText(f.bytes.toString('utf8'), f.path.endsWith('.jsonl'), from, to, rebase)), 'utf8') : f.bytes
    staged.push({ abs: target, bytes, rel: f.path })
  }

  const tx = new FileTransaction(o.fault)
  const result: InstallResult = {
    agent: move.agent,
    sessionId: newId(move.sessionId),
    originalSessionId: move.sessionId,
    subagentIds: move.subagentIds.map(newId),
    projectPath: to,
    originalProjectPath: from,
    files: staged.map((s) => s.abs),
    backups: [],
    resumeCommand: `${RESUME[move.agent]} ${quoteArg(newId(move.sessionId), o.layout.os)}`,
    readBack: { messages: 0, expectedMessages: o.bundle.nodeCount, workingDirectory: '' },
  }
  let addedRows: string[] = []
  let clineDbCreated = false
  try {
    for (const s of staged) await tx.stage(s.abs, s.bytes)
    await tx.commit()
    o.fault?.('installed')
    result.readBack = await readBack(o, result, from, staged.map((s) => s.abs).filter((p) => p.endsWith('.jsonl')))
    if (move.agent === 'codex' && dbPath) {
      const rollouts = new Map<string, string>()
      for (const s of staged) {
        const id = [move.sessionId, ...move.subagentIds].find((t) => s.rel.includes(t))
        if (id) rollouts.set(id, s.abs)
      }
      const rows = codexRows(move, codexHome, from, to, mapIds, rollouts, now)
      const added = await addRowWithBackup({ dbPath, schema: [], table: 'threads', row: rows.first, more: rows.more, now, ...(o.fault ? { fault: o.fault } : {}) })
      addedRows = [...rollouts.keys()].map(newId)
      if (added.backup) result.backups.push(added.backup)
      result.files.push(dbPath)
      checkRows(dbPath, to, rollouts, newId)
    } else if (move.agent === 'cline' && move.indexRows?.sessions?.length) {
      const clineDb = join(o.layout.clineDataDir, 'db', 'sessions.db')
      const rows = move.indexRows.sessions.map((r) => clineRow(r, from, to, mapIds, rebase!))
      const added = await addRowWithBackup({ dbPath: clineDb, schema: CLINE_SESSIONS_DB_SCHEMA, table: 'sessions', row: rows[0]!, more: rows.slice(1).map((row): ExtraRow => ({ table: 'sessions', row })), now, ...(o.fault ? { fault: o.fault } : {}) })
      addedRows = rows.map((r) => String(r.session_id))
      clineDbCreated = added.created
      if (added.backup) result.backups.push(added.backup)
      result.files.push(clineDb)
      checkClineRows(clineDb, rows)
    }
  } catch (e) {
    await tx.rollback()
    if (addedRows.length && dbPath) {
      await deleteRowsWithBackup({ dbPath, now, deletes: [{ table: 'threads', column: 'id', values: addedRows }, { table: 'thread_spawn_edges', column: 'child_thread_id', values: addedRows, optional: true }] }).catch(() => undefined)
    }
    if (addedRows.length && move.agent === 'cline') {
      const clineDb = join(o.layout.clineDataDir, 'db', 'sessions.db')
      if (clineDbCreated) await rm(clineDb, { force: true })
      else await deleteRowsWithBackup({ dbPath: clineDb, now, deletes: [{ table: 'sessions', column: 'session_id', values: addedRows }] }).catch(() => undefined)
    }
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not install the session: ${(e as Error).message}. Nothing was left behind.` })
  }
  return result
}

/** The command that resumes a session by id, per agent. */
const RESUME: Record<string, string> = { 'claude-code': 'claude --resume', codex: 'codex resume', cline: 'cline --id' }

/** Keys of Cline manifests and `sessions` rows that name Cline's own files. */
const CLINE_STORE_PATHS = new Set(['messages_path', 'transcript_path', 'hook_path'])

/** Re-root a Cline store path (`<data>/sessions/<id>/<file>`) at the target data folder. */
function clineRebase(dataDir: string): (key: string, value: string) => string | undefined {
  return (key, value) => {
    if (!CLINE_STORE_PATHS.has(key) || value === '') return undefined
    const parts = value.split(/[\\/]+/)
    const at = parts.lastIndexOf('sessions')
    return at < 0 ? undefined : join(dataDir, 'sessions', ...parts.slice(at + 1))
  }
}

/** A bundled Cline `sessions` row for the target: ids mapped, folders remapped, store paths re-rooted. */
function clineRow(src: Json, from: string, to: string, mapIds: (s: string) => string, rebase: (key: string, value: string) => string | undefined): Json {
  const row: Json = {}
  for (const [k, v] of Object.entries(src)) {
    if (typeof v !== 'string') row[k] = v
    else if (k === 'metadata_json') row[k] = mapIds(remapText(v, false, from, to))
    else row[k] = mapIds(rebase(k, v) ?? (k === 'cwd' || k === 'workspace_root' ? remapPath(v, from, to) : v))
  }
  return row
}

/** Read the added Cline rows back from the database file. */
function checkClineRows(dbPath: string, rows: Json[]): void {
  const db = openSqliteReadOnly(dbPath)
  try {
    for (const r of rows) {
      const got = db.db.prepare('SELECT cwd, messages_path FROM sessions WHERE session_id = ?').get(r.session_id) as { cwd: string; messages_path: string } | undefined
      if (!got || got.cwd !== r.cwd || got.messages_path !== r.messages_path) throw new SepiaError({ code: 'WRITE_FAILED', message: `The sessions row of ${String(r.session_id)} did not read back right; nothing was left behind.` })
    }
  } finally {
    db.close()
  }
}

/** The absolute target path of a bundle file. */
function targetPath(rel: string, agent: AgentId, layout: HomeLayout, codexHome: string, to: string, mapIds: (s: string) => string): string {
  const parts = mapIds(rel).split('/')
  if (agent === 'claude-code') {
    if (parts[0] !== '.claude') throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The bundle holds ${rel}, outside Claude Code's folder.` })
    if (parts[1] === 'projects' && parts.length > 3) return join(layout.claudeConfigDir, 'projects', claudeProjectFolder(to), ...parts.slice(3))
    return join(layout.claudeConfigDir, ...parts.slice(1))
  }
  if (agent === 'cline') {
    if (parts[0] !== '.cline' || parts[1] !== 'data') throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The bundle holds ${rel}, outside Cline's data folder.` })
    return join(layout.clineDataDir, ...parts.slice(2))
  }
  if (parts[0] !== '.codex') throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The bundle holds ${rel}, outside Codex's folder.` })
  return join(codexHome, ...parts.slice(1))
}

/** A JSONL (one record a line) or JSON file with its project paths re-rooted; unchanged lines stay byte for byte. */
export function remapText(text: string, jsonl: boolean, from: string, to: string, rebase?: (key: string, value: string) => string | undefined): string {
  const one = (s: string): string => {
    const cr = s.endsWith('\r') ? '\r' : ''
    const body = cr ? s.slice(0, -1) : s
    if (body.trim() === '') return s
    try {
      const v = JSON.parse(body) as unknown
      const before = JSON.stringify(v)
      const after = JSON.stringify(remapJsonPaths(v, from, to, undefined, rebase))
      return after === before ? s : after + cr
    } catch {
      return s // a line that is not JSON is kept as it is
    }
  }
  return jsonl ? text.split('\n').map(one).join('\n') : one(text)
}

/** Every `cwd` string (at any depth) of every record of `files`, read from disk. */
async function recordedCwds(files: string[]): Promise<string[]> {
  const out: string[] = []
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'cwd' && typeof x === 'string') out.push(x)
        else walk(x)
      }
    }
  }
  for (const f of files) {
    for (const line of (await readFile(f, 'utf8')).split('\n')) {
      try {
        walk(JSON.parse(line))
      } catch {
        // not JSON
      }
    }
  }
  return out
}

/** Read the installed session back with its agent's reader and check it (see the module comment). */
async function readBack(o: InstallOptions, r: InstallResult, from: string, jsonlFiles: string[]): Promise<InstallResult['readBack']> {
  const agent = agentById(r.agent)
  const { refs } = await agent.discover(o.layout, o.ctx)
  const ref = refs.find((x) => x.sessionId === r.sessionId && !x.parentSessionId)
  const problems: string[] = []
  if (!ref) throw new SepiaError({ code: 'WRITE_FAILED', message: `The installed session ${r.sessionId} was not found when read back; nothing was left behind.` })
  const session = await agent.read(ref, o.ctx)
  const wd = session.workingDirectory ?? ''
  if (segmentsBelow(wd, r.projectPath)?.length !== 0) problems.push(`its project folder reads as "${wd}", not ${r.projectPath}`)
  if (o.bundle.nodeCount > 0 && session.nodes.length !== o.bundle.nodeCount) problems.push(`it reads ${session.nodes.length} entries (messages, tool results and markers), the bundle had ${o.bundle.nodeCount}`)
  for (const sub of r.subagentIds) if (!refs.some((x) => x.sessionId === sub)) problems.push(`sub-agent ${sub} is missing`)
  if (segmentsBelow(r.projectPath, from) === undefined) {
    const stale = (await recordedCwds(jsonlFiles)).filter((c) => segmentsBelow(c, from) !== undefined)
    if (stale.length) problems.push(`${stale.length} recorded cwd still name ${from}`)
  }
  if (problems.length) throw new SepiaError({ code: 'WRITE_FAILED', message: `The installed session did not read back right (${problems.join('; ')}); nothing was left behind.` })
  return { messages: session.nodes.length, expectedMessages: o.bundle.nodeCount, workingDirectory: wd }
}

/** Thread ids in a Codex `threads` table (none when unreadable). */
function threadIdsIn(dbPath: string): string[] {
  try {
    const db = openSqliteReadOnly(dbPath)
    try {
      return (db.db.prepare('SELECT id FROM threads').all() as { id: string }[]).map((r) => r.id)
    } finally {
      db.close()
    }
  } catch {
    return []
  }
}

/** The `threads` rows (the bundled ones remapped, else built like Codex's backfill) and the `thread_spawn_edges` rows. */
function codexRows(
  move: MoveBundle['manifest']['move'],
  codexHome: string,
  from: string,
  to: string,
  mapIds: (s: string) => string,
  rollouts: Map<string, string>,
  now: number,
): { first: Json; more: ExtraRow[] } {
  const bundled = move.indexRows?.threads ?? []
  const rows: Json[] = []
  for (const [id, rollout] of rollouts) {
    const src = bundled.find((r) => r.id === id)
    let row: Json
    if (src) {
      row = {}
      for (const [k, v] of Object.entries(src)) row[k] = typeof v === 'string' ? mapIds(v) : v
      row.cwd = typeof src.cwd === 'string' ? remapPath(src.cwd, from, to) : to
      row.rollout_path = rollout
    } else {
      row = codexThreadRow({ id: mapIds(id), rolloutPath: rollout, createdAt: now, modelProvider: configuredModelProvider(codexHome) ?? 'openai', cwd: to, title: '', preview: '', tokensUsed: 0 })
    }
    rows.push(row)
  }
  const edges = (move.indexRows?.thread_spawn_edges ?? []).map((e): ExtraRow => {
    const row: Json = {}
    for (const [k, v] of Object.entries(e)) row[k] = typeof v === 'string' ? mapIds(v) : v
    return { table: 'thread_spawn_edges', row, optional: true }
  })
  return { first: rows[0]!, more: [...rows.slice(1).map((row): ExtraRow => ({ table: 'threads', row })), ...edges] }
}

/** Read the added rows back from the database file (an independent read of what SQLite holds). */
function checkRows(dbPath: string, to: string, rollouts: Map<string, string>, newId: (id: string) => string): void {
  const db = openSqliteReadOnly(dbPath)
  try {
    for (const [old, rollout] of rollouts) {
      const row = db.db.prepare('SELECT cwd, rollout_path FROM threads WHERE id = ?').get(newId(old)) as { cwd: string; rollout_path: string } | undefined
      if (!row || row.rollout_path !== rollout || segmentsBelow(row.cwd, to) === undefined) throw new SepiaError({ code: 'WRITE_FAILED', message: `The thread row of ${newId(old)} did not read back right; nothing was left behind.` })
    }
  } finally {
    db.close()
  }
}
