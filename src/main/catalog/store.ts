/**
 * Reads and writes of the catalog tables (schema in `schema.ts`). One instance per connection;
 * the main thread and each indexing worker have their own. Every write bumps the `gen` counter
 * inside its transaction, so `gen` orders changes across connections (see `changesSince`).
 */
import type Database from 'better-sqlite3'
import type { CredentialFile } from '../../shared/api'
import type { ArchivedMark } from '../../shared/archive'
import type { AgentId, Diagnostic, Session, SessionSummary } from '../../shared/ir'
import type { StoreRef } from '../agents/types'
import type { MessageRow, SessionRecord } from './extract'
import { BUSY_TIMEOUT_MS, FTS_TEXT_FUNCTION, isCorruptError, markSearchDamaged, SEARCH_SCHEMA, searchMatches, syncSearch } from './schema'

/** A session record without its message rows (a streaming write stores those as it goes). */
export type SessionHead = Omit<SessionRecord, 'messages'>

/** A source file with its size (bytes) and mtime (ms since epoch). */
export interface FileStamp {
  path: string
  size: number
  mtimeMs: number
}

/** The refresh key of a ref: total size and newest mtime of its files, plus the file list. */
export function stampOf(ref: Pick<StoreRef, 'size' | 'mtimeMs' | 'files'>): string {
  return `${ref.size}:${ref.mtimeMs}:${ref.files.join('\u0000')}`
}

/** Refresh-stamp prefix of a session row whose message rows are not written yet (`rows.ts`). */
export const ROWS_PENDING = 'rows-pending:'

/** `meta` key: how many sessions' message rows are not written yet (search results are partial meanwhile). */
export const ROWS_PENDING_META = 'rows-pending'

/**
 * Rows per transaction of the full-text index when a worker fills it (`worker.ts`; the inline
 * pass on the main thread takes 250 at a time, between API calls). Each commit of FTS5 writes a
 * new segment and merges segments (automerge), so the number of commits sets how often the
 * index is merged over again: on the bench's 204,654 messages (issue 15, BENCHMARKS.md "Search
 * ready, session 8") 20,000 rows per transaction instead of 2,000 took the fill's CPU from
 * 14.2 s to 10.7 s with 6 segments at the end instead of 8, and the same index entries.
 */
export const TEXT_WORKER_BATCH = 20_000

/** Link results of a session after the link pass. */
export interface LinkState {
  parentSessionId?: string
  parentToolCallId?: string
  childSessionIds?: string[]
  /** Tool call id → the sub-agent session it spawned. */
  callLinks?: Record<string, string>
  /** Sub-agent name a link pass found (Gemini: the spawning call's `agent_name`). */
  agentName?: string
}

/** A catalog session row as the library needs it. */
export interface CatalogSession {
  sid: number
  home: string
  agent: AgentId
  sessionId: string
  ref: StoreRef
  summary: SessionSummary
  nodeCount: number
  links: LinkState
  gen: number
}

interface SessionRowDb {
  sid: number
  home: string
  agent: string
  session_id: string
  ref: string
  summary: string
  node_count: number
  parent_session_id: string | null
  parent_tool_call_id: string | null
  child_session_ids: string | null
  call_links: string | null
  link_agent_name: string | null
  gen: number
  diagnostics?: string | null
}

function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback
  try {
    return JSON.parse(text) as T
  } catch {
    return fallback
  }
}

/** Turn a row into a {@link CatalogSession}; the link columns override the read summary. */
export function rowToSession(r: SessionRowDb): CatalogSession {
  const summary = parseJson<SessionSummary>(r.summary, {} as SessionSummary)
  const links: LinkState = {}
  if (r.parent_session_id !== null) links.parentSessionId = r.parent_session_id
  if (r.parent_tool_call_id !== null) links.parentToolCallId = r.parent_tool_call_id
  const kids = parseJson<string[]>(r.child_session_ids, [])
  if (kids.length) links.childSessionIds = kids
  const calls = parseJson<Record<string, string>>(r.call_links, {})
  if (Object.keys(calls).length) links.callLinks = calls
  if (r.link_agent_name !== null) {
    links.agentName = r.link_agent_name
    summary.agentName = r.link_agent_name
  }
  delete summary.parentSessionId
  delete summary.childSessionIds
  if (links.parentSessionId !== undefined) summary.parentSessionId = links.parentSessionId
  if (links.childSessionIds) summary.childSessionIds = links.childSessionIds
  return {
    sid: r.sid,
    home: r.home,
    agent: r.agent as AgentId,
    sessionId: r.session_id,
    ref: parseJson<StoreRef>(r.ref, {} as StoreRef),
    summary,
    nodeCount: r.node_count,
    links,
    gen: r.gen,
  }
}

