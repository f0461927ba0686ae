/**
 * The Cline timeline (seed 000 "Parser plan") on the seed000 home and the real CLI homes: the
 * whole row list as a golden, the duplicate rule between transcripts and secondary sources,
 * `parser:` rows, filters, and the no-FTS5 fallback.
 */
import { cpSync, readdirSync, statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { expectGolden } from '../../../../../tests/helpers/golden'
import type { TimelineRow } from '../../../../shared/timeline'
import { layoutForHome } from '../../../platform'
import { naturalOrder } from '../../../timeline/sort'
import { cline, rooCode } from '../index'
import { SEED000 } from '../../../../../tests/builders/cline/seed000-fixture'
import { REPO, removeTempDirs, tempDir, writeJson } from '../../../../../tests/builders/cline/test-helpers'
import { clineFamilyTimeline, type ClineTimelineOptions } from './index'

afterAll(removeTempDirs)

const SEED_HOME = join(REPO, 'fixtures/seed000/home')
const CONFIG = { id: 'cline' as const, displayName: 'Cline', extensionIds: ['saoudrizwan.claude-dev'], readsSdkStore: true }
const MTIME_S = 1760000500

/** A copy of the seed000 home with every file's mtime fixed, so file-mtime rows are stable. */
function stableHome(): string {
  const home = join(tempDir(), 'home')
  cpSync(SEED_HOME, home, { recursive: true })
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n)
      if (statSync(p).isDirectory()) walk(p)
      else utimesSync(p, MTIME_S, MTIME_S)
    }
  }
  walk(home)
  return home
}

async function timeline(home: string, filter = {}, options: ClineTimelineOptions = {}) {
  return clineFamilyTimeline(await layoutForHome({ home }), CONFIG, filter, options)
}

