/**
 * The catalog-backed API methods through createApi (catalog file in a temp app data folder) and
 * the `sepia search` / `sepia usage` commands: search, usage, CSV, index status, live changes of
 * a session being written, pages.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../src/main/api'
import { findAppRoot, type AppContext } from '../src/main/context'
import { runCli } from './helpers/cli-run'

const ROOT = findAppRoot()
const tmp = mkdtempSync(join(tmpdir(), 'sepia-catapi-'))
const home = join(tmp, 'home')
const dataDir = join(tmp, 'data')
const ID = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
const FILE = join(home, '.claude/projects/-home-ana-src-ledger-api', `${ID}.jsonl`)

function context(): AppContext {
  return { mode: 'browser', version: 'test', platform: 'linux', homes: [home], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: home, appDataDir: dataDir, now: () => 1_800_000_000_000 }
}

const cli = runCli

beforeAll(() => {
  cpSync(join(ROOT, 'fixtures/real/claude-code/home'), home, { recursive: true })
  cpSync(join(ROOT, 'fixtures/real/cline/home/.cline'), join(home, '.cline'), { recursive: true })
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('catalog API', () => {
  it('searches, reports usage and CSV, pages a session, validates arguments', async () => {
    const api = createApi(context())
    const lib = await api.getLibrary()
    expect(lib.sessions.length).toBe(11)
    expect(lib.index?.phase).toBeDefined()
    await api.library.whenIdle()
    const status = await api.getIndexStatus()
    expect(status).toMatchObject({ phase: 'idle', running: false, done: 11, total: 11 })
    expect(status.bytesDone).toBe(status.bytesTotal)
    expect(status.textDone).toBe(status.textTotal)

    const r = await api.search('NOTES.md', { agent: 'claude-code', role: 'user' })
    expect(r.partial).toBe(false)
    expect(r.hits.length).toBeGreaterThan(0)
    const hit = r.hits[0]!
    expect(hit).toMatchObject({ agent: 'claude-code', role: 'user' })
    const [a, b] = hit.highlights[0]!
    expect(hit.snippet.slice(a, b)).toBe('NOTES.md')
    // The hit opens the session at that message.
    const page = await api.getSessionPage(hit.agent, hit.sessionId, { offset: hit.nodeIndex, limit: 1 })
    expect(page.nodes[0]!.nodeId).toBe(hit.nodeId)
    expect(page.totalNodes).toBeGreaterThan(hit.nodeIndex)
    expect((await api.getSessionNode(hit.agent, hit.sessionId, hit.nodeId)).nodeId).toBe(hit.nodeId)

    const usage = await api.getUsage({ by: 'day', timeZone: 'UTC' })
    expect(usage.rows.map((x) => x.key)).toEqual(['2026-11-30'])
    expect(usage.totals.inputTokens).toBe(88_740 + 13_800) // Claude Code + Cline fixtures
    const csv = await api.exportUsageCsv({ by: 'agent', timeZone: 'UTC' })
    expect(csv.split('\n')[0]).toContain('key,label,input_tokens')
    expect(csv).toContain('claude-code,claude-code,88740,888,')

    await expect(api.search(42 as never)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    await expect(api.getUsage({ by: 'hour' as never })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    await expect(api.getSessionPage('nobody' as never, 'x')).rejects.toMatchObject({ code: 'UNKNOWN_AGENT' })
    await expect(api.getSessionPage('claude-code', 'nope')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' })
    await expect(api.getChanges(5 as never)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    await api.library.close()
  })

  it('warm start: once the background refresh has ended, getLibrary says so too (the renderer reads again while it says running)', async () => {
    const api = createApi(context())
    const lib = await api.getLibrary() // warm: answered from the catalog, a refresh starts behind it
    expect(lib.sessions.length).toBe(11)
    await api.library.whenIdle()
    expect((await api.getIndexStatus()).running).toBe(false)
    const again = await api.getLibrary()
    expect(again.index?.running).toBe(false)
    expect(await api.getLibrary()).toBe(again) // the same object while nothing changes
    await api.library.close()
  })

  it('warm start answers from the catalog; a session being written shows up in getChanges without a reload', async () => {
    const api = createApi(context())
    expect((await api.getLibrary()).sessions.length).toBe(11) // warm: the catalog of the test above
    const first = await api.getChanges()
    expect(first.changedSessions).toEqual([])
    appendFileSync(FILE, JSON.stringify({ parentUuid: null, type: 'user', message: { role: 'user', content: 'live quokka line' }, uuid: 'f1000000-0000-4000-8000-000000000001', timestamp: '2026-12-01T09:00:00.000Z', cwd: '/home/ana/src/ledger-api', sessionId: ID }) + '\n')
    let token = first.token
    let seen: string[] = []
    const deadline = Date.now() + 20_000
    while (Date.now() < deadline && !seen.includes(ID)) {
      await new Promise((r) => setTimeout(r, 200))
      const c = await api.getChanges(token)
      token = c.token
      seen = [...seen, ...c.changedSessions.map((s) => s.id)]
    }
    expect(seen).toContain(ID)
    const lib = await api.getLibrary()
    expect(lib.sessions.find((s) => s.id === ID)!.lastActivityAt).toBe(Date.parse('2026-12-01T09:00:00.000Z'))
    await api.library.whenIdle()
    expect((await api.search('quokka')).hits.map((h) => h.sessionId)).toEqual([ID])
    const page = await api.getSessionPage('claude-code', ID, { offset: 0, limit: 2000 })
    expect(page.nodes[page.nodes.length - 1]!.content).toBe('live quokka line')
    await api.library.close()
  }, 40_000)
})

describe('sepia search / usage', () => {
  it('prints search hits as text and JSON', async () => {
    process.env.SEPIA_DATA_DIR = join(tmp, 'cli-data')
    const json = await cli('search', 'NOTES.md', '--home', home, '--agent', 'claude-code', '--json')
    expect(json.code).toBe(0)
    const r = JSON.parse(json.out) as { hits: { agent: string; snippet: string }[]; partial: boolean }
    expect(r.partial).toBe(false)
    expect(r.hits.length).toBeGreaterThan(0)
    expect(r.hits.every((h) => h.agent === 'claude-code')).toBe(true)
    const text = await cli('search', 'capital', 'France', '--home', home, '--since', '2026-01-01')
    expect(text.code).toBe(0)
    expect(text.out).toMatch(/4 matches for "capital France"/)
    expect(text.out).toContain('[capital]')
    expect((await cli('search', '--home', home)).code).toBe(1)
    expect((await cli('search', 'x', '--agent', 'nobody', '--home', home)).code).toBe(1)
  })

  it('prints usage as a table, JSON and CSV', async () => {
    process.env.SEPIA_DATA_DIR = join(tmp, 'cli-data')
    const json = await cli('usage', '--by', 'day', '--tz', 'UTC', '--json', '--home', home, '--agent', 'claude-code')
    expect(json.code).toBe(0)
    const r = JSON.parse(json.out) as { rows: { key: string; inputTokens: number }[]; totals: { inputTokens: number; cost: number } }
    expect(r.rows.map((x) => x.key)).toEqual(['2026-11-30']) // the line appended above has no usage
    expect(r.totals.inputTokens).toBe(88_740)
    expect(r.totals.cost).toBeCloseTo(0.019076 + 0.019604 + 0.12798 + 0.112956 + 0.093104, 6)
    const table = await cli('usage', '--by', 'model', '--tz', 'UTC', '--home', home)
    expect(table.code).toBe(0)
    expect(table.out).toMatch(/^model\s+input\s+output/m)
    expect(table.out).toMatch(/^claude-opus-5-5\s+88,740\s+888/m)
    expect(table.out).toMatch(/^TOTAL\s+102,540/m)
    const csv = await cli('usage', '--by', 'session', '--csv', '--home', home, '--since', '2026-11-01', '--until', '2026-11-30', '--tz', 'UTC')
    expect(csv.code).toBe(0)
    expect(csv.out.split('\n')[0]).toBe('key,label,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,thinking_tokens,total_tokens,cost_usd,recorded_cost_usd,messages,models,tokens_unknown_messages')
    expect(csv.out).toContain('claude-code/168ccd27-38fe-4712-8b25-f636c48dc3b8,[agent] Ask a sub-agent to summarize the git history.,22206,214,')
    expect((await cli('usage', '--by', 'week', '--home', home)).code).toBe(1)
    expect((await cli('usage', '--tz', 'Nowhere/Town', '--home', home)).code).toBe(1)
  })
})
