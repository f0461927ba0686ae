/**
 * `npm run bench -- --postgres [--small] [--keep]`: the team catalog next to the desktop one
 * (issue 20). On the bench corpus (bench/corpus.ts; 10k sessions, or ~1.5k with `--small`):
 * 1. the SQLite catalog indexed (as `npm run bench` does);
 * 2. `pushHome` of the corpus to PostgreSQL (from that catalog, so the time is the push), then a
 *    second push (must send 0 sessions);
 * 3. search p50/p95 over the same queries on both catalogs (20 rounds), and the hit counts of
 *    each query on both (they must be equal);
 * 4. usage by day (all agents, UTC) on both, median of 5.
 * The server: `$SEPIA_BENCH_POSTGRES` (a URL) when set, else a throwaway cluster on a Unix socket
 * (tests/helpers/postgres.ts). Results go to `<base>/postgres.json` and stdout.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AGENTS } from '../src/main/agents/registry'
import { LibraryService } from '../src/main/library'
import { layoutForHome } from '../src/main/platform'
import { searchCatalog } from '../src/main/search/search'
import { TeamCatalog } from '../src/main/team/catalog'
import { pushHome } from '../src/main/team/push'
import { aggregateUsage } from '../src/main/usage/aggregate'
import { loadPricing, PriceBook, pricingCandidates } from '../src/main/usage/pricing'
import { startPostgres } from '../tests/helpers/postgres'
import { writeCorpus, type CorpusInfo } from './corpus'
import { pct, SEARCH_QUERIES } from './search-queries'

/** Where and how to run (from bench/run.ts). */
export interface PostgresBenchOptions {
  root: string
  base: string
  corpusDir: string
  infoFile: string
  small: boolean
  keep: boolean
  log: (msg: string) => void
}

const QUERIES: [string, Record<string, unknown>][] = [
  ...SEARCH_QUERIES,
  ['Bash', { toolName: 'Bash' }],
  ['value', { role: 'user', since: '2026-02-01' }],
  ['model', { sort: 'recent' }],
]

/** Run the bench; resolves the results object (also written to `<base>/postgres.json`). */
export async function runPostgresBench(o: PostgresBenchOptions): Promise<Record<string, unknown>> {
  mkdirSync(o.base, { recursive: true })
  let info: CorpusInfo
  if (o.keep && existsSync(o.infoFile)) info = JSON.parse(readFileSync(o.infoFile, 'utf8')) as CorpusInfo
  else {
    info = writeCorpus(o.small ? { root: o.corpusDir, repoRoot: o.root, largeSessionBytes: 30e6, claudeSessions: 200, clineSdkSessions: 300, clineLegacyTasks: 200, codexSessions: 300 } : { root: o.corpusDir, repoRoot: o.root })
    writeFileSync(o.infoFile, JSON.stringify(info))
  }
  const catalogPath = join(o.base, 'data-postgres', 'catalog.sqlite')
  mkdirSync(join(o.base, 'data-postgres'), { recursive: true })
  let t = performance.now()
  const lib = new LibraryService([{ layout: await layoutForHome({ home: info.home }), isDemo: false }], AGENTS, { now: Date.now }, { catalogPath })
  const library = await lib.load()
  await lib.whenIdle()
  const sqliteIndexMs = performance.now() - t
  o.log(`sqlite: ${library.sessions.length} sessions indexed in ${(sqliteIndexMs / 1000).toFixed(1)} s`)

  const own = process.env.SEPIA_BENCH_POSTGRES ? undefined : startPostgres()
  const url = process.env.SEPIA_BENCH_POSTGRES ?? own!.url
  const team = new TeamCatalog(url)
  try {
    t = performance.now()
    const first = await pushHome({ url, home: info.home, machine: 'bench', catalogPath, onProgress: (d, n) => d % 1000 === 0 && o.log(`  pushed ${d}/${n}`) })
    const pushMs = performance.now() - t
    t = performance.now()
    const second = await pushHome({ url, home: info.home, machine: 'bench', catalogPath })
    const repushMs = performance.now() - t
    o.log(`push: ${first.sent} sessions, ${first.messageRows} messages in ${(pushMs / 1000).toFixed(1)} s; again: ${second.sent} sent in ${(repushMs / 1000).toFixed(1)} s`)

    const sqliteTimes: number[] = []
    const pgTimes: number[] = []
    const hits: Record<string, { sqlite: number; postgres: number }> = {}
    for (let round = 0; round < 20; round++) {
      for (const [q, f] of QUERIES) {
        let s = performance.now()
        const a = searchCatalog(lib.db, [info.home], q, f as never)
        sqliteTimes.push(performance.now() - s)
        s = performance.now()
        const b = await team.search(q, f as never)
        pgTimes.push(performance.now() - s)
        hits[q] = { sqlite: a.hits.length, postgres: b.hits.length }
      }
    }
    o.log(`search sqlite p50 ${pct(sqliteTimes, 50).toFixed(1)} p95 ${pct(sqliteTimes, 95).toFixed(1)} ms; postgres p50 ${pct(pgTimes, 50).toFixed(1)} p95 ${pct(pgTimes, 95).toFixed(1)} ms`)

    const prices = new PriceBook(loadPricing(pricingCandidates(undefined, o.root)))
    const uS: number[] = []
    const uP: number[] = []
    let totals = { sqlite: 0, postgres: 0 }
    for (let i = 0; i < 5; i++) {
      let s = performance.now()
      const a = aggregateUsage(lib.db, [info.home], { by: 'day', timeZone: 'UTC' }, prices)
      uS.push(performance.now() - s)
      s = performance.now()
      const b = await team.usage({ by: 'day', timeZone: 'UTC' }, prices)
      uP.push(performance.now() - s)
      totals = { sqlite: a.totals.totalTokens, postgres: b.totals.totalTokens }
    }
    const results = {
      date: new Date().toISOString(),
      sessions: library.sessions.length,
      sqliteIndexMs: Math.round(sqliteIndexMs),
      push: { sessions: first.sent, messageRows: first.messageRows, usageRows: first.usageRows, ms: Math.round(pushMs), again: { sent: second.sent, ms: Math.round(repushMs) } },
      search: { sqlite: { p50: pct(sqliteTimes, 50), p95: pct(sqliteTimes, 95) }, postgres: { p50: pct(pgTimes, 50), p95: pct(pgTimes, 95) }, hits, equal: Object.values(hits).every((h) => h.sqlite === h.postgres) },
      usageByDay: { sqliteMs: pct(uS, 50), postgresMs: pct(uP, 50), totalTokens: totals },
    }
    writeFileSync(join(o.base, 'postgres.json'), JSON.stringify(results, null, 2))
    return results
  } finally {
    await team.close()
    await lib.close()
    own?.stop()
  }
}