const SESSION_COLUMNS = 'sid, home, agent, session_id, ref, summary, node_count, parent_session_id, parent_tool_call_id, child_session_ids, call_links, link_agent_name, gen'

/**
 * A row of {@link CatalogStore.listForList}: `masked` (the stored JSON of the summary as the list
 * sends it, `summary-mask.ts`: a string, or its UTF-8 bytes as stored when the list asked for
 * bytes) when it is valid for the row's version and the masking code, else `row` (the summary as
 * read, links applied) for the caller to mask.
 */
export interface ListRow<M extends string | Buffer = string | Buffer> {
  sid: number
  gen: number
  home: string
  agent: AgentId
  sessionId: string
  masked?: M
  row?: CatalogSession
  /** `last_activity_at`, else `created_at`, else 0 (ms since epoch): the list's order. */
  sortAt: number
  /** The row's recorded diagnostics and credential files (JSON), when it has any. */
  diagnostics?: string
  credentials?: string
}

/** Placeholders `(?, ?, ...)` for an IN list. */
export function inList(n: number): string {
  return `(${Array.from({ length: Math.max(1, n) }, () => '?').join(', ')})`
}

/** The catalog's reads and writes over one connection. */
export class CatalogStore {
  private readonly statements = new Map<string, Database.Statement>()
  constructor(readonly db: Database.Database) {}

  /** A prepared statement, cached per SQL text (also used by `writer.ts`). */
  st(sql: string): Database.Statement {
    let s = this.statements.get(sql)
    if (!s) {
      s = this.db.prepare(sql)
      this.statements.set(sql, s)
    }
    return s
  }

  /** Bump and return the change counter (call inside a write transaction). */
  nextGen(): number {
    const row = this.st(`UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'gen' RETURNING value`).get() as { value: string | number }
    return Number(row.value)
  }

  /** The current change counter. */
  currentGen(): number {
    const row = this.st(`SELECT value FROM meta WHERE key = 'gen'`).get() as { value: string } | undefined
    return row ? Number(row.value) : 0
  }