describe('Cline timeline of the seed000 home', () => {
  it('matches the golden (every row the Parser plan yields, in time order)', async () => {
    const home = stableHome()
    const t = await timeline(home)
    expect(t.diagnostics).toEqual([])
    const rows = naturalOrder(t.rows).map((r) => ({ ...r, sourceFile: r.sourceFile.replace(home, '<home>') }))
    expectGolden('cline/seed000-timeline', rows)
  })

  it('drops the hook-log copies of transcript turns and keeps what only the log holds, marked recovered', async () => {
    const { rows } = await timeline(SEED_HOME)
    const hooks = rows.filter((r) => r.recovered?.source === 'hooks.jsonl')
    expect(hooks.map((r) => [r.sourceLine, r.sessionId, r.turnType, r.text])).toEqual([
      [1, SEED000.hooksOnly, 'system', 'hook audit: agent_start cline_version=4.1.25 user=u agent=agent_lead'],
      [2, SEED000.hooksOnly, 'user', 'clean the build dir'],
      [3, SEED000.hooksOnly, 'tool_use', '{"command":"rm -rf build"}'],
      [4, SEED000.hooksOnly, 'tool_result', '(no output)'],
      [5, SEED000.hooksOnly, 'assistant', 'Removed build/.'],
      [6, SEED000.deleted, 'tool_use', '{"command":"git mv config_loader.py config_reader.py"}'],
      [7, SEED000.deleted, 'tool_result', '[error] fatal: not under version control'],
      // lines 8-10 and 13 (prompt, call_1, its result, the final reply) are in the lead transcript
      [11, SEED000.lead, 'tool_use', '{"files":["CHANGELOG.md"]}'],
      [12, SEED000.lead, 'tool_result', '## 1.3.0'],
      [14, SEED000.lead, 'system', 'hook audit: agent_error cline_version=4.1.25 user=u agent=agent_lead error=ProviderError: rate limited'],
      [15, '', 'system', 'parser: line 15 of .cline/data/logs/hooks.jsonl is not a JSON object; skipped'],
      [16, '', 'system', 'parser: line 16 of .cline/data/logs/hooks.jsonl is not a JSON object; skipped'],
      [17, SEED000.lead, 'system', 'hook audit: session_shutdown reason=stale_process pid=4100 source=cli'],
    ])
    // the error's stack is never printed
    expect(rows.some((r) => r.text.includes('callModel') || r.text.includes('index.js'))).toBe(false)
  })

  it('keeps a turn only in session-search.db as recovered, and the deleted session whole', async () => {
    const { rows } = await timeline(SEED_HOME)
    const index = rows.filter((r) => r.recovered?.source === 'session-search.db')
    expect(index.map((r) => [r.sessionId, r.turnType, r.sourceLine ?? null, r.timestampUtc ?? null, r.text.split('\n')[0]])).toEqual([
      [SEED000.lead, 'system', null, 1760000000000, 'session search index: title=fix tests workspace_root=/home/u/proj prompt=fix tests document_count=10 indexed_at=2025-10-09T09:05:00.000Z'],
      [SEED000.lead, 'user', 9, null, 'and run the linter too'],
      [SEED000.sub, 'system', null, 1760000005500, 'session search index: title=find the flaky test workspace_root=/home/u/proj prompt=find the flaky test document_count=5 indexed_at=2025-10-09T09:05:00.000Z'],
      [SEED000.deleted, 'system', null, 1759990000000, 'session search index: title=rename the config loader workspace_root=/home/u/proj prompt=rename the config loader document_count=5 indexed_at=2025-10-09T09:05:00.000Z'],
      [SEED000.deleted, 'user', 1, null, 'rename the config loader'],
      [SEED000.deleted, 'assistant', 2, null, 'text'],
      [SEED000.deleted, 'user', 3, null, 'tool_result'],
      [SEED000.deleted, 'assistant', 4, null, 'text'],
    ])
    // the project of an index row is the manifest's cwd when the session is on disk
    expect(index[1]!.projectPath).toBe(SEED000.project)
  })

  it('drops a CLI prompt a transcript holds and keeps the others, only the last line dated', async () => {
    const { rows } = await timeline(SEED_HOME)
    const prompts = rows.filter((r) => r.recovered?.source === 'user_input_history.jsonl')
    expect(prompts.map((r) => [r.sourceLine, r.sessionId, r.projectPath, r.timestampUtc ?? null, r.text])).toEqual([
      [1, '', '', null, 'rename the config loader'],
      [3, '', '', 1760000300000, 'deploy to staging'],
    ])
  })

  it('shows team events with their team session and the upload queue without data or lastError', async () => {
    const { rows } = await timeline(SEED_HOME)
    expect(rows.filter((r) => r.recovered?.source === 'teams.db').map((r) => [r.sessionId, r.text])).toEqual([
      [SEED000.lead, 'team event: task_start team=qa-team agent=reviewer task=task_0001 correlation=corr-1'],
      [SEED000.lead, 'team event: team_message team=qa-team agent=reviewer reviewer: looks good'],
      [SEED000.lead, 'team event: task_end team=qa-team agent=reviewer task=task_0001 correlation=corr-1 Approved.'],
      ['', 'team event: run_progress team=night-shift heartbeat'],
    ])
    const queue = rows.filter((r) => r.sourceFile.endsWith('sync-queue.json'))
    expect(queue.map((r) => [r.timestampUtc, r.sessionId, r.projectPath, r.text])).toEqual([
      [1760000002100, SEED000.legacyTask, SEED000.project, 'session synced: enterprise prompt upload synced key api_conversation_history.json retries 0 (from saoudrizwan.claude-dev/cache/sync-queue.json, item timestamp)'],
      [1760000002200, SEED000.legacyTask, SEED000.project, 'enterprise prompt upload failed key ui_messages.json retries 3 (from saoudrizwan.claude-dev/cache/sync-queue.json, item timestamp)'],
    ])
    const all = rows.map((r) => r.text).join('\n')
    expect(all).not.toContain('403 Forbidden')
    expect(all).not.toContain('"role":"user","content":"fix tests"')
  })

  it('gives the enterprise upload marker rows of a manifest and of a sessions.db row', async () => {
    const { rows } = await timeline(SEED_HOME)
    expect(rows.filter((r) => r.text.startsWith('session synced: enterprise prompt upload to')).map((r) => [r.sessionId, r.text])).toEqual([
      [SEED000.lead, `session synced: enterprise prompt upload to s3 bucket acme-prompt-archive object sessions/usr_42/${SEED000.lead}/messages.json endpoint=- region=eu-west-1 account=- (from ${SEED000.lead}.json metadata enterprise.blobUpload, started_at)`],
      [SEED000.gone, `session synced: enterprise prompt upload to r2 bucket acme-r2 object sessions/unknown/${SEED000.gone}/messages.json endpoint=- region=- account=cf-acct-9 (from sessions.db sessions.metadata_json enterprise.blobUpload, started_at)`],
    ])
  })

  it('names every file that is not what it should be in one parser: row', async () => {
    const { rows } = await timeline(SEED_HOME)
    expect(rows.filter((r) => r.text.startsWith('parser:') && !r.sourceFile.endsWith('hooks.jsonl')).map((r) => r.text)).toEqual([
      'parser: record 2 of .cline/data/cloud-pending-starts/4242-6f1c2a9e-0d3b-4c55-9f5e-3a1b2c4d5e6f.json has no sessionId',
      'parser: .cline/data/cloud-pending-starts/4243-broken.json is not a JSON array',
    ])
  })

  it('gives legacy permission-mode and model rows from task_metadata.json, and the orphan index entry', async () => {
    const { rows } = await timeline(SEED_HOME, { sessionId: SEED000.legacyTask })
    expect(rows.filter((r) => r.sourceFile.endsWith('task_metadata.json')).map((r) => [r.timestampUtc, r.text])).toEqual([
      [1759999999500, 'permission mode: act'],
      [1759999999500, 'model: claude-sonnet-4-5 model_provider_id=anthropic mode=act'],
      [1760000001200, 'permission mode: act -> plan'],
      [1760000001600, 'model: claude-sonnet-4-5 -> claude-opus-4-5 model_provider_id=anthropic mode=plan'],
    ])
    expect(rows.find((r) => r.sourceLine === 1)!.text).toBe('fix tests | [1 image]')
    const orphan = (await timeline(SEED_HOME, { sessionId: SEED000.orphanTask })).rows
    expect(orphan.map((r) => r.text)).toEqual(['task history: write the README (task folder is gone) tokens_in=900 tokens_out=300 cost=0.02'])
  })

  it('filters by session and by project', async () => {
    const bySession = (await timeline(SEED_HOME, { sessionId: SEED000.deleted })).rows
    expect(new Set(bySession.map((r) => r.sessionId))).toEqual(new Set([SEED000.deleted]))
    expect(bySession.map((r) => r.recovered?.source)).toEqual(['hooks.jsonl', 'hooks.jsonl', ...Array(5).fill('session-search.db')])
    const byProject = (await timeline(SEED_HOME, { project: '/home/u/proj/' })).rows
    expect(byProject.length).toBeGreaterThan(40)
    expect(byProject.every((r) => r.projectPath === SEED000.project)).toBe(true)
    expect(byProject.some((r) => r.recovered?.source === 'user_input_history.jsonl')).toBe(false)
  })

  it('without FTS5 says so in one row and reads indexed_sessions alone, without times', async () => {
    const { rows } = await timeline(SEED_HOME, {}, { searchIndex: { fts5: false } })
    const index = rows.filter((r) => r.recovered?.source === 'session-search.db')
    expect(index.map((r) => [r.sessionId, r.timestampUtc ?? null, r.text])).toEqual([
      ['', null, 'session search index: this SQLite build has no FTS5, so the documents (the copy of each transcript) cannot be read; only indexed_sessions was read'],
      [SEED000.lead, null, 'session search index: title=fix tests document_count=10 indexed_at=2025-10-09T09:05:00.000Z'],
      [SEED000.sub, null, 'session search index: title=find the flaky test document_count=5 indexed_at=2025-10-09T09:05:00.000Z'],
      [SEED000.deleted, null, 'session search index: title=rename the config loader document_count=5 indexed_at=2025-10-09T09:05:00.000Z'],
    ])
  })

  it('is what the agent definition returns', async () => {
    const layout = await layoutForHome({ home: SEED_HOME })
    const viaAgent = await cline.timeline!(layout, { now: () => 0 }, { sessionId: SEED000.lead })
    expect(viaAgent.rows).toEqual((await timeline(SEED_HOME, { sessionId: SEED000.lead })).rows)
  })
})

