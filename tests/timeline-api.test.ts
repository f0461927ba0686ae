/**
 * The timeline and agent settings API (`getTimeline`, `exportTimeline`, `getAgentSettings`) on
 * the seed000 home: pages, sorting, filters, exports, argument errors in plain words, and the
 * guarantee that no credential value (the fake keys in secrets.json, providers.json,
 * webhook_config.json, remote_config_*.json, the MCP env and headers) reaches any API answer or
 * export, while secrets written into transcripts are masked.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SepiaError } from '../src/shared/api'
import type { TimelineRow } from '../src/shared/timeline'
import { createApi } from '../src/main/api'
import { findAppRoot, type AppContext } from '../src/main/context'
import { FAKE_SECRETS } from './builders/secrets/fake-secrets'
import { seedSecretsHome } from './helpers/seed-secrets'

const ROOT = findAppRoot()
const HOME = join(ROOT, 'fixtures/seed000/home')
const PROJ = join(ROOT, 'fixtures/seed000/proj')
const LEAD = '1760000000000_k3x9q'
const made: string[] = []
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })))

function context(over: Partial<AppContext> = {}): AppContext {
  const own = mkdtempSync(join(tmpdir(), 'sepia-empty-home-'))
  made.push(own)
  return { mode: 'browser', version: '0.0.0-test', platform: 'linux', homes: [HOME], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: own, now: () => 1_800_000_000_000, ...over }
}

async function rejection(p: Promise<unknown>): Promise<SepiaError> {
  try {
    await p
  } catch (e) {
    return SepiaError.from(e)
  }
  throw new Error('expected a rejection')
}

/** The fake values of the seed000 credential files (see fixtures/seed000/README.md). */
const CREDENTIAL_VALUES = [
  'sk-ant-FAKE-seed000-secretsjson-0001',
  'sk-ant-FAKE-seed000-providers-0002',
  'whk-FAKE-seed000-token-0003',
  'FAKEseed000SECRETACCESSKEY0004',
  'AKFAKEseed000ACCESS',
  'ghp_FAKEseed000mcpenv0005',
  'FAKEseed000header0006',
  'acct_FAKEseed000',
]

describe('getTimeline / exportTimeline', () => {
  it('pages the rows of every agent, counts recovered ones, and sorts', async () => {
    const api = createApi(context())
    const all = await api.getTimeline()
    expect(all.offset).toBe(0)
    expect(all.total).toBe(all.rows.length)
    expect(all.total).toBeGreaterThan(100)
    expect(all.recoveredCount).toBe(all.rows.filter((r) => r.recovered).length)
    expect(new Set(all.rows.map((r) => r.agent))).toEqual(new Set(['cline', 'roo-code', 'kilo-code', 'pearai']))
    const times = all.rows.map((r) => r.timestampUtc).filter((t): t is number => t !== undefined)
    expect(times.slice(0, 20)).toEqual([...times.slice(0, 20)].sort((a, b) => a - b))

    const page = await api.getTimeline({ offset: 10, limit: 5 })
    expect(page.rows).toEqual(all.rows.slice(10, 15))
    expect(page).toMatchObject({ total: all.total, offset: 10, limit: 5 })

    const byTool = await api.getTimeline({ sortBy: 'toolName', limit: 3 })
    const toolNames = all.rows.map((r) => r.toolName).filter(Boolean).sort((a, b) => a.localeCompare(b))
    expect(byTool.rows.map((r) => r.toolName)).toEqual(toolNames.slice(0, 3))
    const desc = await api.getTimeline({ descending: true, limit: 1 })
    expect(desc.rows[0]).toEqual(all.rows.at(-1))
  })

  it('filters by agent, session and project; the lead shows its sub-agent-free rows and recovered turns', async () => {
    const api = createApi(context())
    const roo = await api.getTimeline({ agent: 'roo-code' })
    expect(roo.rows.map((r) => [r.sessionId, r.turnType, r.text])).toEqual([
      ['1760000400000', 'user', 'add type hints'],
      ['1760000400000', 'assistant', 'Added type hints to parser.py.'],
    ])
    expect(roo.rows.every((r) => r.projectPath === '/home/u/roo-proj')).toBe(true)
    const lead = await api.getTimeline({ sessionId: LEAD })
    expect(new Set(lead.rows.map((r) => r.sessionId))).toEqual(new Set([LEAD]))
    expect(lead.rows.filter((r) => r.recovered).map((r) => [r.recovered!.source, r.text.split(' ')[0]])).toEqual([
      ['session-search.db', 'session'],
      ['session-search.db', 'and'],
      ['teams.db', 'team'],
      ['teams.db', 'team'],
      ['teams.db', 'team'],
      ['hooks.jsonl', '{"files":["CHANGELOG.md"]}'],
      ['hooks.jsonl', '##'],
      ['hooks.jsonl', 'hook'],
      ['hooks.jsonl', 'hook'],
    ])
    const proj = await api.getTimeline({ project: '/home/u/kilo-proj' })
    expect(proj.rows.map((r) => [r.agent, r.text])).toEqual([
      ['kilo-code', 'explain the build'],
      ['kilo-code', 'The build uses make.'],
    ])
  })

  it('exports CSV and JSONL with the seed column names', async () => {
    const api = createApi(context())
    const csv = await api.exportTimeline('csv', { sessionId: '1759990000000_del01' })
    const lines = csv.trimEnd().split('\r\n')
    expect(lines[0]).toBe('timestamp_utc,session_id,project_path,git_branch,turn_type,model,tool_name,tool_use_id,text,source_file,source_line,agent,recovered_from')
    expect(lines).toHaveLength(1 + 7)
    expect(lines[1]).toMatch(/^2025-10-09T06:06:40\.000Z,1759990000000_del01,\/home\/u\/proj,,system,,,,session search index: title=rename the config loader/)
    const jsonl = await api.exportTimeline('jsonl', { sessionId: '1759990000000_del01' })
    const records = jsonl.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(records.map((r) => r.recovered_from)).toEqual([...Array(5).fill('session-search.db'), 'hooks.jsonl', 'hooks.jsonl'])
    expect(records[1]).toMatchObject({ session_id: '1759990000000_del01', turn_type: 'user', text: 'rename the config loader', timestamp_utc: null, source_line: 1 })
  })

  it('rejects bad arguments in plain words', async () => {
    const api = createApi(context())
    expect((await rejection(api.getTimeline({ agent: 'vim' as never }))).code).toBe('UNKNOWN_AGENT')
    expect(await rejection(api.getTimeline({ sortBy: 'colour' as never }))).toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining('cannot be sorted by "colour"') })
    expect((await rejection(api.getTimeline({ offset: -1 }))).code).toBe('BAD_ARGUMENT')
    expect((await rejection(api.getTimeline({ sessionId: '' }))).code).toBe('BAD_ARGUMENT')
    expect(await rejection(api.exportTimeline('xlsx' as never))).toMatchObject({ code: 'BAD_ARGUMENT', message: 'The timeline exports as "csv" or "jsonl", not "xlsx".' })
  })
})

