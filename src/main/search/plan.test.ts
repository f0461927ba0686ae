/**
 * The fast candidate plan (`plan.ts`) gives exactly the hits of the plan it replaced
 * (`tests/builders/search/plan-reference.ts`): a broad set of queries × filters × open homes, over
 * the real fixture homes and over a generated catalog (~2,300 messages, one project holding over half of them, sessions'
 * messages interleaved, two homes), with both ways of applying session filters forced, with a
 * small cap as well as without one (the default plan looks at every match, issue 15), and with
 * pages that end exactly at the last candidate. Also: `more` is true exactly when the next page
 * returns a hit; the statement's plan (covering indexes, no sort).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SearchFilters, SearchResult } from '../../shared/catalog'
import { AGENTS } from '../agents/registry'
import { openCatalog } from '../catalog/schema'
import { findAppRoot } from '../context'
import { LibraryService } from '../library'
import { layoutForHome } from '../platform'
import { candidateSql, findCandidates, scopeOf, type CandidateFinder, type FindOptions } from './plan'
import { referenceCandidates } from '../../../tests/builders/search/plan-reference'
import { parseQuery } from './query'
import { searchCatalog } from './search'

/** A reference configuration and the fast finders that must give its hits. */
interface Group {
  name: string
  reference: CandidateFinder
  fast: [string, CandidateFinder][]
}

const fast = (o: FindOptions): CandidateFinder => (db, scope, match, want) => findCandidates(db, scope, match, o, want)
const reference = (chunk: number, cap: number): CandidateFinder => (db, scope, match, want) => referenceCandidates(db, scope, match, chunk, cap, want)
/** No cap (the default plan), and a small one (reached by common words) with both ways of applying session filters forced. */
const groups = (small: number): Group[] => [
  // The default plan looks at every match (issue 15): the reference without a cap.
  { name: 'uncapped', reference: reference(400, Infinity), fast: [['default', fast({})]] },
  { name: `cap ${small}`, reference: reference(Math.ceil(small / 64), small), fast: [['by sid', fast({ cap: small, small: -1 })], ['by mid', fast({ cap: small, small: 1e9 })]] },
]

const strip = (r: SearchResult) => ({ hits: r.hits, more: r.more, partial: r.partial })

/**
 * Runs every combination through the reference and the fast finders: the candidates of each MATCH
 * expression the search runs (rows and `exhausted`) for every group, and the search's hits (default
 * page, and a page that ends at the last candidate: offset 1, limit = all hits - 1) with the
 * default finder. Returns the combinations that differ, and counts.
 */