describe('public sample files', () => {
  it('the truncated public task file: the reader names it in a diagnostic, the timeline in a parser: row', async () => {
    const home = join(tempDir(), 'home')
    const task = join(home, '.cline/data/tasks/1700000000000')
    cpSync(join(REPO, 'fixtures/public/cline/luoyuctl__agenttrace__cline-broken-task__api_conversation_history.json'), join(task, 'api_conversation_history.json'))
    const found = await cline.discover(await layoutForHome({ home }), { now: () => 0 })
    const session = await cline.read(found.refs[0]!, { now: () => 0 })
    expect(session.nodes).toEqual([])
    expect(session.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.path, d.line, d.message])).toEqual([
      [join(task, 'api_conversation_history.json'), 1, 'api_conversation_history.json is cut or damaged at line 1 (the file is not a JSON array); kept the 0 records before it.'],
    ])
    const { rows } = await timeline(home)
    expect(rows.map((r) => [r.sessionId, r.text])).toEqual([
      ['1700000000000', 'parser: .cline/data/tasks/1700000000000/api_conversation_history.json is cut or damaged at line 1 (the file is not a JSON array); kept the 0 records before it'],
    ])
  })

  it('the public SDK sample and Roo Code history item give their rows', async () => {
    const home = join(tempDir(), 'home')
    const dir = join(home, '.cline/data/sessions/session_synthetic_01')
    cpSync(join(REPO, 'fixtures/public/cline/vshulcz__deja-vu__session_synthetic_01.json'), join(dir, 'session_synthetic_01.json'))
    cpSync(join(REPO, 'fixtures/public/cline/vshulcz__deja-vu__session_synthetic_01.messages.json'), join(dir, 'session_synthetic_01.messages.json'))
    const { rows } = await timeline(home)
    expect(rows.filter((r) => !r.text.startsWith('session start') && !r.text.startsWith('model:')).map((r) => [r.turnType, r.text, r.projectPath])).toEqual([
      ['user', 'Say hello', '/home/example/work/demo'],
      ['assistant', 'Hello!', '/home/example/work/demo'],
      ['thinking', 'hidden', '/home/example/work/demo'],
    ])
    // Roo Code's per-task history_item.json names the project with its own field (workspace)
    const roo = join(home, '.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/1767225700000')
    cpSync(join(REPO, 'fixtures/public/roo-code/vshulcz__deja-vu__history_item.json'), join(roo, 'history_item.json'))
    writeJson(join(roo, 'ui_messages.json'), [{ ts: 1767225700000, type: 'say', say: 'text', text: 'Fix the flaky test' }])
    const rooRows = (await rooCode.timeline!(await layoutForHome({ home }), { now: () => 0 }, {})).rows
    expect(rooRows.map((r) => [r.agent, r.sessionId, r.turnType, r.text, r.projectPath])).toEqual([['roo-code', '1767225700000', 'user', 'Fix the flaky test', '/home/example/work/demo']])
  })
})

