/**
 * Usage and cost: totals equal the readers' per-message usage on the real fixtures, Claude Code
 * sessions agree with their own `cost-state` records (sub-agents rolled in), days follow the
 * requested time zone, recorded costs win over the pricing table, CSV export.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MessageNode, Session, Usage } from '../../shared/ir'
import { AGENTS } from '../agents/registry'
import type { StoreRef } from '../agents/types'
import { extractSession } from '../catalog/extract'
import { openCatalog } from '../catalog/schema'
import { CatalogStore } from '../catalog/store'
import { findAppRoot } from '../context'
import { newSession } from '../ir/build'
import { LibraryService } from '../library'
import { layoutForHome } from '../platform'
import { aggregateUsage, usageCsv } from './aggregate'
import { loadPricing, PriceBook, pricingCandidates } from './pricing'
import { dayOf, startOfDay } from './zone'

const ROOT = findAppRoot()
const HOMES = ['claude-code', 'cline', 'cline-legacy', 'codex', 'gemini', 'kilo', 'opencode'].map((n) => join(ROOT, 'fixtures/real', n, 'home'))
const prices = new PriceBook(loadPricing(pricingCandidates(undefined, ROOT)))
const ctx = { now: () => 0 }
let lib: LibraryService
const fresh: Session[] = []

beforeAll(async () => {
  const homes = await Promise.all(HOMES.map(async (home) => ({ layout: await layoutForHome({ home }), isDemo: false })))
  lib = new LibraryService(homes, AGENTS, ctx, { workers: 0 })
  await lib.load()
  const seen = new Set<string>()
  for (const h of homes) {
    for (const a of AGENTS) {
      const { refs } = await a.discover(h.layout, ctx)
      const sessions: Session[] = []
      for (const r of refs) sessions.push(await a.read(r, ctx))
      a.link?.(sessions)
      for (const s of sessions) {
        if (seen.has(`${s.agent}/${s.id}`)) continue
        seen.add(`${s.agent}/${s.id}`)
        fresh.push(s)
      }
    }
  }
})
afterAll(() => lib.close())

const hasUsage = (u: Usage | undefined): u is Usage => !!u && (u.inputTokens !== undefined || u.outputTokens !== undefined || u.cacheReadTokens !== undefined || u.cacheWriteTokens !== undefined || u.cost !== undefined)
/**
 * Per-message usage summed. `thinkingApart`: the agent's reader keeps reasoning out of
 * `outputTokens` (Gemini CLI `thoughts`, OpenCode/Kilo `reasoning`), and the report counts it as
 * output, as Claude Code and Codex record it.
 */
function sum(nodes: MessageNode[], thinkingApart = false): { input: number; output: number; cacheRead: number; cacheWrite: number; messages: number } {
  const t = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, messages: 0 }
  for (const n of nodes) {
    if (!hasUsage(n.usage)) continue
    t.messages++
    t.input += n.usage.inputTokens ?? 0
    t.output += (n.usage.outputTokens ?? 0) + (thinkingApart ? (n.usage.thinkingTokens ?? 0) : 0)
    t.cacheRead += n.usage.cacheReadTokens ?? 0
    t.cacheWrite += n.usage.cacheWriteTokens ?? 0
  }
  return t
}

