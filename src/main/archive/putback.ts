/**
 * Put back (issue 19): write an archived session into its agent's store as it was when last
 * copied, so the agent's own resume (`claude --resume <id>`, `codex resume <id>`, `cline --id <id>`)
 * works again.
 *
 * - Only missing files are written, each in full to a temporary name beside its destination, then
 *   renamed (atomic); a file that is there is never overwritten (a shared database such as Cline's
 *   `sessions.db` stays as it is). The written files are read back and compared (sha256) with the
 *   archived bytes. Their mtime is the time of the put back: Claude Code's cleanup judges by mtime
 *   (`cleanupPeriodDays`), so the old mtime would have the session deleted again at its next start.
 * - An index row the agent lists sessions from is added back when it is missing, with a backup of
 *   the database first (`util/sqlite-row.ts` addRowWithBackup): Cline's `db/sessions.db`
 *   `sessions` row, as discovery read it (`hints.row`, seed 000 "sessions.db and teams.db").
 * - Writes go only under the session's own home (the user's own home: the archive covers no other).
 */
import Database from 'better-sqlite3'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative } from 'node:path'
import { SepiaError } from '../../shared/api'
import type { PutBackResult } from '../../shared/archive'
import type { AgentId } from '../../shared/ir'
import { CLINE_SESSIONS_DB_SCHEMA } from '../agents/cline/write-schema'
import type { StoreRef } from '../agents/types'
import { addRowWithBackup } from '../util/sqlite-row'
import type { Archive } from './archive'
import { sha256 } from './blobs'

/**
 * An index row an agent needs to list a put-back session, per agent (data, not branches). The
 * archive copies the database with the session (`indexDbOf`), and put back takes the row from that
 * copy (every column, as the agent wrote it); discovery's `hints.row` when there is no copy.
 */
interface IndexRow {
  table: string
  keyColumn: string
  schema: readonly string[]
  /** The database of a ref, or undefined when the ref has none. */
  dbPath(ref: StoreRef): string | undefined
}

/** Cline SDK sessions: the `sessions` row of `<data>/db/sessions.db`. */
const CLINE_ROW: IndexRow = {
  table: 'sessions',
  keyColumn: 'session_id',
  schema: CLINE_SESSIONS_DB_SCHEMA,
  dbPath(ref) {
    const manifest = ref.hints?.['manifest'] ?? ref.files[0]
    if (ref.hints?.['kind'] !== 'sdk' || typeof manifest !== 'string') return undefined
    // <data>/sessions/<id>/<file> -> <data>/db/sessions.db
    return join(dirname(dirname(dirname(manifest))), 'db', 'sessions.db')
  },
}

const INDEX_ROWS: Partial<Record<AgentId, IndexRow>> = { cline: CLINE_ROW }

/** The index database the archive copies along with a session, if its agent has one. */
export function indexDbOf(ref: StoreRef): string | undefined {
  const p = INDEX_ROWS[ref.agent]?.dbPath(ref)
  return p !== undefined && existsSync(p) ? p : undefined
}

/** The session's row from the archived copy of its index database, else from discovery's hints. */
async function archivedRow(archive: Archive, home: string, ref: StoreRef, index: IndexRow, dbPath: string): Promise<Record<string, unknown> | undefined> {
  const v = archive.latestOf(home, ref.agent, ref.sessionId, dbPath)
  if (v) {
    const copy = await archive.extractVersion(v.vid, 'index.db')
    try {
      const db = new Database(copy, { readonly: true, fileMustExist: true })
      try {
        const row = db.prepare(`SELECT * FROM "${index.table}" WHERE "${index.keyColumn}" = ?`).get(ref.sessionId) as Record<string, unknown> | undefined
        if (row) return row
      } finally {
        db.close()
      }
    } finally {
      await rm(dirname(copy), { recursive: true, force: true })
    }
  }
  const hinted = ref.hints?.['row']
  return hinted && typeof hinted === 'object' ? (hinted as Record<string, unknown>) : undefined
}

/** How the agent resumes a session (shown after a put back). */
const RESUME: Partial<Record<AgentId, (id: string) => string>> = {
  'claude-code': (id) => `claude --resume ${id}`,
  codex: (id) => `codex resume ${id}`,
  cline: (id) => `cline --id ${id}`,
  gemini: (id) => `gemini --resume ${id}`,
}

async function writeAtomic(path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = join(dirname(path), `.${basename(path)}.sepia-tmp-${randomBytes(4).toString('hex')}`)
  await writeFile(temp, bytes, { flag: 'wx' })
  try {
    if (existsSync(path)) throw new Error(`${path} appeared while it was being put back`)
    await rename(temp, path)
  } catch (e) {
    await rm(temp, { force: true })
    throw e
  }
}

function rowExists(dbPath: string, table: string, column: string, key: string): boolean {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true })
  try {
    return db.prepare(`SELECT 1 FROM "${table}" WHERE "${column}" = ? LIMIT 1`).get(key) !== undefined
  } catch {
    return false
  } finally {
    db.close()
  }
}

/**
 * Put the archived session (`home`, `agent`, `sessionId`) back into its store (see the module
 * comment). Throws `SESSION_NOT_FOUND` when the archive has no copy, `WRITE_FAILED` when a file
 * cannot be written (files already written stay: each is whole).
 */
export async function putBack(archive: Archive, home: string, agent: AgentId, sessionId: string, now: number): Promise<PutBackResult> {
  const archived = archive.session(home, agent, sessionId)
  if (!archived) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `Sepia's archive has no copy of the ${agent} session ${sessionId}.` })
  const files = archive.latestFiles(home, agent, sessionId)
  const result: PutBackResult = { agent, sessionId, written: [], skipped: [], rows: [], verified: true }
  const expected = new Map<string, string>()
  for (const f of files) {
    const rel = relative(home, f.path)
    if (rel.startsWith('..') || isAbsolute(rel)) {
      result.skipped.push({ path: f.path, reason: 'outside the home folder' })
      continue
    }
    if (existsSync(f.path)) {
      const same = f.kind === 'file' && sha256(await readFile(f.path)) === f.sha256
      result.skipped.push({ path: f.path, reason: same ? 'already there, unchanged' : f.kind === 'sqlite' ? 'a database that is there (left as it is)' : 'there with other content (left as it is)' })
      continue
    }
    try {
      await writeAtomic(f.path, await archive.readVersion(f.vid))
    } catch (e) {
      throw new SepiaError({ code: 'WRITE_FAILED', message: `Could not put back ${f.path}: ${e instanceof Error ? e.message : String(e)}`, path: f.path })
    }
    result.written.push(f.path)
    expected.set(f.path, f.sha256)
  }
  const index = INDEX_ROWS[agent]
  const dbPath = index?.dbPath(archived.ref)
  if (index && dbPath && existsSync(dbPath) && !rowExists(dbPath, index.table, index.keyColumn, sessionId)) {
    const row = await archivedRow(archive, home, archived.ref, index, dbPath)
    if (row) {
      const added = await addRowWithBackup({ dbPath, schema: index.schema, table: index.table, row, now })
      result.rows.push({ table: index.table, dbPath, ...(added.backup ? { backup: added.backup } : {}) })
    }
  }
  // Read back.
  for (const [path, hash] of expected) if (sha256(await readFile(path)) !== hash) result.verified = false
  const resume = RESUME[agent]
  if (resume) result.resumeCommand = resume(sessionId)
  return result
}
