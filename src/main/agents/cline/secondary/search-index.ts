/**
 * Cline's session search index `<clineDataDir>/db/session-search.db`, a secondary source: a
 * full-text copy of every SDK transcript that outlives a deleted transcript until the hub next
 * runs (seed 000 "session-search.db", "What survives a delete").
 *
 * Shape (seed 000 "sessions.db and teams.db", cline/cline
 * sdk/packages/core/src/session/search/session-history-search.ts:123-153, 402-465):
 * - `indexed_sessions(session_id, source_revision, indexed_at, document_count, index_version, title)`,
 *   one row per indexed session; `source_revision` is `<updated_at>:<messages size>:<mtimeMs>`
 *   (or `<updated_at>:missing`).
 * - FTS5 `session_search(session_id, document_id, ordinal, role, started_at, workspace_root,
 *   title, content)`: one `<id>:metadata` document (ordinal -1, role `session`, the title, content
 *   the prompt) and one `<id>:<n>` document per message with text (ordinal = the message's 0-based
 *   index, role = its role). No document has a time of its own; `started_at` is the session's.
 *
 * Opened on a temporary copy ({@link openSqliteReadOnly}). Reading `session_search` needs SQLite's
 * FTS5 module; without it only `indexed_sessions` is read ({@link SearchIndex.fts5} false).
 */
import type Database from 'better-sqlite3'
import { isRecord } from '../../../util/json'
import { openSqliteReadOnly, type ReadOnlySqlite } from '../../../util/sqlite'

/** One `indexed_sessions` row. `indexedAt` is ISO 8601 text as stored. */
export interface IndexedSession {
  sessionId: string
  sourceRevision: string
  indexedAt: string
  documentCount: number
  title: string
}

/** One `session_search` document. `startedAt` is the session's ISO 8601 start, as stored. */
export interface IndexDocument {
  sessionId: string
  documentId: string
  /** -1 for the metadata document, else the message's 0-based index in its transcript. */
  ordinal: number
  /** `session` (metadata), a message role, or `unknown`. */
  role: string
  startedAt: string
  workspaceRoot: string
  title: string
  content: string
}

/** An open search index. Call {@link SearchIndex.close} when done. */
export interface SearchIndex {
  path: string
  /** True when this SQLite build has FTS5 and the documents can be read. */
  fts5: boolean
  /** Every `indexed_sessions` row, by session id. */
  sessions: Map<string, IndexedSession>
  /**
   * The documents of the given sessions (all sessions when `ids` is absent), ordered by session
   * then ordinal. Yields nothing when {@link fts5} is false.
   */
  documents(ids?: Iterable<string>): IndexDocument[]
  close(): void
}

/** Options of {@link openSearchIndex}. */
export interface SearchIndexOptions {
  /** Test hook: pretend this SQLite build has (or lacks) FTS5. Detected when absent. */
  fts5?: boolean
}

/**
 * Open a `session-search.db`. Throws (file system or SQLite error, or "no indexed_sessions table")
 * when the file is missing or not the search index; callers turn that into a `parser:` row or a
 * diagnostic.
 */
