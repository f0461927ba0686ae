/**
 * Full-text search over the catalog (`messages` + the `fts` FTS5 index, see catalog/schema.ts).
 *
 * Speed: ranking every match of a common word costs ~100 ms per 50 MB of text, so the search
 * takes the newest `CANDIDATES` matches that pass the filters, in index order (FTS5 walks its
 * doclists backwards and stops at the limit; filters are applied per chunk, at most
 * `MAX_SCANNED` matches are looked at), ranks those by a BM25-like score computed from their
 * text (or by time, `sort: "recent"`), and makes snippets for the page returned (`snippet.ts`).
 */
import type Database from 'better-sqlite3'
import { SepiaError } from '../../shared/api'
import type { SearchFilters, SearchHit, SearchResult } from '../../shared/catalog'
import { isAgentId, type AgentId, type Role } from '../../shared/ir'
import { inList } from '../catalog/store'
import { parseQuery } from './query'
import { maskText } from '../secrets/mask'
import { matchesIn, scoreOf, snippetOf, termsRegex } from './snippet'

/** Matches considered per search (ranked among themselves). */
export const CANDIDATES = 150
/** Matches fetched from the index first when filters are set, and at most per search. */
const CHUNK = 400
const MAX_SCANNED = 25_600
/** Default and largest page of hits. */
const DEFAULT_LIMIT = 30
const MAX_LIMIT = 500
const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool']

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

interface Candidate {
  mid: number
  created_at: number | null
  text: string
  score?: number
  matches?: [number, number][]
}

