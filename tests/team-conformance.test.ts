/**
 * One conformance suite over both catalog backends (issue 20): the desktop SQLite catalog opened
 * on four fixture homes, and the team catalog on a real PostgreSQL server (a throwaway cluster,
 * tests/helpers/postgres.ts) after `pushHome` of the same four homes as four machines. Through the
 * one `CatalogReader` interface both must list the same sessions, give the same hits (session and
 * node ids) for a set of queries and filters, and the same usage for every grouping; the usage
 * totals also equal the readers' own per-message usage (an independent reading of the stores).
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SearchFilters, UsageGroupBy } from '../src/shared/catalog'
import type { Usage } from '../src/shared/ir'
import { AGENTS } from '../src/main/agents/registry'
import { sqliteReader, type CatalogReader } from '../src/main/catalog/reader'
import { findAppRoot } from '../src/main/context'
import { LibraryService } from '../src/main/library'
import { layoutForHome } from '../src/main/platform'
import { TeamCatalog } from '../src/main/team/catalog'
import { pushHome } from '../src/main/team/push'
import { loadPricing, PriceBook, pricingCandidates } from '../src/main/usage/pricing'
import { postgresSkipReason, startPostgres, type TestPostgres } from './helpers/postgres'

const ROOT = findAppRoot()
const NAMES = ['claude-code', 'codex', 'gemini', 'opencode']
const HOMES = NAMES.map((n) => join(ROOT, 'fixtures/real', n, 'home'))
/** Machine names sort like the homes' order, so "first home wins" picks the same session on both sides. */
const MACHINES = ['laptop-a', 'laptop-b', 'laptop-c', 'laptop-d']
const prices = new PriceBook(loadPricing(pricingCandidates(undefined, ROOT)))
const skip = postgresSkipReason()

/** Queries and filters the two backends must answer alike: words, a phrase, a path, a prefix, an exclusion, identifiers, each filter. */
const QUERIES: [string, SearchFilters][] = [
  ['the', {}],
  ['file', {}],
  ['NOTES.md', {}],
  ['"the project"', {}],
  ['src/main', {}],
  ['creat', {}],
  ['the -file', {}],
  ['"ls -la"', {}],
  ['README', {}],
  ['list', { role: 'user' }],
  ['the', { role: ['assistant', 'tool'] }],
  ['the', { agent: 'codex' }],
  ['the', { agent: ['claude-code', 'gemini'] }],
  ['command', { toolName: 'Bash' }],
  ['the', { model: 'claude' }],
  ['the', { project: '/home/ana/src/ledger-api' }],
  ['the', { since: '2026-01-01' }],
  ['the', { sort: 'recent', limit: 7 }],
  ['the', { offset: 5, limit: 5 }],
  ['nothingmatchesthis', {}],
]

