/**
 * Full-text search over the catalog (`messages` + the `fts` FTS5 index, see catalog/schema.ts).
 *
 * Speed: ranking every match of a common word costs ~100 ms per 50 MB of text, so the search
 * takes the newest `max(CANDIDATES, offset + limit)` matches that pass the filters, in index order
 * (FTS5 walks its doclists backwards and stops at the limit; filters never hide matches: when the
 * newest `MAX_SCANNED` hold too few that pass, every match is looked at; how filters are applied
 * fast is in `plan.ts`), ranks those by a BM25-like score computed from their text (or by time,
 * `sort: "recent"`), and makes snippets for the page returned (`snippet.ts`). `more` is true
 * exactly when the next page (`offset + limit`, same `limit`) returns at least one hit.
 */
import type Database from 'better-sqlite3'
import { SepiaError } from '../../shared/api'
import type { SearchFilters, SearchHit, SearchResult } from '../../shared/catalog'
import type { AgentId, Role } from '../../shared/ir'
import { parseQuery } from './query'
import { inList } from '../catalog/store'
import { maskText } from '../secrets/mask'
import { CANDIDATES, findCandidates, scopeOf, type CandidateFinder } from './plan'
import { expandPrefixes } from './prefix'
import { matchesIn, scoreOf, snippetOf, termsRegex } from './snippet'

export { CANDIDATES, timeArg } from './plan'
/** Default and largest page of hits. */
export const DEFAULT_LIMIT = 30
export const MAX_LIMIT = 500

/** A message that may be a hit: id (`mid`), time (ms since epoch), indexed text, then its score and match offsets. */
export interface Candidate {
  mid: number
  created_at: number | null
  text: string
  score?: number
  matches?: [number, number][]
}

/** What a hit shows of its message and session. */
export interface HitRow {
  mid: number
  seq: number
  node_id: string
  role: Role
  created_at: number | null
  model: string | null
  tool_names: string | null
  agent: string
  session_id: string
  title: string | null
  project: string | null
}

/**
 * Search the messages of the sessions under `homes`. `pending` is the number of rows not yet in
 * the index (the result is then `partial`). `find` picks the candidates of one MATCH expression
 * (tests pass other plans to compare them). Rejects `BAD_ARGUMENT` for bad filters.
 */
