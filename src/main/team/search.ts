/**
 * Full-text search over the team catalog: the SQLite search's contract (search/search.ts) on
 * PostgreSQL. The newest `max(CANDIDATES, offset + limit)` messages (by `mid`) that match and
 * pass the filters are ranked in JavaScript with the same score and snippets
 * (`rankCandidates`, `hitOf`); the last word is a prefix only when its whole-word matches do not
 * fill the page (and it has 3+ characters), as there.
 *
 * Matching: `messages.tsv @@ tsquery` (GIN index; tokens as SQLite's unicode61 makes them, see
 * `tsquery.ts`). A term in a script written without spaces (Chinese, Japanese, Korean, Thai) also
 * matches as a substring of the text through the `pg_trgm` index (`text ILIKE '%term%'`). The
 * SQLite catalog (schema 8) indexes CJK runs as bigrams (`search/cjk.ts`), so a CJK word of 2+
 * characters matches inside a run in both catalogs; they still answer differently, on purpose,
 * for a one-character CJK term (a substring here, only a one-character run there) and for Thai
 * (a substring here; FTS5 keeps a Thai run as one token, so there only a whole run matches).
 */
import type pg from 'pg'
import { SepiaError } from '../../shared/api'
import type { SearchFilters, SearchHit, SearchResult } from '../../shared/catalog'
import { isAgentId, type AgentId, type Role } from '../../shared/ir'
import { CANDIDATES, timeArg } from '../search/plan'
import { parseQuery } from '../search/query'
import { DEFAULT_LIMIT, hitOf, MAX_LIMIT, rankCandidates, type Candidate, type HitRow } from '../search/search'
import { termsRegex, type Term } from '../search/snippet'
import { isUnspaced, likePattern, termQuery } from './tsquery'

const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool']

/** SQL conditions with `$n` parameters, numbered as they are added. */
class Conditions {
  readonly list: string[] = []
  readonly args: unknown[] = []
  /** Add `value` as the next parameter; returns its `$n`. */
  arg(value: unknown): string {
    this.args.push(value)
    return `$${this.args.length}`
  }
  add(cond: string): void {
    this.list.push(cond)
  }
}