describe.skipIf(skip !== undefined)(`catalog conformance: SQLite and PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let pg: TestPostgres
  let library: LibraryService
  let team: TeamCatalog
  let backends: [string, CatalogReader][]

  beforeAll(async () => {
    pg = startPostgres()
    for (let i = 0; i < HOMES.length; i++) await pushHome({ url: pg.url, home: HOMES[i]!, machine: MACHINES[i]!, now: () => 1_800_000_000_000 })
    const homes = await Promise.all(HOMES.map(async (home) => ({ layout: await layoutForHome({ home }), isDemo: false })))
    library = new LibraryService(homes, AGENTS, { now: () => 0 }, { workers: 0 })
    team = new TeamCatalog(pg.url)
    backends = [
      ['sqlite', sqliteReader(library)],
      ['postgres', team],
    ]
  }, 60_000)
  afterAll(async () => {
    await team?.close()
    await library?.close()
    pg?.stop()
  })

  it('lists the same sessions, the machines as homes', async () => {
    const [a, b] = await Promise.all(backends.map(([, r]) => r.library()))
    const key = (s: { agent: string; id: string; messageCount: number; title?: string }) => `${s.agent}/${s.id}/${s.messageCount}/${s.title ?? ''}`
    expect(b!.sessions.map(key).sort()).toEqual(a!.sessions.map(key).sort())
    expect(a!.sessions.length).toBeGreaterThan(10)
    expect(b!.homes.map((h) => h.path)).toEqual(MACHINES)
    // Each machine's sessions carry it as their home.
    const byMachine = new Map(MACHINES.map((m) => [m, b!.sessions.filter((s) => s.home === m).length]))
    for (const m of MACHINES) expect(byMachine.get(m)).toBeGreaterThan(0)
  })

  it.each(QUERIES)('search %j %j gives the same hits', async (query, filters) => {
    const [a, b] = await Promise.all(backends.map(([, r]) => r.search(query, { limit: 500, ...filters })))
    const ids = (r: typeof a) => r!.hits.map((h) => `${h.agent}/${h.sessionId}/${h.nodeId}`).sort()
    expect(ids(b)).toEqual(ids(a))
    expect(b!.more).toBe(a!.more)
    if (filters.sort === 'recent') expect(b!.hits.map((h) => h.nodeId)).toEqual(a!.hits.map((h) => h.nodeId))
  })

  it('finds something for most queries (the suite compares real answers)', async () => {
    let withHits = 0
    for (const [q, f] of QUERIES) if ((await team.search(q, { limit: 500, ...f })).hits.length > 0) withHits++
    expect(withHits).toBeGreaterThanOrEqual(QUERIES.length - 2)
  })

  it('rejects the same bad filters', async () => {
    for (const [, r] of backends) {
      await expect(r.search('the', { role: 'robot' as never })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
      await expect(r.search('the', { since: 'yesterday-ish' })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    }
  })

  it.each(['day', 'model', 'agent', 'project', 'session'] as UsageGroupBy[])('usage by %s is the same', async (by) => {
    const [a, b] = await Promise.all(backends.map(([, r]) => r.usage({ by, timeZone: 'UTC' }, prices)))
    const { cost: ca, recordedCost: ra, ...ta } = a!.totals
    const { cost: cb, recordedCost: rb, ...tb } = b!.totals
    expect(tb).toEqual(ta)
    expect(cb).toBeCloseTo(ca, 9)
    expect(rb).toBeCloseTo(ra, 9)
    const rows = (r: typeof a) => r!.rows.map((x) => ({ key: x.key, label: x.label, tokens: x.totalTokens, messages: x.messages, cost: Math.round(x.cost * 1e6) }))
    expect(rows(b)).toEqual(rows(a))
  })

  it('usage with filters is the same', async () => {
    for (const q of [{ by: 'model' as const, agent: 'codex' as const }, { by: 'day' as const, since: '2026-01-01', timeZone: 'Europe/Paris' }, { by: 'agent' as const, project: '/home/ana/src/ledger-api' }]) {
      const [a, b] = await Promise.all(backends.map(([, r]) => r.usage({ timeZone: 'UTC', ...q }, prices)))
      expect(b!.totals.totalTokens).toBe(a!.totals.totalTokens)
      expect(b!.rows.map((x) => x.key)).toEqual(a!.rows.map((x) => x.key))
    }
  })

  it('usage totals equal the readers’ own per-message usage', async () => {
    const ctx = { now: () => 0 }
    const t = { input: 0, output: 0, messages: 0 }
    const seen = new Set<string>()
    const has = (u: Usage | undefined): u is Usage => !!u && (u.inputTokens !== undefined || u.outputTokens !== undefined || u.cacheReadTokens !== undefined || u.cacheWriteTokens !== undefined || u.cost !== undefined)
    for (const home of HOMES) {
      const layout = await layoutForHome({ home })
      for (const agent of AGENTS) {
        for (const ref of (await agent.discover(layout, ctx)).refs) {
          const s = await agent.read(ref, ctx)
          if (seen.has(`${s.agent}/${s.id}`)) continue
          seen.add(`${s.agent}/${s.id}`)
          for (const n of s.nodes) {
            if (!has(n.usage)) continue
            t.messages++
            t.input += n.usage.inputTokens ?? 0
            // Reasoning is output: Gemini CLI and OpenCode/Kilo record it apart (usage/aggregate.ts THINKING_SEPARATE).
            t.output += (n.usage.outputTokens ?? 0) + (['gemini', 'opencode', 'kilo-code'].includes(s.agent) ? (n.usage.thinkingTokens ?? 0) : 0)
          }
        }
      }
    }
    const report = await team.usage({ by: 'agent', timeZone: 'UTC' }, prices)
    expect(t.messages).toBeGreaterThan(0)
    expect({ input: report.totals.inputTokens, output: report.totals.outputTokens, messages: report.totals.messages }).toEqual(t)
  })
})