describe('the library of the seed000 home', () => {
  it('lists the deleted sessions with their recovered source, and the sub-agents under the lead', async () => {
    const api = createApi(context())
    const lib = await api.getLibrary()
    const byId = new Map(lib.sessions.map((s) => [s.id, s]))
    expect(byId.get('1759990000000_del01')!.recovered).toEqual({ source: 'session-search.db', path: join(HOME, '.cline/data/db/session-search.db') })
    expect(byId.get('1759980000000_hk001')!.recovered).toEqual({ source: 'hooks.jsonl', path: join(HOME, '.cline/data/logs/hooks.jsonl') })
    expect(byId.get(LEAD)!.recovered).toBeUndefined()
    expect(byId.get(LEAD)!.childSessionIds).toEqual([`${LEAD}__agent_sub01`, `${LEAD}__teamtask__task_0001`])
    expect(byId.get(`${LEAD}__agent_sub01`)!.parentSessionId).toBe(LEAD)
    const lead = await api.getSession('cline', LEAD)
    expect(lead.nodes.filter((n) => n.recovered).map((n) => n.recovered!.source)).toEqual(['hooks.jsonl', 'hooks.jsonl', 'session-search.db'])
  })
})

describe('getAgentSettings', () => {
  it('returns the view of the open home; a project outside it needs the user to pick it', async () => {
    let picked: string | null = null
    const api = createApi(context({ pickFolder: async () => picked }))
    const view = await api.getAgentSettings()
    expect(view.home).toBe(HOME)
    expect(view.hooks.map((h) => [h.name, h.sendsDataOut])).toEqual([['PostToolUse', false], ['TaskStart', true]])
    expect(view.mcpServers.map((m) => m.name)).toEqual(['github', 'tracker', 'filesystem'])
    expect((await rejection(api.getAgentSettings({ project: PROJ }))).code).toBe('PATH_NOT_ALLOWED')
    picked = PROJ
    await api.pickFolder()
    const withProject = await api.getAgentSettings({ project: PROJ })
    expect(withProject.projects).toEqual([PROJ])
    expect(withProject.hooks.filter((h) => h.scope === 'project').map((h) => [h.trigger, h.sendsDataOut])).toEqual([['PreToolUse', false], ['TaskComplete', true]])
    expect((await rejection(api.getAgentSettings({ home: '/definitely/not/here' }))).code).toBe('PATH_NOT_ALLOWED')
    expect((await rejection(api.getAgentSettings('x' as never))).code).toBe('BAD_ARGUMENT')
  })
})

describe('secrets', () => {
  it('no credential file value reaches any API answer or export', async () => {
    const api = createApi(context())
    const answers: unknown[] = []
    const lib = await api.getLibrary()
    answers.push(lib)
    for (const s of lib.sessions) answers.push(await api.getSession(s.agent, s.id))
    answers.push(await api.getTimeline({ limit: 50_000 }))
    answers.push(await api.exportTimeline('csv'))
    answers.push(await api.exportTimeline('jsonl'))
    answers.push(await api.getAgentSettings())
    const text = JSON.stringify(answers)
    for (const v of CREDENTIAL_VALUES) expect(text, v).not.toContain(v)
    // the credential files are flagged, by path
    expect(lib.credentialFiles.map((c) => c.path.slice(HOME.length + 1))).toContain('Documents/Cline/webhook_config.json')
  })

  it('secrets written into transcripts, hook lines and the search index are masked in the timeline and its exports', async () => {
    const home = seedSecretsHome(HOME)
    made.push(home)
    const api = createApi(context({ homes: [home] }))
    const page = await api.getTimeline({ limit: 50_000 })
    const outputs = [JSON.stringify(page), await api.exportTimeline('csv'), await api.exportTimeline('jsonl'), JSON.stringify(await api.getAgentSettings())]
    for (const s of FAKE_SECRETS) for (const out of outputs) expect(out.includes(s.secret), s.kind).toBe(false)
    // the seeding reached the rows: masks are there
    expect(page.rows.filter((r: TimelineRow) => r.text.includes('••••')).length).toBeGreaterThan(20)
  })
})