describe('usage', () => {
  it('totals equal the sum of per-message usage from the readers, per agent and overall', () => {
    for (const agent of ['claude-code', 'cline', 'codex', 'gemini', 'kilo-code', 'opencode'] as const) {
      const want = sum(fresh.filter((s) => s.agent === agent).flatMap((s) => s.nodes), ['gemini', 'kilo-code', 'opencode'].includes(agent))
      const got = aggregateUsage(lib.db, lib.homePaths, { by: 'model', agent, timeZone: 'UTC' }, prices).totals
      expect({ input: got.inputTokens, output: got.outputTokens, cacheRead: got.cacheReadTokens, cacheWrite: got.cacheWriteTokens, messages: got.messages }, agent).toEqual(want)
      expect(got.totalTokens, agent).toBe(want.input + want.output + want.cacheRead + want.cacheWrite)
      expect(want.messages, agent).toBeGreaterThan(0)
    }
    const all = sum(fresh.flatMap((s) => s.nodes))
    for (const by of ['day', 'project', 'model', 'session', 'agent'] as const) {
      const r = aggregateUsage(lib.db, lib.homePaths, { by, timeZone: 'UTC' }, prices)
      expect(r.totals.inputTokens, by).toBe(all.input)
      expect(r.totals.messages, by).toBe(all.messages)
      expect(r.rows.reduce((n, x) => n + x.inputTokens, 0), by).toBe(all.input)
    }
  })

  it('Claude Code: each session (sub-agents rolled in) matches its cost-state record, tokens and USD', () => {
    const report = aggregateUsage(lib.db, lib.homePaths, { by: 'session', agent: 'claude-code', timeZone: 'UTC' }, prices)
    const withState = fresh.filter((s) => s.agent === 'claude-code' && s.metadata.costState)
    expect(withState.length).toBe(5)
    for (const s of withState) {
      const row = report.rows.find((r) => r.sessionId === s.id)!
      expect(row, s.id).toBeDefined()
      expect({ input: row.inputTokens, output: row.outputTokens, cacheRead: row.cacheReadTokens, cacheWrite: row.cacheWriteTokens }, s.id).toEqual({
        input: s.usage!.inputTokens,
        output: s.usage!.outputTokens,
        cacheRead: s.usage!.cacheReadTokens,
        cacheWrite: s.usage!.cacheWriteTokens,
      })
      expect(row.cost, s.id).toBeCloseTo(s.usage!.cost!, 6)
    }
    const parent = report.rows.find((r) => r.sessionId === '168ccd27-38fe-4712-8b25-f636c48dc3b8')!
    expect(parent.subagentSessions).toBe(1)
    expect(report.rows.some((r) => r.sessionId === 'a3f2b5aeb6dc75f4e')).toBe(false)
    expect(report.unpricedModels).toEqual([])
  })

  it('records costs the stores record (Kilo, OpenCode, Cline legacy: 0 USD here) and reports unpriced models', () => {
    const kilo = aggregateUsage(lib.db, lib.homePaths, { by: 'agent', agent: 'kilo-code', timeZone: 'UTC' }, prices)
    expect(kilo.totals.recordedCost).toBe(0)
    expect(kilo.totals.cost).toBe(0)
    expect(kilo.totals.unpricedMessages).toBe(0) // recorded (0 USD) counts as priced
    const codex = aggregateUsage(lib.db, lib.homePaths, { by: 'model', agent: 'codex', timeZone: 'UTC' }, prices)
    expect(codex.unpricedModels).toEqual(['gpt-5.5'])
    expect(codex.rows.find((r) => r.key === 'gpt-5.5')?.unpricedMessages).toBe(codex.totals.unpricedMessages)
    expect(codex.rows.find((r) => r.key === 'gpt-5-codex')?.cost).toBeCloseTo((26576 * 1.25 + 371 * 10) / 1e6, 10)
  })

  it('puts messages on the day of the requested time zone and filters days in that zone', () => {
    const db = openCatalog(':memory:')
    const store = new CatalogStore(db)
    const s = newSession('claude-code', 'tz-session', 'claude-code-jsonl', ['/x/tz.jsonl'], '/x')
    const node = (id: string, at: string, u: Usage): MessageNode => ({ nodeId: id, role: 'assistant', content: id, createdAt: Date.parse(at), model: 'claude-sonnet-4-5-20250929', usage: u })
    s.nodes = [node('late', '2026-03-01T23:30:00Z', { inputTokens: 100, outputTokens: 10 }), node('early', '2026-03-02T00:30:00Z', { inputTokens: 200, outputTokens: 20, cost: 1.5 })]
    const ref: StoreRef = { agent: 'claude-code', sessionId: 'tz-session', format: 'claude-code-jsonl', files: ['/x/tz.jsonl'], size: 1, mtimeMs: 1, home: '/x' }
    store.writeSession(extractSession(s, ref), [])
    const days = (timeZone: string, extra = {}) => Object.fromEntries(aggregateUsage(db, ['/x'], { by: 'day', timeZone, ...extra }, prices).rows.map((r) => [r.key, r.inputTokens]))
    expect(days('UTC')).toEqual({ '2026-03-01': 100, '2026-03-02': 200 })
    expect(days('Asia/Tokyo')).toEqual({ '2026-03-02': 300 })
    expect(days('America/Los_Angeles')).toEqual({ '2026-03-01': 300 })
    expect(days('Asia/Kolkata')).toEqual({ '2026-03-02': 300 }) // +05:30
    expect(days('UTC', { since: '2026-03-02' })).toEqual({ '2026-03-02': 200 })
    expect(days('Asia/Tokyo', { since: '2026-03-02', until: '2026-03-02' })).toEqual({ '2026-03-02': 300 })
    expect(days('America/Los_Angeles', { until: '2026-02-28' })).toEqual({})
    // Recorded cost wins for its message; the other is priced (Sonnet 4.5: $3 in, $15 out per million).
    const t = aggregateUsage(db, ['/x'], { by: 'model', timeZone: 'UTC' }, prices).totals
    expect(t.recordedCost).toBe(1.5)
    expect(t.cost).toBeCloseTo(1.5 + (100 * 3 + 10 * 15) / 1e6, 10)
    expect(() => aggregateUsage(db, ['/x'], { by: 'week' as never }, prices)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }))
    expect(() => aggregateUsage(db, ['/x'], { by: 'day', timeZone: 'Mars/Olympus' }, prices)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }))
    expect(() => aggregateUsage(db, ['/x'], { by: 'day', since: '2026-02-30' }, prices)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }))
    db.close()
  })

  it('exports CSV with a header, one row per group and a total', () => {
    const r = aggregateUsage(lib.db, lib.homePaths, { by: 'agent', timeZone: 'UTC' }, prices)
    const lines = usageCsv(r).trim().split('\n')
    expect(lines[0]).toBe('key,label,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,thinking_tokens,total_tokens,cost_usd,recorded_cost_usd,messages,models,tokens_unknown_messages')
    expect(lines.length).toBe(r.rows.length + 2)
    expect(lines[lines.length - 1]!.startsWith(`TOTAL,by agent (UTC),${r.totals.inputTokens},`)).toBe(true)
    expect(lines.some((l) => l.startsWith('claude-code,claude-code,'))).toBe(true)
  })
})

