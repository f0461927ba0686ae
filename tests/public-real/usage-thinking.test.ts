/**
 * `sepia usage` and the app's usage view count reasoning as output for every agent: Claude Code and
 * Codex record it inside their output tokens, Gemini CLI records `thoughts` beside `output`, and
 * the report adds them in (src/shared/usage-rules.ts `THINKING_SEPARATE`), so the total column
 * holds what the cost column prices. Checked on Gemini CLI `entire-write-file`
 * (fixtures/public-real/gemini, provenance in its SOURCES.md) against the chat file's own
 * `tokens`, read here without Sepia: Gemini CLI's `tokens.total` is input + output + thoughts + tool.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../../src/main/api'
import { findAppRoot } from '../../src/main/context'

const ROOT = findAppRoot()
const tmp = mkdtempSync(join(tmpdir(), 'sepia-pr-usage-'))
const home = join(tmp, 'home')

interface RawTokens {
  input: number
  output: number
  cached: number
  thoughts: number
  tool: number
  total: number
}

beforeAll(() => cpSync(join(ROOT, 'fixtures', 'public-real', 'gemini', 'entire-write-file', 'home'), home, { recursive: true }))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** The chat file's `tokens` objects, in file order. */
function rawTokens(): RawTokens[] {
  const tmpDir = join(home, '.gemini', 'tmp')
  const [hash] = readdirSync(tmpDir)
  const chats = join(tmpDir, hash!, 'chats')
  const [file] = readdirSync(chats)
  const json = JSON.parse(readFileSync(join(chats, file!), 'utf8')) as { messages: { tokens?: RawTokens }[] }
  return json.messages.flatMap((m) => (m.tokens ? [m.tokens] : []))
}

describe('usage counts Gemini thoughts as output, as Claude Code and Codex count reasoning', () => {
  it('entire-write-file: output and total hold the thoughts; total is Gemini CLI’s own total', async () => {
    const raw = rawTokens()
    const add = (k: keyof RawTokens): number => raw.reduce((n, t) => n + t[k], 0)
    expect(raw.length).toBe(2)
    expect(add('thoughts')).toBeGreaterThan(0)
    expect(add('tool')).toBe(0)
    const api = createApi({ mode: 'browser', version: 'test', platform: 'linux', homes: [home], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: home, appDataDir: join(tmp, 'data'), now: () => 1_800_000_000_000 })
    await api.getLibrary()
    await api.library.whenIdle()
    for (const by of ['model', 'session', 'day'] as const) {
      const t = (await api.getUsage({ by, timeZone: 'UTC' })).totals
      expect({ by, input: t.inputTokens + t.cacheReadTokens, output: t.outputTokens, thinking: t.thinkingTokens, total: t.totalTokens }).toEqual({
        by,
        input: add('input'),
        output: add('output') + add('thoughts'),
        thinking: add('thoughts'),
        total: add('total'),
      })
    }
  })
})

describe('models priced from a cited source (pricing/pricing.json `source`)', () => {
  it('codex graph-0144-review: gpt-5.6-sol and gpt-5.6-terra are priced, not reported unpriced', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-pr-price-'))
    try {
      const codexHome = join(dir, 'home')
      cpSync(join(ROOT, 'fixtures', 'public-real', 'codex', 'graph-0144-review', 'home'), codexHome, { recursive: true })
      // Raw: the models the rollout's turn contexts name.
      const sessions = join(codexHome, '.codex', 'sessions', '2026', '07', '24')
      const [file] = readdirSync(sessions)
      const models = new Set([...readFileSync(join(sessions, file!), 'utf8').matchAll(/"model":"([^"]+)"/g)].map((m) => m[1]!))
      expect([...models].sort()).toEqual(['gpt-5.6-sol', 'gpt-5.6-terra'])
      const api = createApi({ mode: 'browser', version: 'test', platform: 'linux', homes: [codexHome], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: codexHome, appDataDir: join(dir, 'data'), now: () => 1_800_000_000_000 })
      await api.getLibrary()
      await api.library.whenIdle()
      const report = await api.getUsage({ by: 'model', timeZone: 'UTC' })
      expect(report.unpricedModels).toEqual([])
      for (const m of models) {
        const row = report.rows.find((r) => r.key === m)
        if (row) expect(row.cost, m).toBeGreaterThan(0)
      }
      expect(report.totals.cost).toBeGreaterThan(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
