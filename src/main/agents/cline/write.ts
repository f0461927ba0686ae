/**
 * Write a prepared session (src/main/convert/prepare.ts) as a new Cline SDK session that
 * `cline --id <id>` resumes (Cline CLI 3.x).
 *
 * What a resumable session needs (seed 002 "Resumable via: cline --id <session-id>; requires the
 * index row + manifest + messages trio"; realstores/README.md "Cline CLI 3.0.65", hand-written probe):
 * - `<clineDataDir>/sessions/<id>/<id>.messages.json` (`write-messages.ts`);
 * - the manifest `<id>.json` with `messages_path` (absolute), and a `sessions` row in
 *   `db/sessions.db` with the same fields; the database is copied to a backup before the row is
 *   added, and created with Cline's own schema when missing (`write-schema.ts`);
 * - an id `<ms epoch>_<5 lower-case letters or digits>` (seed 002: `<epoch-ms>_<5 alnum>`).
 * The origin is recorded in `metadata.importedFrom` as `{agent, sessionId, path, importedAt,
 * importer: "sepia", provider, model}`. Not in the shape of Cline's own importer (seed 000 "Imported
 * sessions": `{tool, sourceSessionId, ...}` with history origin mode `import`): Cline 3.0.65 replaces
 * such a session by a model-written summary on its first resume (@cline/core: "summarize imported
 * session on resume", keyed on `importedFrom.tool` and `.sourceSessionId`), so the model would no
 * longer see the transcript; the resume matrix caught it. Provider and model: the ones the home's
 * Cline uses (`settings/providers.json` `lastUsedProvider`), else the session's own.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SepiaError } from '../../../shared/api'
import { type ConvertWarning, quoteArg } from '../../../shared/convert'
import type { Session } from '../../../shared/ir'
import { FileTransaction } from '../../util/file-transaction'
import { addRowWithBackup } from '../../util/sqlite-row'
import type { WriteOptions, WriteResult } from '../types'
import { providerForModel, toClineMessages } from './write-messages'
import { CLINE_SESSIONS_DB_SCHEMA } from './write-schema'

/** The Cline version whose store shapes this writer follows. */
const CLINE_VERSION = '3.0.65'

/** A session id: `<ms>_<5 characters of [a-z0-9]>` taken from a random UUID. */
export function clineSessionId(ms: number, uuid: string): string {
  return `${ms}_${uuid.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 5).padEnd(5, '0')}`
}

/** Provider and model the home's Cline is set up with (`settings/providers.json`), if readable. */
export function configuredProvider(clineDataDir: string): { provider: string; model?: string } | undefined {
  try {
    const doc = JSON.parse(readFileSync(join(clineDataDir, 'settings', 'providers.json'), 'utf8')) as Record<string, unknown>
    const provider = typeof doc.lastUsedProvider === 'string' ? doc.lastUsedProvider : undefined
    if (!provider) return undefined
    const entry = (doc.providers as Record<string, { settings?: { model?: unknown } }> | undefined)?.[provider]
    const model = entry?.settings?.model
    return typeof model === 'string' ? { provider, model } : { provider }
  } catch {
    return undefined
  }
}

const iso = (ms: number) => new Date(ms).toISOString()

/** The messages file, streamed: its head, then one message at a time. */
function* messagesFile(session: Session, id: string, now: number, keepInputUsage: boolean): Generator<string> {
  const head = { version: 1, updated_at: iso(now), agent: 'lead', sessionId: id, origin: { source: 'cli', mode: 'user', sessionId: id, version: CLINE_VERSION } }
  yield JSON.stringify(head).slice(0, -1) + ',"messages":['
  let first = true
  for (const m of toClineMessages(session.nodes, { now: session.createdAt ?? now, providerOf: providerForModel, keepInputUsage })) {
    yield (first ? '\n' : ',\n') + JSON.stringify(m)
    first = false
  }
  yield '\n]}\n'
}

/**
 * Write `session` as a new Cline SDK session under `options.layout` (see the module comment).
 * With `dryRun` nothing is written. Rejects `WRITE_FAILED` when anything fails; the files written so
 * far are removed and the database is unchanged.
 */
