/**
 * `npm run bench`: generate the seeded corpus (bench/corpus.ts) under os.tmpdir() and measure
 *
 * 1. cold index: time to a written catalog (sessions listed, usage ready) and to a complete
 *    search index, MB/s, peak RSS of the process (workers included: they are threads);
 * 2. warm start: a fresh process opens the catalog and lists the library (10,000+ sessions);
 * 3. search p50/p95 over the corpus (typical queries, with and without filters);
 * 4. opening the large Claude Code session: first page, in a fresh process;
 * 5. the reader alone on the large session (time, peak RSS);
 * 6. `ccusage daily --json --offline` (18.0.11, node_modules/.bin/ccusage) against
 *    `sepia usage --by day --json --agent claude-code` on the Claude Code part: both times, the
 *    ratio, and whether the token totals agree (cold catalog and warm catalog);
 * 7. a Cursor IDE `state.vscdb` of N GB (bench/cursor.ts, bench/cursor-probe.ts): discovery, listing
 *    every composer from a cold catalog, the largest composer's first page and read, peak RSS;
 * 8. with `--huge-gb N`: one N GB Claude Code session (bench/huge.ts), written, indexed through the
 *    catalog in a fresh process (time, MB/s, peak RSS) and removed; `--huge-only` runs only that.
 *
 * `--postgres`: only the team catalog on PostgreSQL next to SQLite (bench/postgres.ts).
 * Options: `--small` (a ~60 MB corpus and a ~100 MB Cursor store, for a quick check), `--keep`
 * (reuse an existing corpus and Cursor store), `--skip-ccusage`, `--cursor-gb N` (size of the
 * Cursor store; default 2, 0 skips it), `--cursor-only` (only the Cursor part). Prints a Markdown
 * summary and writes `results.json` beside the corpus.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { AGENTS } from '../src/main/agents/registry'
import { findAppRoot } from '../src/main/context'
import { LibraryService } from '../src/main/library'
import { layoutForHome } from '../src/main/platform'
import { searchCatalog } from '../src/main/search/search'
import { aggregateUsage } from '../src/main/usage/aggregate'
import { loadPricing, PriceBook, pricingCandidates } from '../src/main/usage/pricing'
import { writeCorpus, type CorpusInfo } from './corpus'
import { runCursorBench } from './cursor-probe'
import { runHugeBench } from './huge'

const args = new Set(process.argv.slice(2))
const small = args.has('--small')
const ROOT = findAppRoot()
const base = join(tmpdir(), small ? 'sepia-bench-small' : 'sepia-bench')
const corpusDir = join(base, 'corpus')
const infoFile = join(base, 'corpus.json')
const MB = 1e6
const argv = process.argv.slice(2)
const cursorGbArg = argv.indexOf('--cursor-gb')
const cursorGb = cursorGbArg >= 0 ? Number(argv[cursorGbArg + 1]) : small ? 0.1 : 2
if (!Number.isFinite(cursorGb) || cursorGb < 0) throw new Error('--cursor-gb takes a number of GB (0 skips the Cursor part)')
const hugeGbArg = argv.indexOf('--huge-gb')
const hugeGb = hugeGbArg >= 0 ? Number(argv[hugeGbArg + 1]) : args.has('--huge-only') ? 1 : 0
if (!Number.isFinite(hugeGb) || hugeGb < 0) throw new Error('--huge-gb takes a number of GB (0 skips the huge session)')

function log(msg: string): void {
  process.stderr.write(`[bench] ${msg}\n`)
}

const machine = { nproc: availableParallelism(), cpu: cpus()[0]?.model, memGB: Math.round(totalmem() / 2 ** 30), node: process.version }
if (args.has('--cursor-only')) {
  mkdirSync(base, { recursive: true })
  const file = join(base, 'results.json')
  const prior = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {}
  const cursor = runCursorBench(base, cursorGb, args.has('--keep'), log)
  const results = { ...prior, cursorDate: new Date().toISOString(), cursorMachine: machine, cursor }
  writeFileSync(file, JSON.stringify(results, null, 2))
  process.stdout.write(JSON.stringify({ cursor }, null, 2) + '\n')
  process.exit(0)
}

if (args.has('--postgres')) {
  // The team catalog next to the desktop one (bench/postgres.ts).
  const { runPostgresBench } = await import('./postgres')
  const results = await runPostgresBench({ root: ROOT, base, corpusDir, infoFile, small, keep: args.has('--keep'), log })
  process.stdout.write(JSON.stringify({ machine, ...results }, null, 2) + '\n')
  process.exit(0)
}

if (args.has('--huge-only')) {
  mkdirSync(base, { recursive: true })
  const huge = runHugeBench(base, hugeGb, probe, log)
  process.stdout.write(JSON.stringify({ date: new Date().toISOString(), machine, huge }, null, 2) + '\n')
  process.exit(0)
}

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

function probe(...a: string[]): Record<string, number> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/probe.ts'), ...a], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 })
  if (r.status !== 0) throw new Error(`probe ${a[0]} failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number>
}

function timed(cmd: string, argv: string[], env: NodeJS.ProcessEnv): { ms: number; stdout: string } {
  const t = performance.now()
  const stdout = execFileSync(cmd, argv, { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 1 << 28 })
  return { ms: performance.now() - t, stdout }
}

// 1. Corpus.
let info: CorpusInfo
if (args.has('--keep') && existsSync(infoFile)) {
  info = JSON.parse(readFileSync(infoFile, 'utf8')) as CorpusInfo
  log(`reusing corpus in ${corpusDir}`)
} else {
  const t = performance.now()
  info = writeCorpus(
    small
      ? { root: corpusDir, repoRoot: ROOT, largeSessionBytes: 30e6, claudeSessions: 200, clineSdkSessions: 300, clineLegacyTasks: 200, codexSessions: 300 }
      : { root: corpusDir, repoRoot: ROOT },
  )
  writeFileSync(infoFile, JSON.stringify(info))
  log(`corpus written in ${((performance.now() - t) / 1000).toFixed(1)} s`)
}
const totalBytes = Object.values(info.bytes).reduce((a, b) => a + b, 0)
const totalSessions = Object.values(info.sessions).reduce((a, b) => a + b, 0)
log(`corpus: ${(totalBytes / MB).toFixed(0)} MB, ${totalSessions} sessions ${JSON.stringify(info.sessions)}`)
const cursorNote = cursorGb > 0 ? `a separate ${cursorGb} GB Cursor store (bench/cursor.ts): see "cursor"` : 'skipped (--cursor-gb 0)'

// 2. Cold index (in this process, default workers).
const dataDir = join(base, 'data')
rmSync(dataDir, { recursive: true, force: true })
mkdirSync(dataDir, { recursive: true })
const catalogPath = join(dataDir, 'catalog.sqlite')
let peakRss = 0
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss)
}, 50)
const homes = [{ layout: await layoutForHome({ home: info.home }), isDemo: false }]
const lib = new LibraryService(homes, AGENTS, { now: Date.now }, { catalogPath })
log(`cold index with ${availableParallelism()} core(s)...`)
const t0 = performance.now()
const progress = setInterval(() => {
  const s = lib.status()
  log(`  ${s.phase} ${s.done}/${s.total} sessions, ${(s.bytesDone / MB).toFixed(0)}/${(s.bytesTotal / MB).toFixed(0)} MB, text ${s.textDone}/${s.textTotal}`)
}, 10_000)
const library = await lib.load()
const catalogMs = performance.now() - t0
const catalogPeak = Math.max(peakRss, process.memoryUsage().rss)
await lib.whenIdle()
const fullMs = performance.now() - t0
clearInterval(progress)
clearInterval(sampler)
peakRss = Math.max(peakRss, process.memoryUsage().rss)
const messages = (lib.db.prepare('SELECT count(*) AS n, sum(length(text)) AS chars FROM messages').get() as { n: number; chars: number })
log(`cold: catalog ${(catalogMs / 1000).toFixed(1)} s, with search index ${(fullMs / 1000).toFixed(1)} s, ${library.sessions.length} sessions`)

// 3. Search latency (the catalog of this process, text index complete).
const queries: [string, Record<string, unknown>][] = [
  ['session', {}],
  ['catalog index', {}],
  ['getSessionPage', {}],
  ['getSess', {}],
  ['src/main/library_catalog.ts', {}],
  ['snake_case_name', {}],
  ['frobnicate_widget', {}],
  ['zanzibarquokka', {}],
  ['"parse render"', {}],
  ['error -promise', {}],
  ['token', { agent: 'claude-code' }],
  ['return', { project: '/home/ana/src/project-03' }],
  ['Bash', { toolName: 'Bash' }],
  ['value', { role: 'user', since: '2026-02-01' }],
  ['model', { sort: 'recent' }],
]
const times: number[] = []
const found: Record<string, number> = {}
for (let round = 0; round < 20; round++) {
  for (const [q, f] of queries) {
    const t = performance.now()
    const r = searchCatalog(lib.db, [info.home], q, f as never)
    times.push(performance.now() - t)
    found[q] = r.hits.length
  }
}
const planted = info.planted.map((p) => ({ ...p, hits: searchCatalog(lib.db, [info.home], p.word, { limit: 500 }).hits.length }))
log(`search p50 ${pct(times, 50).toFixed(1)} ms p95 ${pct(times, 95).toFixed(1)} ms`)
// Usage in-process on the warm catalog: the aggregation alone, and an incremental refresh of the
// Claude Code part (discovery and stats, nothing changed) — what `sepia usage` does after start-up.
const prices = new PriceBook(loadPricing(pricingCandidates(undefined, ROOT)))
let tu = performance.now()
const inproc = aggregateUsage(lib.db, [info.home], { by: 'day', agent: 'claude-code', timeZone: 'UTC' }, prices)
const usageQueryMs = performance.now() - tu
tu = performance.now()
await lib.refresh(['claude-code'])
const usageRefreshMs = performance.now() - tu
log(`usage in-process: query ${usageQueryMs.toFixed(0)} ms, refresh ${usageRefreshMs.toFixed(0)} ms, ${inproc.rows.length} days`)
await lib.close()

// 4/5. Warm start, first page of the large session, the reader alone (fresh processes).
const warm = probe('warm', info.home, catalogPath)
log(`warm: ${JSON.stringify(warm)}`)
const page = probe('page', info.home, catalogPath, info.large.id)
log(`page: ${JSON.stringify(page)}`)
const read = probe('read', info.home, info.large.path)
log(`read: ${JSON.stringify(read)}`)

// 6. ccusage vs sepia usage on the Claude Code part.
let usage: Record<string, unknown> = { skipped: true }
if (!args.has('--skip-ccusage')) {
  const env = { ...process.env, CLAUDE_CONFIG_DIR: join(info.home, '.claude'), TZ: 'UTC', NO_COLOR: '1' }
  const cc = timed(join(ROOT, 'node_modules/.bin/ccusage'), ['daily', '--json', '--offline'], env)
  const ccTotals = (JSON.parse(cc.stdout) as { totals: Record<string, number> }).totals
  log(`ccusage: ${(cc.ms / 1000).toFixed(1)} s ${JSON.stringify(ccTotals)}`)
  const sepiaData = join(base, 'usage-data')
  rmSync(sepiaData, { recursive: true, force: true })
  const senv = { ...env, SEPIA_DATA_DIR: sepiaData }
  const argv = [join(ROOT, 'bin/sepia.mjs'), 'usage', '--by', 'day', '--json', '--agent', 'claude-code', '--tz', 'UTC', '--home', info.home]
  const cold = timed(process.execPath, argv, senv)
  const warmRun = timed(process.execPath, argv, senv)
  const help = timed(process.execPath, [join(ROOT, 'bin/sepia.mjs'), '--help'], senv)
  const ours = (JSON.parse(warmRun.stdout) as { totals: Record<string, number> }).totals
  const oursCold = (JSON.parse(cold.stdout) as { totals: Record<string, number> }).totals
  const agree = (t: Record<string, number>) =>
    t.inputTokens === ccTotals.inputTokens && t.outputTokens === ccTotals.outputTokens && t.cacheReadTokens === ccTotals.cacheReadTokens && t.cacheWriteTokens === ccTotals.cacheCreationTokens
  usage = {
    ccusageMs: cc.ms,
    sepiaColdMs: cold.ms,
    sepiaWarmMs: warmRun.ms,
    sepiaStartupMs: help.ms,
    ratioCold: cc.ms / cold.ms,
    ratioWarm: cc.ms / warmRun.ms,
    totalsAgree: agree(ours) && agree(oursCold),
    ccusage: ccTotals,
    sepia: ours,
  }
  log(`usage: ${JSON.stringify(usage)}`)
}

const results = {
  date: new Date().toISOString(),
  machine,
  corpus: { bytes: info.bytes, sessions: info.sessions, totalMB: totalBytes / MB, totalSessions, largeMB: info.large.bytes / MB, cursor: cursorNote },
  cold: {
    catalogSec: catalogMs / 1000,
    catalogMBps: totalBytes / MB / (catalogMs / 1000),
    withSearchSec: fullMs / 1000,
    withSearchMBps: totalBytes / MB / (fullMs / 1000),
    peakRssMB: Math.round(peakRss / MB),
    peakRssCatalogMB: Math.round(catalogPeak / MB),
    messages: messages.n,
    indexedTextMB: messages.chars / MB,
    catalogFileMB: Math.round(Number(execFileSync('du', ['-sm', dataDir], { encoding: 'utf8' }).split('\t')[0])),
  },
  warm,
  usageInProcess: { queryMs: usageQueryMs, refreshMs: usageRefreshMs },
  search: { p50: pct(times, 50), p95: pct(times, 95), max: Math.max(...times), runs: times.length, hits: found, planted },
  largeSession: { page, read },
  usage,
}
// 7. The Cursor store (its own home and catalog).
const cursorResults = cursorGb > 0 ? runCursorBench(base, cursorGb, args.has('--keep'), log) : { skipped: true }
Object.assign(results, { cursor: cursorResults })
// 8. The huge Claude Code session (its own home and catalog, removed after).
Object.assign(results, { huge: hugeGb > 0 ? runHugeBench(base, hugeGb, probe, log) : { skipped: true } })
writeFileSync(join(base, 'results.json'), JSON.stringify(results, null, 2))
process.stdout.write(JSON.stringify(results, null, 2) + '\n')