  /** A `meta` value. */
  getMeta(key: string): string | undefined {
    return (this.st('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value
  }

  /** Set a `meta` value. */
  setMeta(key: string, value: string): void {
    this.st('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value)
  }

  /** session id → {sid, stamp} for one agent under one home. */
  stamps(home: string, agent: AgentId): Map<string, { sid: number; stamp: string }> {
    const rows = this.st('SELECT sid, session_id, stamp FROM sessions WHERE home = ? AND agent = ?').all(home, agent) as { sid: number; session_id: string; stamp: string }[]
    return new Map(rows.map((r) => [r.session_id, { sid: r.sid, stamp: r.stamp }]))
  }

  /**
   * Write (insert or replace) one session. Message rows whose signature is unchanged from the
   * previous version are kept (an appended transcript re-indexes only its tail); the rest are
   * replaced and queued for full-text indexing. Returns the gen of the write.
   */
  writeSession(rec: SessionRecord, files: FileStamp[]): number {
    return this.db.transaction(() => {
      const gen = this.nextGen()
      const sid = this.putSession(rec, files, gen)
      this.replaceMessages(sid, rec.messages)
      return gen
    })()
  }

  /**
   * Inside a write transaction: insert or update the session row of `rec` (its messages aside)
   * and its files, with change counter `gen`. `into` is the sid of a row to take over when the
   * session has no row yet (the placeholder of a streaming write, `writer.ts`). `stamp` replaces
   * the refresh stamp (`stampOf(rec.ref)`; the first pass of a cold index writes a pending one,
   * `rows.ts`). Returns the sid.
   */
  putSession(rec: SessionHead, files: FileStamp[], gen: number, into?: number, stamp = stampOf(rec.ref)): number {
    const s = rec.summary
    const u = s.usage
    const found = this.st('SELECT sid FROM sessions WHERE home = ? AND agent = ? AND session_id = ?').get(rec.ref.home, rec.ref.agent, rec.ref.sessionId) as { sid: number } | undefined
    const existing = found ?? (into !== undefined ? { sid: into } : undefined)
    const values = [
      rec.ref.home, rec.ref.agent, rec.ref.sessionId, rec.ref.format, s.workingDirectory ?? null, s.title ?? null, s.createdAt ?? null, s.lastActivityAt ?? null,
      s.model ?? null, JSON.stringify(rec.models), s.messageCount, s.toolCallCount, rec.nodeCount, s.diagnosticCount,
      s.parentSessionId ?? null, s.childSessionIds?.length ? JSON.stringify(s.childSessionIds) : null,
      u?.inputTokens ?? null, u?.outputTokens ?? null, u?.cacheReadTokens ?? null, u?.cacheWriteTokens ?? null, u?.thinkingTokens ?? null, u?.cost ?? null,
      rec.ref.size, rec.ref.mtimeMs, stamp, JSON.stringify(rec.ref), JSON.stringify(s),
      rec.diagnostics.length ? JSON.stringify(rec.diagnostics) : null, rec.credentialFiles.length ? JSON.stringify(rec.credentialFiles) : null, gen,
    ]
    const cols = `home, agent, session_id, format, project, title, created_at, last_activity_at, model, models, message_count, tool_call_count, node_count, diagnostic_count,
      parent_session_id, child_session_ids, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, thinking_tokens, cost,
      size, mtime_ms, stamp, ref, summary, diagnostics, credentials, gen`
    let sid: number
    if (existing) {
      sid = existing.sid
      const set = cols.split(',').map((c) => `${c.trim()} = ?`).join(', ')
      this.st(`UPDATE sessions SET ${set}, parent_tool_call_id = NULL, call_links = NULL, link_agent_name = NULL WHERE sid = ?`).run(...values, sid)
    } else {
      sid = Number(this.st(`INSERT INTO sessions (${cols}) VALUES ${inList(values.length)}`).run(...values).lastInsertRowid)
    }
    this.st('DELETE FROM files WHERE sid = ?').run(sid)
    this.st('DELETE FROM skeletons WHERE sid = ?').run(sid)
    const insPart = this.st('INSERT INTO skeletons (sid, part, json) VALUES (?, ?, ?)')
    insPart.run(sid, 0, JSON.stringify(rec.skeleton))
    rec.skeletonParts?.forEach((json, i) => insPart.run(sid, i + 1, json))
    const insFile = this.st('INSERT OR REPLACE INTO files (sid, path, size, mtime_ms) VALUES (?, ?, ?, ?)')
    for (const f of files) insFile.run(sid, f.path, f.size, f.mtimeMs)
    return sid
  }

  private replaceMessages(sid: number, messages: MessageRow[]): void {
    const old = this.st('SELECT mid, seq, sig FROM messages WHERE sid = ? ORDER BY seq').all(sid) as { mid: number; seq: number; sig: string }[]
    let keep = 0
    while (keep < old.length && keep < messages.length && old[keep]!.seq === messages[keep]!.seq && old[keep]!.sig === messages[keep]!.sig) keep++
    if (keep < old.length) this.deleteMessages(old.slice(keep).map((o) => o.mid))
    this.insertMessages(sid, messages, keep)
  }

  /** Insert `messages[from..]` of session `sid` (rows, usage, full-text queue); in a transaction. */
  insertMessages(sid: number, messages: readonly MessageRow[], from = 0): void {
    const insMsg = this.st('INSERT INTO messages (sid, seq, node_id, role, created_at, model, tool_names, sig, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    const insPending = this.st('INSERT INTO fts_pending (mid) VALUES (?)')
    const insUsage = this.st(
      'INSERT INTO usage (mid, sid, seq, created_at, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, thinking_tokens, cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    for (let i = from; i < messages.length; i++) {
      const m = messages[i]!
      const mid = Number(insMsg.run(sid, m.seq, m.nodeId, m.role, m.createdAt ?? null, m.model ?? null, m.toolNames, m.sig, m.text).lastInsertRowid)
      if (m.text !== '') insPending.run(mid)
      const u = m.usage
      if (u) insUsage.run(mid, sid, m.seq, m.createdAt ?? null, m.model ?? null, u.inputTokens ?? 0, u.outputTokens ?? 0, u.cacheReadTokens ?? 0, u.cacheWriteTokens ?? 0, u.thinkingTokens ?? 0, u.cost ?? null)
    }
  }

  /**
   * Delete message rows (and their usage); in a transaction. A row's full-text entry is in the
   * other file (`search.sqlite`): its mid leaves `fts_pending` and is queued in `fts_deleted`,
   * which the text step applies to the index ({@link ftsStep}). Queued whether or not it was ever
   * indexed (the catalog's writer cannot know which rows the index holds): deleting a rowid the
   * index does not hold changes nothing (contentless_delete=1; checked by `split-index.test.ts`).
   */
  deleteMessages(mids: number[]): void {
    const pending = this.st('DELETE FROM fts_pending WHERE mid = ?')
    const queue = this.st('INSERT INTO fts_deleted (mid) VALUES (?)')
    const delMsg = this.st('DELETE FROM messages WHERE mid = ?')
    const delUsage = this.st('DELETE FROM usage WHERE mid = ?')
    for (const mid of mids) {
      pending.run(mid)
      queue.run(mid)
      delUsage.run(mid)
      delMsg.run(mid)
    }
  }

  /**
   * Mark sessions whose source is gone but whose copy is in the archive (issue 19): the summary
   * gets `archived`, the refresh stamp gets `stampPrefix` (so a session put back is read again).
   */
  markArchived(rows: readonly { sid: number; mark: ArchivedMark }[], stampPrefix: string): void {
    if (rows.length === 0) return
    this.db.transaction(() => {
      const gen = this.nextGen()
      for (const { sid, mark } of rows) {
        const row = this.st('SELECT summary, stamp FROM sessions WHERE sid = ?').get(sid) as { summary: string; stamp: string } | undefined
        if (!row) continue
        const summary = { ...parseJson<SessionSummary>(row.summary, {} as SessionSummary), archived: mark }
        this.st('UPDATE sessions SET summary = ?, stamp = ?, gen = ? WHERE sid = ?').run(JSON.stringify(summary), stampPrefix + row.stamp, gen, sid)
      }
    })()
  }

  /** The project folder the catalog records for a session, if any. */
  projectOf(home: string, agent: AgentId, sessionId: string): string | undefined {
    const r = this.st('SELECT project FROM sessions WHERE home = ? AND agent = ? AND session_id = ?').get(home, agent, sessionId) as { project: string | null } | undefined
    return r?.project ?? undefined
  }

  /** Distinct project folders (session working directories) the catalog records under `home`. */
  projectsOf(home: string): string[] {
    const rows = this.st('SELECT DISTINCT project FROM sessions WHERE home = ? AND project IS NOT NULL').all(home) as { project: string }[]
    return rows.map((r) => r.project)
  }

  /** Remove sessions (by sid) and record their removal for `changesSince`. */
  deleteSessions(sids: number[]): void {
    if (sids.length === 0) return
    this.db.transaction(() => {
      const gen = this.nextGen()
      for (const sid of sids) {
        const row = this.st('SELECT home, agent, session_id FROM sessions WHERE sid = ?').get(sid) as { home: string; agent: string; session_id: string } | undefined
        if (!row) continue
        const mids = (this.st('SELECT mid FROM messages WHERE sid = ?').all(sid) as { mid: number }[]).map((r) => r.mid)
        this.deleteMessages(mids)
        this.st('DELETE FROM files WHERE sid = ?').run(sid)
        this.st('DELETE FROM skeletons WHERE sid = ?').run(sid)
        this.st('DELETE FROM sessions WHERE sid = ?').run(sid)
        this.st('INSERT INTO removed (home, agent, session_id, gen) VALUES (?, ?, ?, ?)').run(row.home, row.agent, row.session_id, gen)
      }
    })()
  }

  /**
   * Every session under `homes` (in no particular order). `withRef: false` skips the StoreRef
   * (`ref` is then an empty object): listing 10,000 sessions does not need it.
   */
  listSessions(homes: readonly string[], withRef = true): CatalogSession[] {
    if (homes.length === 0) return []
    const cols = withRef ? SESSION_COLUMNS : SESSION_COLUMNS.replace('ref, ', "'{}' AS ref, ")
    const rows = this.st(`SELECT ${cols} FROM sessions WHERE home IN ${inList(homes.length)}`).all(...homes) as SessionRowDb[]
    return rows.map(rowToSession)
  }

  /**
   * Every session under `homes` for the list, in `sessions_list` order (home, then sid): the
   * stored masked summary (`list_cache`) where its key is `<gen>:<maskerKey>`, else the row. The
   * keys come from the covering index `sessions_list` (joined to `list_cache` by its primary key,
   * the key compared in SQL), diagnostics and credential files from the partial index
   * `sessions_extras`, so the wide rows are read only for rows to mask (issue 15: walking 10k
   * wide rows was the largest part of a warm list). With `as: 'bytes'` a stored summary is its
   * UTF-8 bytes as SQLite holds them (a `Buffer`; `sepia list --json` writes them as they are:
   * decoding and encoding 8 MB of summaries again was ~80 ms of a warm list), else a string. See
   * `summary-mask.ts`.
   */
  listForList(homes: readonly string[], maskerKey: string, as: 'bytes'): ListRow<Buffer>[]
  listForList(homes: readonly string[], maskerKey: string, as?: 'text'): ListRow<string>[]
  listForList(homes: readonly string[], maskerKey: string, as: 'text' | 'bytes' = 'text'): ListRow[] {
    if (homes.length === 0) return []
    const json = as === 'bytes' ? 'CAST(c.json AS BLOB)' : 'c.json'
    const keys = this.st(
      `SELECT s.sid AS sid, s.gen AS gen, s.home AS home, s.agent AS agent, s.session_id AS session_id, COALESCE(s.last_activity_at, s.created_at, 0) AS sort_at, ${json} AS masked FROM sessions s INDEXED BY sessions_list LEFT JOIN list_cache c ON c.sid = s.sid AND c.key = s.gen || ':' || ? WHERE s.home IN ${inList(homes.length)}`,
    ).all(maskerKey, ...homes) as { sid: number; gen: number; home: string; agent: string; session_id: string; sort_at: number; masked: string | Buffer | null }[]
    const extras = new Map<number, { diagnostics: string | null; credentials: string | null }>()
    const withExtras = this.st(
      `SELECT sid, diagnostics, credentials FROM sessions INDEXED BY sessions_extras WHERE home IN ${inList(homes.length)} AND (diagnostics IS NOT NULL OR credentials IS NOT NULL)`,
    ).all(...homes) as { sid: number; diagnostics: string | null; credentials: string | null }[]
    for (const e of withExtras) extras.set(e.sid, e)
    const one = this.st(`SELECT ${SESSION_COLUMNS.replace('ref, ', "'{}' AS ref, ")} FROM sessions WHERE sid = ?`)
    const out: ListRow[] = []
    for (const k of keys) {
      const row: ListRow = { sid: k.sid, gen: k.gen, home: k.home, agent: k.agent as AgentId, sessionId: k.session_id, sortAt: k.sort_at }
      if (k.masked !== null) row.masked = k.masked
      else {
        const r = one.get(k.sid) as SessionRowDb | undefined
        if (!r) continue // removed meanwhile (another connection)
        row.row = rowToSession(r)
      }
      const e = extras.get(k.sid)
      if (e?.diagnostics) row.diagnostics = e.diagnostics
      if (e?.credentials) row.credentials = e.credentials
      out.push(row)
    }
    return out
  }

  /**
   * Store masked list summaries (`json`) for rows still at `gen`, keyed `<gen>:<maskerKey>`, and
   * drop those of rows that are gone; a row written since keeps no stale mask. A cache write: it
   * takes no new `gen`, and when another connection holds the write lock it is skipped at once
   * (the next list masks those rows again) rather than making the list wait. Returns whether it
   * was written.
   */
  saveListMasked(rows: readonly { sid: number; gen: number; json: string }[], maskerKey: string): boolean {
    if (rows.length === 0) return true
    const st = this.st('INSERT OR REPLACE INTO list_cache (sid, key, json) SELECT sid, gen || \':\' || ?, ? FROM sessions WHERE sid = ? AND gen = ?')
    this.db.pragma('busy_timeout = 0')
    try {
      this.db.transaction(() => {
        for (const r of rows) st.run(maskerKey, r.json, r.sid, r.gen)
        this.st('DELETE FROM list_cache WHERE sid NOT IN (SELECT sid FROM sessions)').run()
      }).immediate()
      return true
    } catch (e) {
      const code = (e as { code?: unknown }).code
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_READONLY') return false
      throw e
    } finally {
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
    }
  }

  /** True when a session is listed under one of `homes`; without `homes`, when the catalog lists any session (false: the next refresh is a cold index). */
  hasSessions(homes?: readonly string[]): boolean {
    if (homes === undefined) return this.st('SELECT 1 FROM sessions LIMIT 1').get() !== undefined
    if (homes.length === 0) return false
    return this.st(`SELECT 1 FROM sessions WHERE home IN ${inList(homes.length)} LIMIT 1`).get(...homes) !== undefined
  }

  /** Non-info diagnostics recorded for the sessions under `homes` (capped per session; the list reads them with {@link listForList}). */
  listDiagnostics(homes: readonly string[]): Diagnostic[] {
    if (homes.length === 0) return []
    const rows = this.st(`SELECT diagnostics FROM sessions WHERE diagnostics IS NOT NULL AND home IN ${inList(homes.length)}`).all(...homes) as { diagnostics: string }[]
    return rows.flatMap((r) => parseJson<Diagnostic[]>(r.diagnostics, []))
  }

  /** Encryption-key files named by the sessions under `homes`. */
  listCredentialFiles(homes: readonly string[]): CredentialFile[] {
    if (homes.length === 0) return []
    const rows = this.st(`SELECT credentials FROM sessions WHERE credentials IS NOT NULL AND home IN ${inList(homes.length)}`).all(...homes) as { credentials: string }[]
    return rows.flatMap((r) => parseJson<CredentialFile[]>(r.credentials, []))
  }

  /** One session by agent and id, from the first of `homes` that has it. */
  findSession(homes: readonly string[], agent: AgentId, sessionId: string): CatalogSession | undefined {
    for (const home of homes) {
      const r = this.st(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE home = ? AND agent = ? AND session_id = ?`).get(home, agent, sessionId) as SessionRowDb | undefined
      if (r) return rowToSession(r)
    }
    return undefined
  }

  /** Sessions written or re-linked after `gen`, under `homes`. */
  changedSince(homes: readonly string[], gen: number): CatalogSession[] {
    if (homes.length === 0) return []
    const rows = this.st(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE gen > ? AND home IN ${inList(homes.length)}`).all(gen, ...homes) as SessionRowDb[]
    return rows.map(rowToSession)
  }

  /** Sessions removed after `gen`, under `homes`. */
  removedSince(homes: readonly string[], gen: number): { agent: AgentId; sessionId: string }[] {
    if (homes.length === 0) return []
    const rows = this.st(`SELECT agent, session_id FROM removed WHERE gen > ? AND home IN ${inList(homes.length)}`).all(gen, ...homes) as { agent: string; session_id: string }[]
    return rows.map((r) => ({ agent: r.agent as AgentId, sessionId: r.session_id }))
  }

  /**
   * Link skeletons of one agent's sessions under a home (parts joined back into one Session per
   * sid, see `schema.ts` `skeletons`), with their stored link results. Sessions without a
   * readable skeleton are left out.
   */
  skeletons(home: string, agent: AgentId): { sid: number; skeleton: Session; links: LinkState }[] {
    const rows = this.st(`SELECT ${SESSION_COLUMNS.replace('ref, summary, ', "'{}' AS ref, '{}' AS summary, ")} FROM sessions WHERE home = ? AND agent = ?`).all(home, agent) as SessionRowDb[]
    const parts = this.st(
      'SELECT k.sid AS sid, k.part AS part, k.json AS json FROM sessions s JOIN skeletons k ON k.sid = s.sid WHERE s.home = ? AND s.agent = ? ORDER BY k.sid, k.part',
    ).all(home, agent) as { sid: number; part: number; json: string }[]
    const bySid = new Map<number, Session>()
    for (const p of parts) {
      if (p.part === 0) {
        const sk = parseJson<Session | undefined>(p.json, undefined)
        if (sk) bySid.set(p.sid, sk)
        continue
      }
      const sk = bySid.get(p.sid)
      if (!sk) continue
      for (const n of parseJson<Session['nodes']>(p.json, [])) sk.nodes.push(n)
    }
    return rows.flatMap((r) => {
      const skeleton = bySid.get(r.sid)
      return skeleton ? [{ sid: r.sid, skeleton, links: rowToSession(r).links }] : []
    })
  }

  /** The link skeleton of one session (by sid), parts joined; undefined when it has none. */
  skeletonOf(sid: number): Session | undefined {
    const parts = this.st('SELECT part, json FROM skeletons WHERE sid = ? ORDER BY part').all(sid) as { part: number; json: string }[]
    const head = parts[0]?.part === 0 ? parseJson<Session | undefined>(parts[0].json, undefined) : undefined
    if (!head) return undefined
    for (const p of parts.slice(1)) head.nodes.push(...parseJson<Session['nodes']>(p.json, []))
    return head
  }

  /** Store link results; bumps `gen` only for rows whose links changed. */
  updateLinks(updates: { sid: number; links: LinkState }[]): void {
    if (updates.length === 0) return
    this.db.transaction(() => {
      const gen = this.nextGen()
      const st = this.st('UPDATE sessions SET parent_session_id = ?, parent_tool_call_id = ?, child_session_ids = ?, call_links = ?, link_agent_name = ?, gen = ? WHERE sid = ?')
      for (const { sid, links } of updates) {
        st.run(
          links.parentSessionId ?? null,
          links.parentToolCallId ?? null,
          links.childSessionIds?.length ? JSON.stringify(links.childSessionIds) : null,
          links.callLinks && Object.keys(links.callLinks).length ? JSON.stringify(links.callLinks) : null,
          links.agentName ?? null,
          gen,
          sid,
        )
      }
    })()
  }

  /** Sessions whose refresh stamp starts with {@link ROWS_PENDING} (their rows are not written yet). */
  countPendingRows(): number {
    return (this.st('SELECT count(*) AS n FROM sessions WHERE substr(stamp, 1, ?) = ?').get(ROWS_PENDING.length, ROWS_PENDING) as { n: number }).n
  }

  /** `home \0 agent \0 sessionId` of the sessions whose message rows are not written yet. */
  pendingRowKeys(): Set<string> {
    const rows = this.st('SELECT home, agent, session_id FROM sessions WHERE substr(stamp, 1, ?) = ?').all(ROWS_PENDING.length, ROWS_PENDING) as { home: string; agent: string; session_id: string }[]
    return new Set(rows.map((r) => `${r.home}\u0000${r.agent}\u0000${r.session_id}`))
  }

  /**
   * What search cannot see yet: rows waiting for the full-text index, plus the sessions whose
   * message rows a lighter first pass has not written yet ({@link ROWS_PENDING_META}). A search
   * result is partial while this is above 0.
   */
  searchPending(): number {
    return this.ftsPending() + (Number(this.getMeta(ROWS_PENDING_META)) || 0)
  }

  /** Rows waiting for the full-text index (queued rows the index already holds — a crash between a text step's two commits — left out). */
  ftsPending(): number {
    return (this.st(`SELECT count(*) AS n FROM fts_pending WHERE mid > ${THROUGH_SQL}`).get() as { n: number }).n
  }

  /** True when at least `n` rows wait for the full-text index (without counting them all). */
  ftsPendingAtLeast(n: number): boolean {
    return n <= 0 || this.st(`SELECT 1 FROM fts_pending WHERE mid > ${THROUGH_SQL} ORDER BY mid LIMIT 1 OFFSET ?`).pluck().get(n - 1) !== undefined
  }

  /**
   * Add up to `limit` pending rows to the full-text index and apply the queued deletes; returns
   * how many rows were added. The index is its own file (`search.sqlite`, attached as `search`,
   * schema.ts), so this is two commits:
   * 1. one transaction of the index: its write lock first, then (one read snapshot of the catalog)
   *    the next pending rows above the index's `through_mid` are inserted with their text, the
   *    `fts_deleted` entries above its `deleted_through` are deleted from it, and both marks move
   *    to the last row and entry it took. It holds no lock of the catalog, so the rows pass goes on
   *    writing meanwhile.
   * 2. one short catalog transaction, in `around` (the rows pass's write turn, `rows.ts` `inTurn`):
   *    the queue entries at or below the marks are dropped.
   * A crash between the two leaves queue entries the index already holds: step 1 skips them (it
   * takes rows above the mark) and the next step 2 drops them. The marks are sound because a mid
   * (AUTOINCREMENT) and an `fts_deleted.seq` are never reused and are handed out in commit order
   * (SQLite has one writer): a snapshot that sees a pending mid sees every pending mid below it.
   * When the index is not this catalog's ({@link syncSearch}), it is rebuilt from scratch first.
   */
  ftsStep(limit: number, around: <T>(fn: () => T) => T = (fn) => fn()): number {
    const step = (): { n: number; through: number; deletedThrough: number; id: string; clean: boolean } | undefined =>
      !searchMatches(this.db) ? undefined : this.db.transaction(() => {
        this.st(`UPDATE ${SEARCH_SCHEMA}.meta SET value = value WHERE 0`).run()
        if (!searchMatches(this.db)) return undefined
        const mark = (key: string): number => Number(this.st(`SELECT value FROM ${SEARCH_SCHEMA}.meta WHERE key = ?`).pluck().get(key) ?? 0)
        const through = mark('through_mid')
        const deletedThrough = mark('deleted_through')
        const id = this.st(`SELECT value FROM main.meta WHERE key = 'catalog_id'`).pluck().get() as string
        const mids = this.st('SELECT mid FROM main.fts_pending WHERE mid > ? ORDER BY mid LIMIT ?').pluck().all(through, limit) as number[]
        const deletes = this.st('SELECT seq, mid FROM main.fts_deleted WHERE seq > ? ORDER BY seq').all(deletedThrough) as { seq: number; mid: number }[]
        const stale =
          this.st('SELECT 1 FROM main.fts_pending WHERE mid <= ? LIMIT 1').get(through) !== undefined ||
          this.st('SELECT 1 FROM main.fts_deleted WHERE seq <= ? LIMIT 1').get(deletedThrough) !== undefined
        const last = mids.length > 0 ? mids[mids.length - 1]! : through
        const lastDeleted = deletes.length > 0 ? deletes[deletes.length - 1]!.seq : deletedThrough
        if (mids.length > 0) {
          this.st(`INSERT INTO ${SEARCH_SCHEMA}.fts(rowid, text) SELECT m.mid, ${FTS_TEXT_FUNCTION}(m.text) FROM main.fts_pending p JOIN main.messages m ON m.mid = p.mid WHERE p.mid BETWEEN ? AND ?`).run(mids[0]!, last)
        }
        // Contentless with `contentless_delete=1` (schema.ts): no need to read the text back.
        const del = this.st(`DELETE FROM ${SEARCH_SCHEMA}.fts WHERE rowid = ?`)
        for (const d of deletes) del.run(d.mid)
        const setMark = this.st(`UPDATE ${SEARCH_SCHEMA}.meta SET value = ? WHERE key = ?`)
        if (last !== through) setMark.run(String(last), 'through_mid')
        if (lastDeleted !== deletedThrough) setMark.run(String(lastDeleted), 'deleted_through')
        return { n: mids.length, through: last, deletedThrough: lastDeleted, id, clean: stale || mids.length > 0 || deletes.length > 0 }
      })()
    let r: ReturnType<typeof step>
    try {
      r = step()
      if (r === undefined) {
        syncSearch(this.db)
        r = step()
        if (r === undefined) return 0
      }
    } catch (e) {
      // A damaged page of the index (SQLITE_CORRUPT): rows can never be added to it, so the next
      // open of the catalog makes a new one and fills it again (schema.ts markSearchDamaged).
      if (isCorruptError(e)) markSearchDamaged(this.db)
      throw e
    }
    const done = r
    crashHook()
    if (done.clean) {
      around(() =>
        this.db
          .transaction(() => {
            if (this.st(`SELECT value FROM main.meta WHERE key = 'catalog_id'`).pluck().get() !== done.id) return
            this.st('DELETE FROM main.fts_pending WHERE mid <= ?').run(done.through)
            this.st('DELETE FROM main.fts_deleted WHERE seq <= ?').run(done.deletedThrough)
          })
          .immediate(),
      )
    }
    return done.n
  }
}

/** The index's `through_mid` as SQL (0 when it has none). */
const THROUGH_SQL = `COALESCE((SELECT CAST(value AS INTEGER) FROM ${SEARCH_SCHEMA}.meta WHERE key = 'through_mid'), 0)`

/**
 * Test hook (`split-index.test.ts`): with `SEPIA_TEST_DIE_BETWEEN_COMMITS=<n>`, the process ends
 * (exit code 70) after the `n`-th text step's index commit, before its catalog commit.
 */
let stepsBeforeDeath = Number(process.env['SEPIA_TEST_DIE_BETWEEN_COMMITS'] ?? 0) || 0
function crashHook(): void {
  if (stepsBeforeDeath > 0 && --stepsBeforeDeath === 0) process.exit(70)
}