function list<T extends string>(value: T | T[] | undefined, ok: (v: unknown) => boolean, name: string): T[] | undefined {
  if (value === undefined) return undefined
  const arr = Array.isArray(value) ? value : [value]
  for (const v of arr) if (!ok(v)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${String(v)}" is not a valid ${name}.` })
  return arr.length ? arr : undefined
}

/** The filters as conditions over `m` (messages) and `s` (sessions); the same checks and messages as `search/plan.ts` `scopeOf`. */
function filterConditions(c: Conditions, machines: readonly string[], filters: SearchFilters): void {
  c.add(`s.machine = ANY(${c.arg(machines)}::text[])`)
  const agents = list<AgentId>(filters.agent, isAgentId, 'agent')
  if (agents) c.add(`s.agent = ANY(${c.arg(agents)}::text[])`)
  if (filters.project !== undefined) {
    if (typeof filters.project !== 'string' || filters.project === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The project filter must be a folder path.' })
    const p = filters.project.replace(/[\\/]+$/, '')
    c.add(`(s.project = ${c.arg(p)} OR substr(s.project, 1, ${c.arg(p.length + 1)}) = ${c.arg(`${p}/`)})`)
  }
  const since = timeArg(filters.since, 'since')
  const until = timeArg(filters.until, 'until')
  if (since !== undefined) c.add(`m.created_at >= ${c.arg(since)}`)
  if (until !== undefined) c.add(`m.created_at < ${c.arg(until)}`)
  if (filters.model !== undefined) {
    if (typeof filters.model !== 'string' || filters.model === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The model filter must be a model id.' })
    c.add(`substr(coalesce(m.model, s.model, ''), 1, ${c.arg(filters.model.length)}) = ${c.arg(filters.model)}`)
  }
  const roles = list<Role>(filters.role, (v) => ROLES.includes(v as Role), 'role')
  if (roles) c.add(`m.role = ANY(${c.arg(roles)}::text[])`)
  if (filters.toolName !== undefined) {
    if (typeof filters.toolName !== 'string' || filters.toolName.trim() === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The tool filter must be a tool name.' })
    c.add(`strpos(lower(m.tool_names), ${c.arg(` ${filters.toolName.trim().toLowerCase()} `)}) > 0`)
  }
}

/** The match conditions of `parts` (ANDed) and `excluded` (each negated). */
function matchConditions(c: Conditions, parts: readonly Term[], excluded: readonly Term[]): void {
  for (const t of parts) {
    const q = termQuery(t)
    if (!q) continue
    const fts = `m.tsv @@ ${c.arg(q)}::tsquery`
    if (t.tokens.some(isUnspaced)) c.add(`(${fts} OR (${t.tokens.map((tok) => `m.text ILIKE ${c.arg(likePattern(tok))}`).join(' AND ')}))`)
    else c.add(fts)
  }
  for (const t of excluded) {
    const q = termQuery(t)
    if (q) c.add(`NOT (m.tsv @@ ${c.arg(q)}::tsquery)`)
  }
}

/**
 * Search the messages of the sessions of `machines` (in priority order: a session pushed by two
 * machines is shown once, from the first). Rejects `BAD_ARGUMENT` for bad filters.
 */
export async function searchTeam(db: pg.Pool, machines: readonly string[], query: string, filters: SearchFilters = {}): Promise<SearchResult> {
  const started = performance.now()
  if (typeof query !== 'string') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The search query must be text.' })
  if (filters === null || typeof filters !== 'object') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Search filters must be an object.' })
  const parsed = parseQuery(query)
  const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(Number(filters.limit ?? DEFAULT_LIMIT)) || DEFAULT_LIMIT))
  const offset = Math.max(0, Math.floor(Number(filters.offset ?? 0)) || 0)
  const done = (hits: SearchHit[], more: boolean): SearchResult => ({ query, hits, more, partial: false, tookMs: Math.round((performance.now() - started) * 10) / 10 })
  // Filters are checked even when there is nothing to search (as the SQLite search does once it has a scope).
  filterConditions(new Conditions(), machines.length ? machines : [''], filters)
  if (!parsed.match || machines.length === 0) return done([], false)

  const exactParts = parsed.parts.map((p) => ({ ...p, prefix: false }))
  const hasPrefix = parsed.parts.some((p) => p.prefix)
  const runs = new Map<boolean, { want: number; rows: Candidate[] }>()
  const run = async (prefix: boolean, want: number): Promise<Candidate[]> => {
    const had = runs.get(prefix)
    if (had && (had.want >= want || had.rows.length < had.want)) return had.rows.slice(0, want)
    const c = new Conditions()
    filterConditions(c, machines, filters)
    matchConditions(c, prefix ? parsed.parts : exactParts, parsed.excluded)
    const r = await db.query(`SELECT m.mid, m.created_at, m.text FROM messages m JOIN sessions s ON s.sid = m.sid WHERE ${c.list.join(' AND ')} ORDER BY m.mid DESC LIMIT ${c.arg(want)}`, c.args)
    const rows = (r.rows as { mid: string; created_at: string | null; text: string }[]).map((x) => ({ mid: Number(x.mid), created_at: x.created_at === null ? null : Number(x.created_at), text: x.text }))
    runs.set(prefix, { want, rows })
    return rows
  }
  const fragment = parsed.parts[parsed.parts.length - 1]?.tokens.at(-1) ?? ''
  const candidatesFor = async (off: number): Promise<{ rows: Candidate[]; ranked: number }> => {
    const ranked = Math.max(CANDIDATES, off + limit)
    let rows = hasPrefix ? await run(false, ranked + 1) : []
    if (!hasPrefix || (rows.length < off + limit && fragment.length >= 3)) rows = await run(true, ranked + 1)
    return { rows, ranked }
  }
  const current = await candidatesFor(offset)
  const more = current.rows.length > offset + limit || (await candidatesFor(offset + limit)).rows.length > offset + limit
  const candidates = current.rows.slice(0, current.ranked).map((c) => ({ ...c }))
  const re = termsRegex(parsed.parts)
  rankCandidates(candidates, re, filters.sort)
  const page = candidates.slice(offset, offset + limit)
  if (page.length === 0) return done([], more)
  const info = await db.query(
    `SELECT m.mid, m.seq, m.node_id, m.role, m.created_at, m.model, m.tool_names, s.agent, s.session_id, s.title, s.project, s.machine
     FROM messages m JOIN sessions s ON s.sid = m.sid WHERE m.mid = ANY($1::bigint[])`,
    [page.map((c) => c.mid)],
  )
  const byMid = new Map((info.rows as (Omit<HitRow, 'mid' | 'created_at'> & { mid: string; created_at: string | null; machine: string })[]).map((r) => [Number(r.mid), r]))
  const seen = new Set<string>()
  const hits: SearchHit[] = []
  for (const c of page) {
    const r = byMid.get(c.mid)
    if (!r) continue
    const key = `${r.agent}/${r.session_id}/${r.node_id}`
    if (seen.has(key)) continue
    seen.add(key)
    hits.push(hitOf({ ...r, mid: c.mid, created_at: r.created_at === null ? null : Number(r.created_at) }, c, re))
  }
  return done(hits, more)
}