export function openSearchIndex(path: string, options: SearchIndexOptions = {}): SearchIndex {
  const handle: ReadOnlySqlite = openSqliteReadOnly(path)
  try {
    const db = handle.db
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name))
    if (!tables.has('indexed_sessions')) throw new Error('no indexed_sessions table')
    const cols = new Set((db.prepare('PRAGMA table_info(indexed_sessions)').all() as { name: string }[]).map((c) => c.name))
    const titleCol = cols.has('title') ? 'title' : "'' AS title"
    const sessions = new Map<string, IndexedSession>()
    const rows = db.prepare(`SELECT session_id, source_revision, indexed_at, document_count, ${titleCol} FROM indexed_sessions ORDER BY rowid`).all() as Record<string, unknown>[]
    for (const r of rows) {
      if (typeof r.session_id !== 'string') continue
      sessions.set(r.session_id, {
        sessionId: r.session_id,
        sourceRevision: String(r.source_revision ?? ''),
        indexedAt: String(r.indexed_at ?? ''),
        documentCount: Number(r.document_count ?? 0),
        title: String(r.title ?? ''),
      })
    }
    const fts5 = (options.fts5 ?? hasFts5(db)) && tables.has('session_search')
    return {
      path,
      fts5,
      sessions,
      documents(ids) {
        if (!fts5) return []
        const select = 'SELECT session_id, document_id, ordinal, role, started_at, workspace_root, title, content FROM session_search'
        const list = ids ? [...new Set(ids)] : undefined
        let raw: Record<string, unknown>[] = []
        if (!list) raw = db.prepare(`${select}`).all() as Record<string, unknown>[]
        else {
          const stmt = db.prepare(`${select} WHERE session_id = ?`)
          for (const id of list) raw.push(...(stmt.all(id) as Record<string, unknown>[]))
        }
        const docs = raw.map(toDocument)
        docs.sort((a, b) => a.sessionId.localeCompare(b.sessionId) || a.ordinal - b.ordinal)
        return docs
      },
      close: () => handle.close(),
    }
  } catch (err) {
    handle.close()
    throw err
  }
}

/** True when the SQLite library behind `db` was compiled with FTS5. */
export function hasFts5(db: Database.Database): boolean {
  try {
    const r = db.prepare("SELECT sqlite_compileoption_used('ENABLE_FTS5') AS v").get() as { v: number } | undefined
    return r?.v === 1
  } catch {
    return false
  }
}

function toDocument(r: Record<string, unknown>): IndexDocument {
  return {
    sessionId: String(r.session_id ?? ''),
    documentId: String(r.document_id ?? ''),
    ordinal: Number(r.ordinal ?? 0),
    role: String(r.role ?? 'unknown'),
    startedAt: String(r.started_at ?? ''),
    workspaceRoot: String(r.workspace_root ?? ''),
    title: String(r.title ?? ''),
    content: String(r.content ?? ''),
  }
}

/** The SDK's cap on one document's text (session-history-search.ts:14). */
const MAX_INDEXED_TEXT_LENGTH = 128 * 1024
const SKIPPED_KEYS = new Set(['data', 'image', 'images', 'reasoning', 'thinking', 'metadata'])

/**
 * The text the SDK indexes for one transcript message (session-history-search.ts:54-95): every
 * string found walking the message's `content` (or the message, when it has none), object keys in
 * order, skipping `data`, `image`, `images`, `reasoning`, `thinking` and `metadata`, joined with
 * line breaks, capped at 128 KiB, trimmed. Numbers and booleans are left out. Used to tell that a
 * document is the transcript message at its ordinal (Sepia's duplicate check, see dedup.ts).
 */
export function indexText(message: unknown): string {
  const parts: string[] = []
  let length = 0
  const walk = (value: unknown): void => {
    if (length >= MAX_INDEXED_TEXT_LENGTH) return
    if (typeof value === 'string') {
      const sep = parts.length > 0 ? 1 : 0
      const remaining = MAX_INDEXED_TEXT_LENGTH - length - sep
      if (remaining <= 0) return
      const part = value.slice(0, remaining)
      if (!part) return
      parts.push(part)
      length += sep + part.length
      return
    }
    if (Array.isArray(value)) {
      for (const item of value) walk(item)
      return
    }
    if (!isRecord(value)) return
    for (const [key, item] of Object.entries(value)) if (!SKIPPED_KEYS.has(key)) walk(item)
  }
  walk(isRecord(message) ? (message.content ?? message) : message)
  return parts.join('\n').trim()
}

/**
 * True when an index revision `<updated_at>:<size>:<mtimeMs>` was taken from a transcript of this
 * size, i.e. the index was built from the file as it is now and holds nothing the file lacks (the
 * SDK only appends to a messages file). The mtime is not compared: a copied or checked-out home
 * has new mtimes, and the answer must not depend on where the home was copied.
 */
export function revisionMatchesFile(revision: string, size: number): boolean {
  const parts = revision.split(':')
  if (parts.length < 3) return false
  return Number(parts[parts.length - 2]) === size
}