export function searchCatalog(db: Database.Database, homes: readonly string[], query: string, filters: SearchFilters = {}, pending = 0, find: CandidateFinder = (d, sc, m, want) => findCandidates(d, sc, m, {}, want)): SearchResult {
  const started = performance.now()
  if (typeof query !== 'string') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The search query must be text.' })
  if (filters === null || typeof filters !== 'object') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Search filters must be an object.' })
  const parsed = parseQuery(query)
  const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(Number(filters.limit ?? DEFAULT_LIMIT)) || DEFAULT_LIMIT))
  const offset = Math.max(0, Math.floor(Number(filters.offset ?? 0)) || 0)
  const done = (hits: SearchHit[], more: boolean): SearchResult => ({ query, hits, more, partial: pending > 0, tookMs: Math.round((performance.now() - started) * 10) / 10 })
  if (!parsed.match || homes.length === 0) return done([], false)

  const scope = scopeOf(db, homes, filters)
  const bad = (e: unknown): SepiaError =>
    new SepiaError({ code: 'BAD_ARGUMENT', message: `Sepia could not search for that text (${e instanceof Error ? e.message : String(e)}). Try plain words.` })
  // The candidates of one MATCH expression, newest first, `want` at most. A finder's rows for a
  // larger `want` start with its rows for a smaller one, and fewer rows than asked are all it has:
  // kept per expression, so the next page's candidates (for `more`) rarely cost another walk.
  const runs = new Map<string, { want: number; rows: Candidate[] }>()
  const expansions = new Map<string, string>()
  const run = (match: string, want: number): Candidate[] => {
    const had = runs.get(match)
    if (had && (had.want >= want || had.rows.length < had.want)) return had.rows.slice(0, want)
    let rows: Candidate[]
    try {
      // A prefix word as the OR of its terms (`prefix.ts`): the same rows, without FTS5's whole merge.
      const expanded = expansions.get(match) ?? expandPrefixes(db, match)
      expansions.set(match, expanded)
      rows = (want === CANDIDATES + 1 ? find(db, scope, expanded) : find(db, scope, expanded, want)).rows as Candidate[]
    } catch (e) {
      throw bad(e)
    }
    runs.set(match, { want, rows })
    return rows
  }
  const fragment = parsed.parts[parsed.parts.length - 1]?.tokens.at(-1) ?? ''
  /**
   * The candidates ranked for the page at `off`: the newest `max(CANDIDATES, off + limit)` matches
   * (plus one). While typing, the last word is also a prefix. Its whole-word matches are tried
   * first: a prefix expands to every indexed word that starts with it, which is slow on a large
   * index. It is used only when the whole words give less than the page and the fragment has 3+
   * characters.
   */
  const candidatesFor = (off: number): { rows: Candidate[]; ranked: number } => {
    const ranked = Math.max(CANDIDATES, off + limit)
    let rows = parsed.exact ? run(parsed.exact, ranked + 1) : []
    if (!parsed.exact || (rows.length < off + limit && fragment.length >= 3)) rows = run(parsed.match!, ranked + 1)
    return { rows, ranked }
  }
  const current = candidatesFor(offset)
  // `more`: the next page (offset + limit, same limit) returns at least one hit, i.e. its
  // candidates outnumber offset + limit (the first hit of a page is never a duplicate).
  const more = current.rows.length > offset + limit || candidatesFor(offset + limit).rows.length > offset + limit
  let candidates = current.rows.slice(0, current.ranked).map((c) => ({ ...c }))
  if (candidates.length > 0) {
    const texts = db.prepare(`SELECT mid, text FROM messages WHERE mid IN ${inList(candidates.length)}`).all(...candidates.map((c) => c.mid)) as { mid: number; text: string }[]
    const byMid = new Map(texts.map((t) => [t.mid, t.text]))
    for (const c of candidates) c.text = byMid.get(c.mid) ?? ''
  }
  const re = termsRegex(parsed.parts)
  rankCandidates(candidates, re, filters.sort)
  const page = candidates.slice(offset, offset + limit)
  if (page.length === 0) return done([], more)
  const info = db.prepare(
    `SELECT m.mid, m.seq, m.node_id, m.role, m.created_at, m.model, m.tool_names, s.agent, s.session_id, s.title, s.project
     FROM messages m JOIN sessions s ON s.sid = m.sid WHERE m.mid = ?`,
  )
  const seen = new Set<string>()
  const hits: SearchHit[] = []
  for (const c of page) {
    const r = info.get(c.mid) as HitRow | undefined
    if (!r) continue
    const key = `${r.agent}/${r.session_id}/${r.node_id}`
    if (seen.has(key)) continue // the same session under two homes
    seen.add(key)
    hits.push(hitOf(r, c, re))
  }
  return done(hits, more)
}

/**
 * Score `candidates` (their `text` loaded) against the terms' regular expression and sort them:
 * by a BM25-like score, or newest first for `sort: "recent"`; ties newest (`mid`) first. In place.
 * Shared with the team catalog's search (src/main/team/search.ts).
 */
export function rankCandidates(candidates: Candidate[], re: RegExp | undefined, sort: SearchFilters['sort']): void {
  const avg = candidates.reduce((n, c) => n + c.text.length, 0) / Math.max(1, candidates.length)
  for (const c of candidates) {
    c.matches = re ? matchesIn(c.text, re) : []
    c.score = scoreOf(c.matches.length, c.text.length, avg)
  }
  if (sort === 'recent') candidates.sort((a, b) => (b.created_at ?? 0) - (a.created_at ?? 0) || b.mid - a.mid)
  else candidates.sort((a, b) => b.score! - a.score! || b.mid - a.mid)
}

/** The hit of a ranked candidate `c` and its message/session row `r` (snippet cut from masked text). */
export function hitOf(r: HitRow, c: Candidate, re: RegExp | undefined): SearchHit {
  // Cut the snippet from masked text: a secret split by the snippet's edge would otherwise leave
  // a fragment the mask no longer recognises.
  const masked = maskText(c.text)
  const { snippet, highlights } = masked.count > 0 ? snippetOf(masked.text, re ? matchesIn(masked.text, re) : []) : snippetOf(c.text, c.matches ?? [])
  const hit: SearchHit = { agent: r.agent as AgentId, sessionId: r.session_id, nodeId: r.node_id, role: r.role, snippet, highlights, nodeIndex: r.seq }
  if (r.created_at !== null) hit.createdAt = r.created_at
  if (r.title !== null) hit.sessionTitle = r.title
  if (r.project !== null) hit.project = r.project
  if (r.model !== null) hit.model = r.model
  const tools = (r.tool_names ?? '').trim()
  if (tools) hit.toolNames = tools.split(/\s+/)
  return hit
}