export async function writeClineSession(session: Session, options: WriteOptions): Promise<WriteResult> {
  const dataDir = options.layout.clineDataDir
  const now = options.now()
  let id = clineSessionId(now, options.newId())
  for (let k = 0; k < 5 && existsSync(join(dataDir, 'sessions', id)); k++) id = clineSessionId(now, options.newId())
  const sessionDir = join(dataDir, 'sessions', id)
  const messagesPath = join(sessionDir, `${id}.messages.json`)
  const manifestPath = join(sessionDir, `${id}.json`)
  const dbPath = join(dataDir, 'db', 'sessions.db')
  const cwd = session.workingDirectory ?? options.layout.home
  const output = { sessionId: id, files: [messagesPath, manifestPath, dbPath], resumeCommand: `cline --id ${quoteArg(id, options.layout.os)}`, cwd, backups: [] as string[] }
  const keepInputUsage = options.sourceRef.agent === 'cline'
  const warnings: ConvertWarning[] = [
    { kind: 'input-usage-dropped', count: keepInputUsage ? 0 : session.nodes.filter((n) => n.usage?.inputTokens !== undefined || n.usage?.cacheReadTokens !== undefined).length },
  ]
  if (options.dryRun) return { output, warnings }

  const configured = configuredProvider(dataDir)
  const sourceModel = session.model
  const sourceProvider = providerForModel(sourceModel)
  const provider = configured?.provider ?? sourceProvider
  const model = configured?.model ?? sourceModel ?? 'unknown'
  const prompt = session.nodes.find((n) => n.role === 'user' && n.content.trim() !== '')?.content
  const importedFrom: Record<string, unknown> = { agent: options.sourceRef.agent, sessionId: options.sourceRef.sessionId }
  if (options.sourceRef.path) importedFrom.path = options.sourceRef.path
  Object.assign(importedFrom, { importedAt: iso(now), importer: 'sepia' })
  if (sourceModel) Object.assign(importedFrom, { provider: sourceProvider, model: sourceModel })
  const metadata: Record<string, unknown> = { title: session.title ?? (prompt ? prompt.slice(0, 200) : `Imported from ${options.sourceRef.agent}`) }
  if (session.git?.branch) metadata.git = { branch: session.git.branch }
  metadata.sessionHistoryOrigin = { mode: 'user', version: CLINE_VERSION }
  metadata.importedFrom = importedFrom
  const started = iso(session.createdAt ?? now)
  const ended = iso(session.lastActivityAt ?? session.createdAt ?? now)
  const fields = {
    session_id: id,
    source: 'cli',
    pid: 0,
    started_at: started,
    ended_at: ended,
    exit_code: 0,
    status: 'completed',
    interactive: false,
    provider,
    model,
    cwd,
    workspace_root: cwd,
    enable_tools: true,
    enable_spawn: true,
    enable_teams: true,
    prompt: prompt ?? '',
  }
  const manifest = { version: 1, ...fields, metadata, messages_path: messagesPath }
  const row = { ...fields, status_lock: 0, is_subagent: 0, metadata_json: JSON.stringify(metadata), transcript_path: '', hook_path: '', messages_path: messagesPath, updated_at: iso(now) }

  const tx = new FileTransaction(options.fault)
  try {
    await tx.stage(messagesPath, messagesFile(session, id, now, keepInputUsage))
    await tx.stage(manifestPath, JSON.stringify(manifest, null, 2) + '\n')
    await tx.commit()
    const added = await addRowWithBackup({ dbPath, schema: CLINE_SESSIONS_DB_SCHEMA, table: 'sessions', row, now, ...(options.fault ? { fault: options.fault } : {}) })
    if (added.backup) output.backups.push(added.backup)
  } catch (e) {
    await tx.rollback()
    if (e instanceof SepiaError) throw e
    throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not write the Cline session: ${(e as Error).message}. Nothing was left behind.`, path: sessionDir })
  }
  return { output, warnings }
}
