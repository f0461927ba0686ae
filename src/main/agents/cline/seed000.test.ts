/**
 * The seed000 home (fixtures/seed000, built from seed 000's shapes): every store generation in the
 * library, sub-agents nested, recovered turns and sessions from the secondary sources, the forks,
 * and the generated databases matching their generator.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { expectGolden } from '../../../../tests/helpers/golden'
import { countPairedToolCalls } from '../../ir/build'
import { layoutForHome } from '../../platform'
import { openSqliteReadOnly } from '../../util/sqlite'
import { cline, kiloCode, pearai, rooCode } from './index'
import { SEED000, writeSeed000Databases } from '../../../../tests/builders/cline/seed000-fixture'
import { CTX, fingerprint, readHome, removeTempDirs, REPO, tempDir } from '../../../../tests/builders/cline/test-helpers'

afterAll(removeTempDirs)

const HOME = join(REPO, 'fixtures/seed000/home')

describe('seed000 home in the library', () => {
  it('lists every Cline store generation and matches the goldens', async () => {
    const before = fingerprint(HOME)
    const h = await readHome(cline, HOME)
    expect(h.diagnostics).toEqual([])
    expect(h.refs.map((r) => [r.sessionId, r.format, r.parentSessionId ?? null])).toEqual([
      [SEED000.lead, 'cline-sdk', null],
      [SEED000.imported, 'cline-sdk', null],
      [SEED000.gone, 'cline-sdk', null],
      [SEED000.sub, 'cline-sdk-subagent', SEED000.lead],
      [SEED000.team, 'cline-sdk-subagent', SEED000.lead],
      [SEED000.legacyTask, 'cline-legacy-task', null],
      [SEED000.cursorTask, 'cline-legacy-task', null],
      [SEED000.hooksOnly, 'cline-recovered', null],
      [SEED000.deleted, 'cline-recovered', null],
    ])
    for (const s of h.sessions) expectGolden(`cline/seed000-${s.id}`, s)
    expect(fingerprint(HOME)).toEqual(before)
  })

  it('nests the sub-agent and the teammate under the lead, linked to the spawn call', async () => {
    const h = await readHome(cline, HOME)
    const lead = h.byId(SEED000.lead)
    expect(lead.childSessionIds).toEqual([SEED000.sub, SEED000.team])
    const spawn = lead.nodes.flatMap((n) => n.toolCalls ?? []).find((c) => c.name === 'spawn_agent')!
    expect(spawn.subagentSessionId).toBe(SEED000.sub)
    const sub = h.byId(SEED000.sub)
    expect(sub.parentSessionId).toBe(SEED000.lead)
    expect(sub.parentToolCallId).toBe(spawn.id)
    expect(sub.agentName).toBe('agent_sub01')
    // a sub-agent transcript starts from its own first model: no change marker
    expect(sub.nodes.some((n) => n.event === 'model-change')).toBe(false)
    expect(h.byId(SEED000.team).parentSessionId).toBe(SEED000.lead)
  })

  it('adds the turns only the secondary sources hold to the lead, marked recovered', async () => {
    const lead = (await readHome(cline, HOME)).byId(SEED000.lead)
    const recovered = lead.nodes.filter((n) => n.recovered)
    expect(recovered.map((n) => [n.role, n.content, n.recovered!.source, n.recovered!.line])).toEqual([
      ['assistant', '', 'hooks.jsonl', 11],
      ['tool', '## 1.3.0', 'hooks.jsonl', 12],
      ['user', 'and run the linter too', 'session-search.db', 9],
    ])
    expect(recovered[0]!.toolCalls![0]).toMatchObject({ id: 'call_4', name: 'read_files', arguments: { files: ['CHANGELOG.md'] }, status: 'completed' })
    // the hook log's copies of the prompt, call_1 and the reply are the transcript's: not repeated
    expect(lead.nodes.filter((n) => n.content === 'fix tests')).toHaveLength(1)
    expect(lead.nodes.filter((n) => n.toolCalls?.some((c) => c.id === 'call_1'))).toHaveLength(1)
    // hook turns sit by time, the index turn at its ordinal (after the 8 messages)
    const ids = lead.nodes.map((n) => n.nodeId)
    expect(ids.indexOf(recovered[0]!.nodeId)).toBe(ids.indexOf('m8') - 1 - 1)
    expect(lead.nodes.at(-1)!.content).toBe('and run the linter too')
    expect(countPairedToolCalls(lead)).toEqual({ calls: 4, paired: 4 })
    expect(lead.source.files.map((f) => f.split('/').pop())).toEqual([
      `${SEED000.lead}.json`, `${SEED000.lead}.messages.json`, 'session-search.db', 'hooks.jsonl',
    ])
    expect(lead.diagnostics.map((d) => d.message)).toEqual([
      '3 turns missing from the transcript were recovered from hooks.jsonl and session-search.db; they are marked as recovered.',
    ])
  })

  it('lists a deleted session from session-search.db with a recovered badge and its source', async () => {
    const h = await readHome(cline, HOME)
    const del = h.byId(SEED000.deleted)
    expect(del.source.format).toBe('cline-recovered')
    expect(del.recovered).toEqual({ source: 'session-search.db', path: join(HOME, '.cline/data/db/session-search.db') })
    expect(del.title).toBe('rename the config loader')
    expect(del.workingDirectory).toBe(SEED000.project)
    expect(del.createdAt).toBe(1759990000000)
    expect(del.nodes.map((n) => [n.role, n.recovered?.source])).toEqual([
      ['user', 'session-search.db'],
      ['assistant', 'session-search.db'],
      ['user', 'session-search.db'],
      ['assistant', 'session-search.db'],
      ['assistant', 'hooks.jsonl'],
      ['tool', 'hooks.jsonl'],
    ])
    expect(del.nodes[0]!.content).toBe('rename the config loader')
    const result = del.nodes.at(-1)!
    expect(result).toMatchObject({ content: '[error] fatal: not under version control', isError: true, toolCallId: 'call_d1' })
    expect(del.diagnostics[0]!.severity).toBe('info')

    const hk = h.byId(SEED000.hooksOnly)
    expect(hk.recovered).toEqual({ source: 'hooks.jsonl', path: join(HOME, '.cline/data/logs/hooks.jsonl') })
    expect(hk.nodes.map((n) => [n.role, n.content])).toEqual([
      ['user', 'clean the build dir'],
      ['assistant', ''],
      ['tool', '(no output)'],
      ['assistant', 'Removed build/.'],
    ])
    expect(hk.nodes.every((n) => n.recovered?.source === 'hooks.jsonl' && n.createdAt !== undefined)).toBe(true)
    expect(countPairedToolCalls(hk)).toEqual({ calls: 1, paired: 1 })
  })

  it('reads the imported session, the manifest-less one, and ignores the compaction file', async () => {
    const h = await readHome(cline, HOME)
    const imp = h.byId(SEED000.imported)
    expect(imp.metadata.importedFrom).toEqual({
      tool: 'claude-code',
      sourceSessionId: '5f0c1d2e-0000-4000-8000-00000000c1a0',
      sourcePath: '/home/u/.claude/projects/-home-u-proj/5f0c1d2e.jsonl',
      importedAt: '2026-10-03T09:20:00.000Z',
      sourceProvider: 'anthropic',
      sourceModel: 'claude-opus-4-5',
    })
    expect(imp.git).toEqual({ branch: 'main' })
    expect(imp.diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['info', 'Imported from claude-code session 5f0c1d2e-0000-4000-8000-00000000c1a0 (/home/u/.claude/projects/-home-u-proj/5f0c1d2e.jsonl) on 2026-10-03T09:20:00.000Z: its turns are a copy of that agent\'s transcript.'],
    ])
    const gone = h.byId(SEED000.gone)
    expect(gone.source.files.some((f) => f.endsWith('sessions.db'))).toBe(true)
    expect(gone.nodes.map((n) => n.content)).toEqual(['bump the version', 'Bumped to 1.4.0.'])
    const lead = h.byId(SEED000.lead)
    expect(lead.metadata.compactionFile).toMatch(/k3x9q\.compaction\.json$/)
    expect(lead.nodes.some((n) => n.content.includes('Summary of the conversation'))).toBe(false)
    // per-message modelInfo changes are markers; metrics are usage
    expect(lead.nodes.filter((n) => n.event === 'model-change').map((n) => n.content)).toEqual(['Model: claude-sonnet-4-5 → claude-opus-4-5'])
    expect(lead.nodes.find((n) => n.nodeId === 'm4')!.usage).toEqual({ inputTokens: 1500, outputTokens: 40, cacheReadTokens: 900, cost: 0.012 })
  })

  it('reads legacy tasks from every VS Code-family editor: ui_messages first, the API history (XML tools) alone', async () => {
    const h = await readHome(cline, HOME)
    const vs = h.byId(SEED000.legacyTask)
    expect(vs.source.files[0]).toMatch(/Code\/User\/globalStorage\/saoudrizwan\.claude-dev\/tasks\/1760000000000\/ui_messages\.json$/)
    expect(vs.workingDirectory).toBe(SEED000.project)
    const cursor = h.byId(SEED000.cursorTask)
    expect(cursor.source.files[0]).toMatch(/Cursor\/User\/globalStorage\/.*api_conversation_history\.json$/)
    expect(cursor.nodes.flatMap((n) => n.toolCalls ?? []).map((c) => c.name)).toEqual(['list_files'])
    expect(countPairedToolCalls(cursor)).toEqual({ calls: 1, paired: 1 })
  })

  it('lists each fork as its own agent from its own extension folder', async () => {
    const roo = await readHome(rooCode, HOME)
    expect(roo.sessions.map((s) => [s.id, s.agent, s.workingDirectory])).toEqual([[SEED000.rooTask, 'roo-code', '/home/u/roo-proj']])
    const kilo = await readHome(kiloCode, HOME)
    expect(kilo.sessions.map((s) => [s.id, s.agent, s.workingDirectory])).toEqual([[SEED000.kiloTask, 'kilo-code', '/home/u/kilo-proj']])
    const pear = await readHome(pearai, HOME)
    expect(pear.sessions.map((s) => [s.id, s.agent, s.workingDirectory])).toEqual([[SEED000.pearTask, 'pearai', '/home/u/pear-proj']])
  })

  it('follows CLINE_DIR and CLINE_DATA_DIR on the own home', async () => {
    const home = tempDir()
    const elsewhere = join(tempDir(), 'cline-data')
    cpSync(join(HOME, '.cline/data'), elsewhere, { recursive: true })
    mkdirSync(join(home, '.cline'), { recursive: true })
    const layout = await layoutForHome({ home, os: 'linux', isOwnHome: true, env: { CLINE_DATA_DIR: elsewhere }, run: async () => null })
    const found = await cline.discover(layout, CTX)
    expect(found.refs.map((r) => r.sessionId)).toContain(SEED000.lead)
    expect(found.refs.map((r) => r.sessionId)).toContain(SEED000.deleted)
    const dirLayout = await layoutForHome({ home, os: 'linux', isOwnHome: true, env: { CLINE_DIR: join(elsewhere, '..') }, run: async () => null })
    expect(dirLayout.clineDataDir).toBe(join(elsewhere, '..', 'data'))
  })
})

describe('seed000 home under the conformance rules', () => {
  it('every session has messages and every tool result its call', async () => {
    const h = await readHome(cline, HOME)
    for (const s of h.sessions) {
      expect(s.nodes.length, s.id).toBeGreaterThan(0)
      const calls = new Map(s.nodes.flatMap((n) => n.toolCalls ?? []).map((c) => [c.id, c]))
      for (const n of s.nodes) if (n.role === 'tool') expect(['completed', 'failed'], `${s.id} ${n.toolCallId}`).toContain(calls.get(n.toolCallId!)?.status)
    }
  })

  it('survives cut secondary sources: a cut hook line and a damaged search index are reported, the rest loads', async () => {
    const home = join(tempDir(), 'home')
    cpSync(HOME, home, { recursive: true })
    const log = join(home, '.cline/data/logs/hooks.jsonl')
    const text = readFileSync(log, 'utf8')
    // cut the last turn line of the lead (its recovered read_files result) in half
    const lines = text.split('\n')
    const i = lines.findIndex((l) => l.includes('"call_4"') && l.includes('tool_result'))
    lines[i] = lines[i]!.slice(0, 40)
    writeFileSync(log, lines.join('\n'))
    writeFileSync(join(home, '.cline/data/db/session-search.db'), 'not a database')
    const h = await readHome(cline, home)
    expect(h.diagnostics.map((d) => d.message)).toEqual([
      expect.stringMatching(/^Could not read the Cline search index \(.*\); turns it alone holds are not shown\.$/),
    ])
    // the deleted session is still known from its hook lines
    expect(h.byId(SEED000.deleted).recovered!.source).toBe('hooks.jsonl')
    expect(h.byId(SEED000.deleted).nodes.map((n) => n.role)).toEqual(['assistant', 'tool'])
    const lead = h.byId(SEED000.lead)
    expect(lead.nodes.filter((n) => n.recovered).map((n) => n.recovered!.line)).toEqual([11])
    expect(lead.nodes.find((n) => n.recovered)!.toolCalls![0]!.status).toBe('pending')
  })
})

describe('seed000 databases', () => {
  it('the committed databases are what the generator writes', () => {
    const home = tempDir()
    cpSync(HOME, home, { recursive: true })
    writeSeed000Databases(home)
    for (const db of ['db/sessions.db', 'db/session-search.db', 'teams/teams.db']) {
      expect(dump(join(home, '.cline/data', db)), db).toEqual(dump(join(HOME, '.cline/data', db)))
    }
  })
})

/** The rows of the fixture's tables, for comparing two databases (opened on temporary copies). */
function dump(path: string): Record<string, unknown[]> {
  const handle = openSqliteReadOnly(path)
  try {
    const out: Record<string, unknown[]> = {}
    for (const name of ['sessions', 'indexed_sessions', 'team_events']) {
      if (handle.db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name)) out[name] = handle.db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()
    }
    if (handle.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'session_search'").get()) {
      out.session_search = handle.db.prepare('SELECT * FROM session_search ORDER BY session_id, ordinal').all()
    }
    return out
  } finally {
    handle.close()
  }
}