describe('pricing and zones', () => {
  it('matches model ids with dates, provider prefixes and suffixes; long context prices', () => {
    expect(prices.price('claude-sonnet-4-5-20250929')?.input).toBe(3)
    expect(prices.price('anthropic/claude-haiku-4-5')?.output).toBe(5)
    expect(prices.price('claude-opus-4-1@20250805')?.input).toBe(15)
    expect(prices.price('gpt-5-codex')?.input).toBe(1.25)
    expect(prices.price('gpt-5.1-codex-mini')?.input).toBe(0.25)
    expect(prices.price('gemini-2.5-pro')?.longContext?.input).toBe(2.5)
    expect(prices.price('mock-model')).toBeUndefined()
    expect(prices.price('gpt-5.5')).toBeUndefined()
    expect(prices.price('claude-opus-4-7')).toBeUndefined() // not claude-opus-4: another version
    expect(prices.price('claude-sonnet-4-5-thinking')?.input).toBe(3)
    expect(prices.price('claude-sonnet-4.5')?.input).toBe(3) // GitHub Copilot CLI and Copilot Chat write Claude versions with a dot
    expect(prices.price('claude-haiku-4.5')?.output).toBe(5)
    expect(prices.price('claude-sonnet-4.7')).toBeUndefined()
    expect(loadPricing(['/no/such.json']).source).toBe('built-in')
  })

  it('prices the models added with a cited source (pricing/README.md), each entry naming it', () => {
    const want: Record<string, [number, number, number, number | undefined]> = {
      'claude-opus-4-6': [5, 25, 0.5, 6.25],
      'claude-sonnet-4-6': [3, 15, 0.3, 3.75],
      'gpt-5.4-mini': [0.75, 4.5, 0.075, undefined],
      'gpt-5.6-sol': [5, 30, 0.5, undefined],
      'gpt-5.6-terra': [2.5, 15, 0.25, undefined],
      'gpt-5.6-luna': [1, 6, 0.1, undefined],
    }
    const table = loadPricing(pricingCandidates(undefined, ROOT))
    for (const [id, [input, output, cacheRead, cacheWrite]] of Object.entries(want)) {
      const p = prices.price(id)!
      expect({ id, input: p.input, output: p.output, cacheRead: p.cacheRead, cacheWrite: p.cacheWrite }).toEqual({ id, input, output, cacheRead, cacheWrite })
      expect((table.models[id] as { source?: string }).source, id).toMatch(/^https:\/\/.* 2026-12-04/)
    }
    expect(prices.price('claude-sonnet-4-6-20260217')?.input).toBe(3)
    expect(prices.price('claude-opus-4.6')?.output).toBe(25) // Copilot's dotted spelling
  })

  it('computes days and midnights in a zone', () => {
    expect(dayOf(Date.parse('2026-03-01T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-03-02')
    expect(startOfDay('2026-03-02', 'Asia/Tokyo')).toBe(Date.parse('2026-03-01T15:00:00Z'))
    expect(startOfDay('2026-03-08', 'America/New_York')).toBe(Date.parse('2026-03-08T05:00:00Z')) // DST starts at 2:00 that day
    expect(startOfDay('2026-03-09', 'America/New_York')).toBe(Date.parse('2026-03-09T04:00:00Z'))
  })
})

describe('dayOf across a DST change', () => {
  it('agrees with Intl for every quarter hour of a transition day', () => {
    const f = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' })
    for (let ms = Date.parse('2026-03-28T20:00:00Z'); ms < Date.parse('2026-03-30T04:00:00Z'); ms += 450_000) {
      expect(dayOf(ms, 'Europe/Paris'), new Date(ms).toISOString()).toBe(f.format(new Date(ms)))
    }
  })
})