interface HitRow {
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
 * the index (the result is then `partial`). Rejects `BAD_ARGUMENT` for bad filters.
 */
export function searchCatalog(db: Database.Database, homes: readonly string[], query: string, filters: SearchFilters = {}, pending = 0): SearchResult {
  const started = performance.now()
  if (typeof query !== 'string') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The search query must be text.' })
  if (filters === null || typeof filters !== 'object') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Search filters must be an object.' })
  const parsed = parseQuery(query)
  const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(Number(filters.limit ?? DEFAULT_LIMIT)) || DEFAULT_LIMIT))
  const offset = Math.max(0, Math.floor(Number(filters.offset ?? 0)) || 0)
  const done = (hits: SearchHit[], more: boolean): SearchResult => ({ query, hits, more, partial: pending > 0, tookMs: Math.round((performance.now() - started) * 10) / 10 })
  if (!parsed.match || homes.length === 0) return done([], false)

  const where: string[] = [`s.home IN ${inList(homes.length)}`]
  const args: unknown[] = [...homes]
  const agents = list<AgentId>(filters.agent, isAgentId, 'agent')
  if (agents) {
    where.push(`s.agent IN ${inList(agents.length)}`)
    args.push(...agents)
  }
  if (filters.project !== undefined) {
    if (typeof filters.project !== 'string' || filters.project === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The project filter must be a folder path.' })
    const p = filters.project.replace(/[\\/]+$/, '')
    where.push(`(s.project = ? OR substr(s.project, 1, ?) = ?)`)
    args.push(p, p.length + 1, `${p}/`)
  }
  const since = timeArg(filters.since, 'since')
  const until = timeArg(filters.until, 'until')
  if (since !== undefined) {
    where.push('m.created_at >= ?')
    args.push(since)
  }
  if (until !== undefined) {
    where.push('m.created_at < ?')
    args.push(until)
  }
  if (filters.model !== undefined) {
    if (typeof filters.model !== 'string' || filters.model === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The model filter must be a model id.' })
    where.push(`substr(coalesce(m.model, s.model, ''), 1, ?) = ?`)
    args.push(filters.model.length, filters.model)
  }
  const roles = list<Role>(filters.role, (v) => ROLES.includes(v as Role), 'role')
  if (roles) {
    where.push(`m.role IN ${inList(roles.length)}`)
    args.push(...roles)
  }
  if (filters.toolName !== undefined) {
    if (typeof filters.toolName !== 'string' || filters.toolName.trim() === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The tool filter must be a tool name.' })
    where.push(`instr(lower(m.tool_names), ?) > 0`)
    args.push(` ${filters.toolName.trim().toLowerCase()} `)
  }

  // Take the newest matches from the index (FTS5 walks its doclists backwards and stops at the
  // limit), keep those that pass the filters (CROSS JOIN: look rows up by id, never scan by home).
  // With filters that keep few, ask again for 8x more matches, up to MAX_SCANNED.
  let candidates: Candidate[] = []
  let exhausted = false
  // The home condition filters too when the catalog also holds homes that are not open (it is
  // shared across runs): then the newest matches may all belong elsewhere.
  const otherHomes = db.prepare(`SELECT 1 FROM sessions WHERE home NOT IN ${inList(homes.length)} LIMIT 1`).get(...homes) !== undefined
  const filtered = where.length > 1 || otherHomes
  const fetch = (match: string, take: number): Candidate[] =>
    db
      .prepare(
        `SELECT m.mid AS mid, m.created_at AS created_at
         FROM (SELECT rowid AS mid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC LIMIT ?) f
         CROSS JOIN messages m ON m.mid = f.mid CROSS JOIN sessions s ON s.sid = m.sid
         WHERE ${where.join(' AND ')} ORDER BY m.mid DESC LIMIT ?`,
      )
      .all(match, take, ...args, CANDIDATES + 1) as Candidate[]
  const run = (match: string): void => {
    for (let want = filtered ? 8 * CHUNK : CANDIDATES + 1; ; want *= 8) {
      const take = Math.min(want, MAX_SCANNED)
      candidates = fetch(match, take)
      if (candidates.length > CANDIDATES) return
      if (!filtered) {
        exhausted = true
        return
      }
      const scanned = (db.prepare(`SELECT count(*) AS n FROM (SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC LIMIT ?)`).get(match, take) as { n: number }).n
      if (scanned < take) exhausted = true
      if (exhausted || take >= MAX_SCANNED) return
    }
  }
  try {
    // While typing, the last word is also a prefix. Its whole-word matches are tried first: a
    // prefix expands to every indexed word that starts with it, which is slow on a large index.
    // It is used only when the whole words give less than a page and the fragment has 3+ characters.
    if (parsed.exact) run(parsed.exact)
    const fragment = parsed.parts[parsed.parts.length - 1]?.tokens.at(-1) ?? ''
    if (!parsed.exact || (candidates.length < offset + limit && fragment.length >= 3)) {
      exhausted = false
      run(parsed.match)
    }
  } catch (e) {
    throw new SepiaError({ code: 'BAD_ARGUMENT', message: `Sepia could not search for that text (${e instanceof Error ? e.message : String(e)}). Try plain words.` })
  }
  const overflow = candidates.length > CANDIDATES
  candidates = candidates.slice(0, CANDIDATES)
  if (candidates.length > 0) {
    const texts = db.prepare(`SELECT mid, text FROM messages WHERE mid IN ${inList(candidates.length)}`).all(...candidates.map((c) => c.mid)) as { mid: number; text: string }[]
    const byMid = new Map(texts.map((t) => [t.mid, t.text]))
    for (const c of candidates) c.text = byMid.get(c.mid) ?? ''
  }
  const re = termsRegex(parsed.parts)
  const avg = candidates.reduce((n, c) => n + c.text.length, 0) / Math.max(1, candidates.length)
  for (const c of candidates) {
    c.matches = re ? matchesIn(c.text, re) : []
    c.score = scoreOf(c.matches.length, c.text.length, avg)
  }
  if (filters.sort === 'recent') candidates.sort((a, b) => (b.created_at ?? 0) - (a.created_at ?? 0) || b.mid - a.mid)
  else candidates.sort((a, b) => b.score! - a.score! || b.mid - a.mid)
  const page = candidates.slice(offset, offset + limit)
  if (page.length === 0) return done([], false)
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
    hits.push(hit)
  }
  return done(hits, candidates.length > offset + limit || ((overflow || !exhausted) && candidates.length >= offset + limit))
}