describe('Cline timeline of the real CLI homes', () => {
  it('real CLI 3.0.65: the search index and the prompt history repeat the transcripts; the shutdown line stays', async () => {
    const { rows, diagnostics } = await timeline(join(REPO, 'fixtures/real/cline/home'))
    expect(diagnostics).toEqual([])
    const secondary = rows.filter((r) => r.recovered)
    expect(secondary.map((r) => [r.recovered!.source, r.turnType, r.sessionId])).toEqual([
      ['hooks.jsonl', 'system', '1796022183774_v75nv'],
      ...['1796022193411_yw3k7__agent_1796022194075_qt5odd', '1796022193411_yw3k7', '1796022188670_1nyn0', '1796022183774_v75nv', '1796022179495_agv8g'].map((id) => [
        'session-search.db', 'system', id,
      ]),
    ])
    expect(secondary[0]!.text).toBe('hook audit: session_shutdown reason=failed_external_process_exit pid=21133 source=stale_session_reconciler')
    // the sub-agent's rows carry its own id and start from its own first model
    const sub = rows.filter((r) => r.sessionId === '1796022193411_yw3k7__agent_1796022194075_qt5odd' && !r.recovered)
    expect(sub[0]!.text).toMatch(/^session start: source=cli .*parent_session=1796022193411_yw3k7/)
    expect(rows.filter((r) => r.text.startsWith('model:')).map((r) => r.text)).toEqual(Array(5).fill('model: mock-model provider=openai-compatible'))
  })

  it('real CLI 2.18.0 legacy tasks: one row per ui_messages entry, the mode and model rows, permission settings', async () => {
    const home = join(REPO, 'fixtures/real/cline-legacy/home')
    const { rows } = await timeline(home)
    const ui = JSON.parse(
      (await import('node:fs')).readFileSync(join(home, '.cline/data/tasks/1796022270019/ui_messages.json'), 'utf8'),
    ) as unknown[]
    const task = rows.filter((r) => r.sessionId === '1796022270019' && r.sourceFile.endsWith('ui_messages.json'))
    expect(task).toHaveLength(ui.length)
    expect(task.every((r: TimelineRow) => r.projectPath === '/home/ana/src/weather-cli' && r.model === 'mock-model')).toBe(true)
    expect(rows.filter((r) => r.sessionId === '1796022270019' && r.sourceFile.endsWith('task_metadata.json')).map((r) => r.text)).toEqual([
      'permission mode: act',
      'model: mock-model model_provider_id=openai mode=act',
    ])
    expect(rows.filter((r) => r.text.startsWith('permission setting: autoApprovalSettings.actions.')).length).toBe(8)
  })
})