function compare(db: Database.Database, homeSets: string[][], queries: string[], filterSets: SearchFilters[], cap: number) {
  const GROUPS = groups(cap)
  const diffs: string[] = []
  let withHits = 0
  let exact = 0
  for (const homes of homeSets)
    for (const q of queries)
      for (const f of filterSets) {
        const at = `${JSON.stringify(homes)} ${JSON.stringify(q)} ${JSON.stringify(f)}`
        const parsed = parseQuery(q)
        const scope = scopeOf(db, homes, f)
        for (const match of [parsed.exact, parsed.match]) {
          if (match === undefined) continue
          for (const g of GROUPS) {
            const want = g.reference(db, scope, match)
            const wanted = JSON.stringify([want.rows, want.exhausted()])
            for (const [name, find] of g.fast) {
              const got = find(db, scope, match)
              if (JSON.stringify([got.rows, got.exhausted()]) !== wanted) diffs.push(`${g.name} ${name} ${match} ${at}`)
            }
          }
        }
        const all = searchCatalog(db, homes, q, { ...f, limit: 500 }, 0, GROUPS[0]!.reference)
        if (all.hits.length > 0) withHits++
        const variants: SearchFilters[] = [f]
        if (all.hits.length > 1 && all.hits.length < 500) {
          variants.push({ ...f, offset: 1, limit: all.hits.length - 1 })
          exact++
        }
        for (const v of variants) {
          const want = JSON.stringify(strip(searchCatalog(db, homes, q, v, 0, GROUPS[0]!.reference)))
          if (JSON.stringify(strip(searchCatalog(db, homes, q, v))) !== want) diffs.push(`hits ${at} ${JSON.stringify(v)}`)
        }
      }
  return { diffs, withHits, exact }
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function rng(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = ['the', 'return', 'value', 'parse', 'render', 'session', 'token', 'model', 'error', 'promise', 'alpha', 'beta', 'gamma', 'café', 'Cafe', 'naïve', 'École', 'Straße', 'ёжик', '東京', 'src/main/lib.ts', 'parse_invoice_line', 'getSessionPage', 'getSessions', 'v2.1', 'zebra']
const GEN_HOMES = ['/gen/one', '/gen/two']
const P = '/home/ana/src'
/** Projects by weight (of sessions; the big one's are longer: it holds half the messages); neighbours that a prefix test must tell apart. */
const PROJECTS: [string | null, number][] = [[`${P}/big`, 30], [`${P}/big/sub`, 5], [`${P}/big-x`, 5], [`${P}/bigger`, 3], [null, 7], ...Array.from({ length: 10 }, (_, i) => [`${P}/p-${i}`, 3] as [string, number])]
const GEN_AGENTS = ['claude-code', 'codex', 'cline', 'gemini'] as const
const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 1)

/** A catalog of 150 sessions / ~2,200 messages written directly (rows as `store.ts` writes them). */
function generated(): Database.Database {
  const db = openCatalog(':memory:')
  const r = rng(8)
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
  const weighted = (): string | null => {
    let x = r() * PROJECTS.reduce((n, [, w]) => n + w, 0)
    for (const [p, w] of PROJECTS) if ((x -= w) < 0) return p
    return null
  }
  const insSession = db.prepare(
    `INSERT INTO sessions (home, agent, session_id, format, project, model, size, mtime_ms, stamp, ref, summary, gen) VALUES (?, ?, ?, 'x', ?, ?, 0, 0, '', '{}', '{}', 0)`,
  )
  const sessions: { sid: number; left: number; seq: number }[] = []
  for (let i = 0; i < 150; i++) {
    const project = weighted()
    // The big project's sessions are long: it holds about half of the messages.
    const size = project === `${P}/big` ? 12 + Math.floor(r() * 25) : 3 + Math.floor(r() * 16)
    const sid = Number(insSession.run(i % 7 === 0 ? GEN_HOMES[1] : GEN_HOMES[0], pick(GEN_AGENTS), `s${i}`, project, pick(['claude-sonnet-4-5', 'gpt-5-codex', null])).lastInsertRowid)
    sessions.push({ sid, left: size, seq: 0 })
  }
  const insMsg = db.prepare('INSERT INTO messages (sid, seq, node_id, role, created_at, model, tool_names, sig, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
  db.transaction(() => {
    // Interleave sessions (as a refresh of several live sessions does), with runs of one session.
    for (let open = sessions.filter((s) => s.left > 0); open.length; open = open.filter((s) => s.left > 0)) {
      const s = pick(open)
      for (let run = 1 + Math.floor(r() * 4); run > 0 && s.left > 0; run--, s.left--) {
        const n = 1 + Math.floor(r() * 12)
        // Zipf-like: low indexes (common words) far more often.
        const text = Array.from({ length: n }, () => WORDS[Math.floor(WORDS.length * r() ** 2.5)]!).join(r() < 0.3 ? ' ' : '\n')
        const at = r() < 0.05 ? null : T0 + Math.floor(r() * 120 * DAY)
        insMsg.run(s.sid, s.seq, `n${s.seq}`, pick(['user', 'assistant', 'assistant', 'tool', 'system']), at, pick(['claude-opus-4', 'gpt-5', null, null]), pick(['', ' Bash ', ' Read Edit ', ' bash_exec ', null]), '', text)
        s.seq++
      }
    }
    db.exec(`INSERT INTO fts(rowid, text) SELECT mid, text FROM messages`)
  })()
  return db
}

const GEN_FILTERS: SearchFilters[] = [
  {},
  { agent: 'codex' },
  { agent: ['codex', 'cline'] },
  { project: `${P}/big` },
  { project: `${P}/big/` },
  { project: `${P}/p-3` },
  { project: P },
  { project: '/nowhere' },
  { role: ['system', 'tool'] },
  { since: '2026-03-01' },
  { since: '2026-02-01', until: '2026-02-15' },
  { model: 'gpt' },
  { toolName: 'Bash' },
  { toolName: 'read' },
  { project: `${P}/big`, role: 'user' },
  { agent: 'codex', toolName: 'Bash', since: '2026-02-01' },
  { project: `${P}/p-7`, model: 'claude' },
  { project: `${P}/big`, sort: 'recent' },
  { agent: 'gemini', project: `${P}/bigger`, role: ['assistant'] },
]
const GEN_QUERIES = ['the', 'return', 'value parse', 'ret', 'café', 'ecole', 'src/main/lib.ts', 'lib.ts ', 'getSess', '"render token"', 'error -promise', 'zebra', 'nothinglikethis', '-the']

describe('candidate plan', () => {
  it('gives the reference plan`s hits on a generated catalog with a skewed project distribution', () => {
    const db = generated()
    const counts = db.prepare(`SELECT count(*) AS messages, (SELECT count(*) FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.project = ?) AS big FROM messages`).get(`${P}/big`) as { messages: number; big: number }
    expect(counts.messages).toBeGreaterThan(2000)
    expect(counts.big / counts.messages).toBeGreaterThan(0.4)
    const r = compare(db, [[GEN_HOMES[0]!], GEN_HOMES], GEN_QUERIES, GEN_FILTERS, 300)
    expect(r.diffs.slice(0, 5)).toEqual([])
    expect(r.diffs.length).toBe(0)
    expect(r.withHits).toBeGreaterThan(350)
    expect(r.exact).toBeGreaterThan(300)
    db.close()
    // A catalog without the covering index (not opened by openCatalog) gives the same rows.
    const bare = generated()
    bare.exec('DROP INDEX messages_meta')
    expect(compare(bare, [[GEN_HOMES[0]!]], GEN_QUERIES.slice(0, 6), GEN_FILTERS.slice(0, 6), 300).diffs).toEqual([])
    bare.close()
  }, 120_000)
})

describe('more', () => {
  it('is true exactly when the next page (offset + limit) returns a hit', () => {
    const db = generated()
    const home = [GEN_HOMES[0]!]
    // Independent count: 'zebra' occurs only as a whole word of the generated texts.
    const zebra = db.prepare(`SELECT count(*) FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.home = ? AND m.text LIKE '%zebra%'`).pluck().get(home[0]) as number
    expect(zebra).toBeGreaterThan(20)
    let lastPages = 0
    for (const q of ['the', 'zebra', 'ret', 'getSess', 'value parse'])
      for (const f of [{}, { project: `${P}/big` }, { role: 'user' as const }])
        for (const limit of [7, 30, 150, 200])
          for (let offset = 0; offset < 400; offset += limit) {
            const r = searchCatalog(db, home, q, { ...f, limit, offset })
            const next = searchCatalog(db, home, q, { ...f, limit, offset: offset + limit })
            expect(r.more, `${q} ${JSON.stringify(f)} ${offset}+${limit}`).toBe(next.hits.length > 0)
            if (q === 'zebra' && Object.keys(f).length === 0) expect(r.more).toBe(zebra > offset + limit)
            if (!r.more && r.hits.length > 0) lastPages++
            if (!r.more) break
          }
    expect(lastPages).toBeGreaterThan(20)
    db.close()
  }, 60_000)
})

describe('candidate plan over the fixture homes', () => {
  const ROOT = findAppRoot()
  const homes = readdirSync(join(ROOT, 'fixtures/real'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(ROOT, 'fixtures/real', d.name, 'home'))
  let lib: LibraryService
  beforeAll(async () => {
    lib = new LibraryService(await Promise.all(homes.map(async (home) => ({ layout: await layoutForHome({ home }), isDemo: false }))), AGENTS, { now: () => 0 }, { workers: 0 })
    await lib.load()
    await lib.whenIdle()
  }, 120_000)
  afterAll(async () => {
    await lib.close()
  })

  it('gives the reference plan`s hits for words of the fixtures × filters × homes', () => {
    const db = lib.db
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(search, 'fts', 'row')`)
    const terms = db.prepare(`SELECT term FROM temp.vocab WHERE term GLOB '[a-z]*' ORDER BY doc DESC, term`).pluck().all() as string[]
    expect(terms.length).toBeGreaterThan(200)
    const step = Math.floor(terms.length / 6)
    const queries = [...terms.slice(0, 5), ...Array.from({ length: 6 }, (_, i) => terms[(i + 1) * step - 1]!), terms.at(-1)!, `${terms[0]} ${terms[5]}`, `${terms[1]} -${terms[2]}`, terms[3]!.slice(0, 3), `"${terms[0]} ${terms[1]}"`]
    const meta = db.prepare(`SELECT DISTINCT s.agent, s.project, m.role, trim(m.tool_names) AS tools, coalesce(m.model, s.model) AS model FROM messages m JOIN sessions s ON s.sid = m.sid`).all() as { agent: string; project: string | null; role: string; tools: string | null; model: string | null }[]
    const times = (db.prepare('SELECT created_at FROM messages WHERE created_at IS NOT NULL ORDER BY created_at').pluck().all() as number[])
    const distinct = <T,>(xs: (T | null)[]) => [...new Set(xs.filter((x): x is T => x !== null && x !== ''))]
    const projects = distinct(meta.map((m) => m.project))
    const filters: SearchFilters[] = [
      {},
      ...distinct(meta.map((m) => m.agent)).map((agent) => ({ agent }) as SearchFilters),
      ...projects.slice(0, 6).map((project) => ({ project })),
      { project: '/home/ana' },
      ...distinct(meta.map((m) => m.role)).map((role) => ({ role }) as SearchFilters),
      ...distinct(meta.map((m) => m.tools?.split(' ')[0] ?? null)).slice(0, 3).map((toolName) => ({ toolName })),
      ...distinct(meta.map((m) => m.model?.slice(0, 6) ?? null)).slice(0, 3).map((model) => ({ model })),
      { since: times[Math.floor(times.length / 2)]! },
      { until: times[Math.floor(times.length / 3)]!, role: 'assistant' },
      { project: projects[0]!, role: 'user', sort: 'recent' },
    ]
    expect(projects.length).toBeGreaterThan(3)
    const r = compare(db, [lib.homePaths, lib.homePaths.slice(2, 5)], queries, filters, 40)
    expect(r.diffs.slice(0, 5)).toEqual([])
    expect(r.diffs.length).toBe(0)
    expect(r.withHits).toBeGreaterThan(300)
    expect(r.exact).toBeGreaterThan(50)
  }, 120_000)
})

describe('candidate statement', () => {
  it('reads covering indexes only and stops early (no sort)', () => {
    const db = openCatalog(':memory:')
    const plan = (f: SearchFilters, o: FindOptions) => {
      const { sql, args } = candidateSql(db, scopeOf(db, ['/h'], f), o)
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('"x"', 100, ...args, 151) as { detail: string }[]).map((r) => r.detail)
    }
    const byMid = plan({ project: '/p' }, {})
    expect(byMid).toContain('SEARCH m USING COVERING INDEX messages_meta (mid=?)')
    expect(byMid).toContain('SEARCH messages USING COVERING INDEX messages_sid (sid=?)')
    expect(byMid.some((d) => /SEARCH sessions USING COVERING INDEX sessions_project \(home=\? AND project>\? AND project<\?\)/.test(d))).toBe(true)
    const bySid = plan({ agent: 'codex', role: 'user' }, { small: -1 })
    expect(bySid).toContain('SEARCH m USING COVERING INDEX messages_meta (mid=?)')
    expect(bySid.some((d) => /SEARCH sessions USING COVERING INDEX/.test(d))).toBe(true)
    for (const p of [byMid, bySid, plan({ role: 'user' }, {}), plan({ model: 'gpt' }, {})]) {
      expect(p.filter((d) => /TEMP B-TREE/.test(d))).toEqual([])
      expect(p.filter((d) => /^SCAN (messages|sessions|m|s)\b/.test(d))).toEqual([])
    }
    db.close()
  })
})
