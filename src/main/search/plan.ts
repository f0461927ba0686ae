/**
 * Which messages a search considers: the filters as SQL, and the newest matches that pass them.
 *
 * Contract of a {@link CandidateFinder} (the plan before issue #8,
 * `tests/builders/search/plan-reference.ts`, and {@link findCandidates} give the same rows): the newest `want` (default `CANDIDATES + 1`)
 * messages (by `mid`, descending) that pass every filter among the newest `cap` full-text matches
 * (the newest `min(want, cap)` matches when nothing is filtered), and whether those were all the
 * matches (always true when nothing is filtered, as before). {@link findCandidates} without an
 * explicit `cap` looks at every match (issue 15: filters never hide matches), which the reference
 * does with `cap = Infinity`.
 *
 * How: one statement. Its FROM subquery walks the index newest first (FTS5 `ORDER BY rowid DESC`)
 * and yields in that order; SQLite consumes that order (no sort), so the statement stops at the
 * `CANDIDATES + 1`th passing row. Per match, what it reads is what costs:
 * - the message's filter columns come from the covering index `messages_meta` (~1 µs per match),
 *   not from the `messages` row, whose text is inline (~4 µs);
 * - when the session conditions (agent, project, or homes when the catalog holds others) remove
 *   sessions: if their sessions hold at most `SMALL` messages, `+f.mid IN (their mids)` — SQLite
 *   lists them once from covering indexes (`sessions_project` or the sessions key, then
 *   `messages_sid`) and tests a match in ~0.1 µs before reading anything else; otherwise
 *   `+m.sid IN (their sids)` on the `messages_meta` entry. (`+`: not an index constraint — SQLite
 *   would otherwise seek `messages_meta` once per listed sid per match.) Both lists are exactly
 *   the session conditions, so `sessions` is joined only for the model filter (`s.model`).
 * - Without session conditions no session is read: every message has its session row (the store
 *   deletes a session's messages with it) and every session is in an open home.
 *
 * Listing a message costs ~0.5 µs, hence `SMALL`: above it, the per-match lookup is cheaper.
 *
 * Bench corpus (204k messages, 2 busy cores, medians): 'return' (110k matches) in a project of
 * 1,447 messages 91 ms before (the plan read each match's `messages` and `sessions` rows, and
 * re-ran the query at each 8x step) → 12 ms; `toolName` 19 → 5 ms; `role` + `since` 16 → 4 ms;
 * search p95 over the bench's 300 runs 91 → 34 ms (now the phrase `src/main/library_catalog.ts`,
 * which FTS5 itself takes ~30 ms to evaluate).
 *
 * Not used, measured there: FTS5 queries limited to a rowid range (one per run of a project's
 * mids) seek well for a plain word (0.1 ms) but not for a phrase (20-45 ms per range) or a prefix
 * (10 ms per range; FTS5 merges a prefix's whole doclists first). FTS5 ignores a rowid bound given
 * as a REAL, which is how better-sqlite3 binds a JS number (a BigInt binds an INTEGER). A window
 * function (`row_number()`) over the subquery makes SQLite sort it: no early stop.
 */
import type Database from 'better-sqlite3'
import { SepiaError } from '../../shared/api'
import type { SearchFilters } from '../../shared/catalog'
import { isAgentId, type AgentId, type Role } from '../../shared/ir'
import { inList } from '../catalog/store'

/** Matches ranked per search; a finder returns up to one more (to tell that there are more). */
export const CANDIDATES = 150
/** At most this many of the newest matches are looked at per query string. */
export const MAX_SCANNED = 25_600
/** Allowed sessions with at most this many messages are tested by message id (see the module comment). */
export const SMALL = 8192
const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool']

/** A message that may be a hit: its id and time (ms since epoch). */
export interface CandidateRow {
  mid: number
  created_at: number | null
}

/** The filters of a search as SQL over `m` (messages) and `s` (sessions). */
export interface SearchScope {
  /** All conditions, ANDed, and their arguments in order. Starts with the homes condition. */
  where: string[]
  args: unknown[]
  /** False when no condition removes anything (one home or all homes of the catalog, no filter). */
  filtered: boolean
  /** The conditions on the message (`m`, and `s.model` for the model filter). */
  messageWhere: string[]
  messageArgs: unknown[]
  /** True when `messageWhere` reads `s`. */
  joinSessions: boolean
  /** When the session conditions remove sessions: them, exactly, on `sessions` (no alias). */
  sessions?: { where: string; args: unknown[] }
}

/**
 * What a finder returns: the candidate rows, and whether the matches looked at were all of them
 * (a function: it may cost another walk of the index; `searchCatalog` no longer needs it, since
 * `more` comes from the next page's candidates; `plan.test.ts` compares it between plans).
 */
export interface Found {
  rows: CandidateRow[]
  exhausted: () => boolean
}

/** Finds the candidates of one FTS5 MATCH expression (see the module comment for the contract). */
/** `want`: rows wanted, default `CANDIDATES + 1` (a search with a larger `limit` asks for `limit + 1`). */
export type CandidateFinder = (db: Database.Database, scope: SearchScope, match: string, want?: number) => Found

/** A time filter as ms since epoch: a number, or `YYYY-MM-DD` (UTC) / any ISO date. */
export function timeArg(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string') {
    const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
    if (!Number.isNaN(ms)) return ms
  }
  throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${name}" must be a date (YYYY-MM-DD) or a time in ms since epoch; got ${JSON.stringify(value)}.` })
}

function list<T extends string>(value: T | T[] | undefined, ok: (v: unknown) => boolean, name: string): T[] | undefined {
  if (value === undefined) return undefined
  const arr = Array.isArray(value) ? value : [value]
  for (const v of arr) if (!ok(v)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${String(v)}" is not a valid ${name}.` })
  return arr.length ? arr : undefined
}

/** True when the catalog holds sessions of a home not in `homes` (one index seek per home). */
function hasOtherHomes(db: Database.Database, homes: readonly string[]): boolean {
  const open = new Set(homes)
  const next = db.prepare('SELECT home FROM sessions WHERE home > ? ORDER BY home LIMIT 1').pluck()
  for (let h = db.prepare('SELECT min(home) FROM sessions').pluck().get() as string | null | undefined; typeof h === 'string'; h = next.get(h) as string | undefined) {
    if (!open.has(h)) return true
  }
  return false
}

/** The scope of a search of `homes` with `filters`. Rejects `BAD_ARGUMENT` for bad filters. */
export function scopeOf(db: Database.Database, homes: readonly string[], filters: SearchFilters): SearchScope {
  const where: string[] = [`s.home IN ${inList(homes.length)}`]
  const args: unknown[] = [...homes]
  const pre: string[] = [`home IN ${inList(homes.length)}`]
  const preArgs: unknown[] = [...homes]
  const mine: string[] = []
  const mineArgs: unknown[] = []
  const onMessage = (cond: string, ...values: unknown[]): void => {
    where.push(cond)
    args.push(...values)
    mine.push(cond)
    mineArgs.push(...values)
  }
  let restricts = false
  const agents = list<AgentId>(filters.agent, isAgentId, 'agent')
  if (agents) {
    where.push(`s.agent IN ${inList(agents.length)}`)
    args.push(...agents)
    pre.push(`agent IN ${inList(agents.length)}`)
    preArgs.push(...agents)
    restricts = true
  }
  if (filters.project !== undefined) {
    if (typeof filters.project !== 'string' || filters.project === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The project filter must be a folder path.' })
    const p = filters.project.replace(/[\\/]+$/, '')
    where.push(`(s.project = ? OR substr(s.project, 1, ?) = ?)`)
    args.push(p, p.length + 1, `${p}/`)
    // `p` and every `p/...` sort in [p, p + '0') ('0' follows '/'): an index range (a superset),
    // then the exact condition.
    pre.push(`project >= ? AND project < ? AND (project = ? OR substr(project, 1, ?) = ?)`)
    preArgs.push(p, `${p}0`, p, p.length + 1, `${p}/`)
    restricts = true
  }
  const since = timeArg(filters.since, 'since')
  const until = timeArg(filters.until, 'until')
  if (since !== undefined) onMessage('m.created_at >= ?', since)
  if (until !== undefined) onMessage('m.created_at < ?', until)
  if (filters.model !== undefined) {
    if (typeof filters.model !== 'string' || filters.model === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The model filter must be a model id.' })
    onMessage(`substr(coalesce(m.model, s.model, ''), 1, ?) = ?`, filters.model.length, filters.model)
  }
  const roles = list<Role>(filters.role, (v) => ROLES.includes(v as Role), 'role')
  if (roles) onMessage(`m.role IN ${inList(roles.length)}`, ...roles)
  if (filters.toolName !== undefined) {
    if (typeof filters.toolName !== 'string' || filters.toolName.trim() === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The tool filter must be a tool name.' })
    onMessage(`instr(lower(m.tool_names), ?) > 0`, ` ${filters.toolName.trim().toLowerCase()} `)
  }
  // The home condition filters too when the catalog also holds homes that are not open (it is
  // shared across runs): then the newest matches may all belong elsewhere.
  if (!restricts && hasOtherHomes(db, homes)) restricts = true
  const scope: SearchScope = { where, args, filtered: where.length > 1 || restricts, messageWhere: mine, messageArgs: mineArgs, joinSessions: filters.model !== undefined }
  if (restricts) scope.sessions = { where: pre.join(' AND '), args: preArgs }
  return scope
}

/** Options of {@link findCandidates} (tests use small values to reach every step). */
export interface FindOptions {
  /** Largest number of messages of the allowed sessions listed by mid (see the module comment). */
  small?: number
  /** Matches looked at when something is filtered (default {@link MAX_SCANNED}). */
  cap?: number
}

const hasMeta = new WeakMap<Database.Database, boolean>()
/** `messages_meta` when the catalog has it (every catalog opened by `openCatalog` does). */
function metaIndex(db: Database.Database): string {
  let has = hasMeta.get(db)
  if (has === undefined) {
    has = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'messages_meta'`).get() !== undefined
    hasMeta.set(db, has)
  }
  return has ? 'INDEXED BY messages_meta' : ''
}

/**
 * The statement of {@link findCandidates}: its parameters are the MATCH expression, the number of
 * matches to look at, `args`, then the number of rows wanted. `none`: the session conditions
 * leave no message (the statement would return nothing).
 */
export function candidateSql(db: Database.Database, scope: SearchScope, options: FindOptions = {}): { sql: string; args: unknown[]; none: boolean } {
  const sessions = scope.sessions
  const conditions: string[] = []
  let none = false
  if (sessions) {
    const allowed = `SELECT sid FROM sessions WHERE ${sessions.where}`
    const small = options.small ?? SMALL
    const listed = db.prepare(`SELECT count(*) FROM (SELECT 1 FROM messages WHERE sid IN (${allowed}) LIMIT ?)`).pluck().get(...sessions.args, Math.max(1, small + 1)) as number
    none = listed === 0
    conditions.push(listed <= small ? `+f.mid IN (SELECT mid FROM messages WHERE sid IN (${allowed}))` : `+m.sid IN (${allowed})`)
  }
  conditions.push(...scope.messageWhere)
  const sql = `SELECT f.mid AS mid, m.created_at AS created_at
    FROM (SELECT rowid AS mid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC LIMIT ?) f
    CROSS JOIN messages AS m ${metaIndex(db)} ON m.mid = f.mid${scope.joinSessions ? ' CROSS JOIN sessions s ON s.sid = m.sid' : ''}
    ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY f.mid DESC LIMIT ?`
  return { sql, args: [...(sessions ? sessions.args : []), ...scope.messageArgs], none }
}

/**
 * The candidates of `match` under `scope` (see the module comment). `want` rows at most (default
 * `CANDIDATES + 1`). Throws SQLite's error for a bad MATCH.
 *
 * Filters never hide matches (issue 15): when the newest `MAX_SCANNED` matches hold fewer than
 * `want` that pass the filters, every match is looked at (messages are numbered project by
 * project, so a project's matches can all be older than the newest 25,600). An explicit `cap`
 * (tests comparing plans) keeps the capped contract.
 */
export function findCandidates(db: Database.Database, scope: SearchScope, match: string, options: FindOptions = {}, want = CANDIDATES + 1): Found {
  const { sql, args, none } = candidateSql(db, scope, options)
  const cap = options.cap ?? MAX_SCANNED
  const take = scope.filtered ? cap : Math.min(want, cap)
  const scanned = (): number => db.prepare('SELECT count(*) FROM (SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC LIMIT ?)').pluck().get(match, take) as number
  // No session passes: no rows. Uncapped, that is every match; capped, the contract counts the
  // matches looked at (as the reference does).
  if (none) return { rows: [], exhausted: () => options.cap === undefined || scanned() < take }
  let rows = db.prepare(sql).all(match, take, ...args, want) as CandidateRow[]
  if (rows.length >= want) return { rows, exhausted: () => false }
  if (!scope.filtered) return { rows, exhausted: () => true }
  if (options.cap === undefined && scanned() >= take) {
    rows = db.prepare(sql).all(match, -1, ...args, want) as CandidateRow[]
    return { rows, exhausted: () => rows.length < want }
  }
  return { rows, exhausted: () => scanned() < take }
}
