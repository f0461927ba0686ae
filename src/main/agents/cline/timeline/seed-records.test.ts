/**
 * Every record of seed 000 "Fixtures", verbatim, in the file it names, and the rows the seed's
 * "Parser plan" says it yields.
 */
import { utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { TimelineRow } from '../../../../shared/timeline'
import { layoutForHome } from '../../../platform'
import { cline } from '../index'
import { removeTempDirs, tempDir, writeJson } from '../../../../../tests/builders/cline/test-helpers'
import { clineFamilyTimeline } from './index'

afterAll(removeTempDirs)

const MTIME = 1760000500000
const LEAD = '1760000000000_k3x9q'
const GS = '.config/Code/User/globalStorage/saoudrizwan.claude-dev'

/** The seed's records, as printed. */
const R = {
  uiTool: { ts: 1760000000000, type: 'say', say: 'tool', text: '{"tool":"readFile","path":"src/app.py","content":"/home/u/proj/src/app.py"}', modelInfo: { modelId: 'claude-sonnet-4-5', providerId: 'anthropic', mode: 'act' } },
  uiApiReq: { ts: 1760000001000, type: 'say', say: 'api_req_started', text: '{"request":"<task>fix tests</task>","tokensIn":1200,"tokensOut":80,"cacheWrites":0,"cacheReads":900,"cost":0.0041}' },
  apiToolUse: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01A', name: 'execute_command', input: { command: 'pytest -q' } }] },
  apiToolResult: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: '3 passed', is_error: false }] },
  history: { id: '1760000000000', ulid: '01JAX3Q8M4', ts: 1760000000000, task: 'fix tests', tokensIn: 1200, tokensOut: 80, totalCost: 0.0041, cwdOnTaskInitialization: '/home/u/proj', modelId: 'claude-sonnet-4-5', apiProvider: 'anthropic' },
  manifest: { version: 1, session_id: LEAD, source: 'cli', pid: 4242, started_at: '2026-10-03T09:00:00.000Z', status: 'completed', interactive: true, provider: 'anthropic', model: 'claude-sonnet-4-5', cwd: '/home/u/proj', workspace_root: '/home/u/proj', enable_tools: true, enable_spawn: false, enable_teams: false, prompt: 'fix tests', metadata: { title: 'fix tests' }, messages_path: `/home/u/.cline/data/sessions/${LEAD}/${LEAD}.messages.json` },
  messages: { version: 1, updated_at: '2026-10-03T09:00:05.000Z', agent: 'lead', sessionId: LEAD, origin: { source: 'cli', mode: 'user', sessionId: LEAD }, messages: [{ id: 'm1', role: 'user', content: 'fix tests', ts: 1760000000000 }, { id: 'm2', role: 'assistant', content: [{ type: 'thinking', thinking: 'run the suite' }, { type: 'tool_use', id: 'call_1', name: 'bash', input: { command: 'pytest -q' } }], modelInfo: { id: 'claude-sonnet-4-5', provider: 'anthropic' }, metrics: { inputTokens: 1200, outputTokens: 80, cost: 0.0041 }, ts: 1760000002000 }, { id: 'm3', role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', name: 'bash', content: '3 passed', is_error: false }], ts: 1760000003000 }] },
  hookToolCall: { ts: '2026-10-03T09:00:02.500Z', clineVersion: '4.1.25', timestamp: '2026-10-03T09:00:02.500Z', taskId: LEAD, sessionContext: { rootSessionId: LEAD }, workspaceRoots: ['/home/u/proj'], userId: 'u', agent_id: 'agent_lead', hookName: 'tool_call', iteration: 1, tool_call: { id: 'call_1', name: 'bash', input: { command: 'pytest -q' } }, preToolUse: { toolName: 'bash', parameters: { command: 'pytest -q' } } },
  hookShutdown: { ts: '2026-10-03T09:10:00.000Z', hookName: 'session_shutdown', reason: 'stale_process', sessionId: LEAD, pid: 4100, source: 'cli' },
  blocked: { id: 'm5', role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_2', name: 'web_fetch', content: '{"error":"Tool \\"web_fetch\\" is disabled by policy"}', is_error: true }], ts: 1760000004000 },
  globalState: { autoApprovalSettings: { version: 1, enabled: true, favorites: [], maxRequests: 20, actions: { readFiles: true, editFiles: true, executeSafeCommands: false, executeAllCommands: true, useBrowser: true, useMcp: true }, enableNotifications: false }, mode: 'act', cloudTaskTarget: { target: 'cloud', repositoryId: 812345678, branch: 'main' }, cloudSessionStatuses: { 'ses-01JCLOUDDONE': { status: 'completed', observedAt: 1760000100000 } } },
  globalSettings: { telemetryOptOut: false, autoUpdateEnabled: true, planActMode: 'plan', toolAutoApprove: false, disabledTools: ['browser_action'], tools: { web_fetch: { enabled: false } } },
  mcp: { mcpServers: { github: { command: 'npx', autoApprove: ['list_issues'], disabled: false } } },
  pending: [{ sessionId: 'ses-01JCLOUDWAIT', account: 'user:usr_0f9e8d7c', endpoint: 'https://api.cline.bot' }],
  imported: { metadata: { title: 'port the parser', importedFrom: { tool: 'claude-code', sourceSessionId: '5f0c1d2e-0000-4000-8000-00000000c1a0', sourcePath: '/home/u/.claude/projects/-home-u-proj/5f0c1d2e.jsonl', importedAt: '2026-10-03T09:20:00.000Z', sourceProvider: 'anthropic', sourceModel: 'claude-opus-4-5' } } },
}

async function rowsOf(home: string): Promise<TimelineRow[]> {
  const t = await clineFamilyTimeline(await layoutForHome({ home }), { id: 'cline', displayName: 'Cline', extensionIds: ['saoudrizwan.claude-dev'], readsSdkStore: true })
  return t.rows
}

/** The columns a test compares (source paths differ per temporary home). */
function cols(r: TimelineRow) {
  const { sourceFile: _f, agent: _a, gitBranch: _g, ...rest } = r
  return rest
}

function fixMtime(...paths: string[]) {
  for (const p of paths) utimesSync(p, MTIME / 1000, MTIME / 1000)
}

describe('seed 000 Fixtures records → rows', () => {
  it('ui_messages.json records (with the taskHistory.json record) give one row each', async () => {
    const home = tempDir()
    writeJson(join(home, GS, 'tasks/1760000000000/ui_messages.json'), [R.uiTool, R.uiApiReq])
    writeJson(join(home, GS, 'state/taskHistory.json'), [R.history])
    const rows = await rowsOf(home)
    expect(rows.map(cols)).toEqual([
      { timestampUtc: 1760000000000, sessionId: '1760000000000', projectPath: '/home/u/proj', turnType: 'tool_use', model: 'claude-sonnet-4-5', toolName: 'readFile', toolUseId: '1760000000000', text: R.uiTool.text, sourceLine: 1 },
      // HistoryItem.modelId fills the model column only
      { timestampUtc: 1760000001000, sessionId: '1760000000000', projectPath: '/home/u/proj', turnType: 'system', model: 'claude-sonnet-4-5', toolName: '', toolUseId: '', text: R.uiApiReq.text, sourceLine: 2 },
    ])
  })

  it('api_conversation_history.json records, alone in a task, give tool_use and tool_result rows', async () => {
    const home = tempDir()
    writeJson(join(home, '.cline/data/tasks/1760000000000/api_conversation_history.json'), [R.apiToolUse, R.apiToolResult])
    writeJson(join(home, '.cline/data/state/taskHistory.json'), [R.history])
    const rows = await rowsOf(home)
    expect(rows.map(cols)).toEqual([
      { sessionId: '1760000000000', projectPath: '/home/u/proj', turnType: 'tool_use', model: 'claude-sonnet-4-5', toolName: 'execute_command', toolUseId: 'toolu_01A', text: '{"command":"pytest -q"}', sourceLine: 1 },
      { sessionId: '1760000000000', projectPath: '/home/u/proj', turnType: 'tool_result', model: 'claude-sonnet-4-5', toolName: '', toolUseId: 'toolu_01A', text: '3 passed', sourceLine: 2 },
    ])
  })

  it('the SDK manifest and messages records give the start and model rows, then one row per block', async () => {
    const home = tempDir()
    const dir = join(home, '.cline/data/sessions', LEAD)
    writeJson(join(dir, `${LEAD}.json`), R.manifest)
    writeJson(join(dir, `${LEAD}.messages.json`), { ...R.messages, messages: [...R.messages.messages, R.blocked] })
    const rows = await rowsOf(home)
    const started = Date.parse('2026-10-03T09:00:00.000Z')
    const base = { sessionId: LEAD, projectPath: '/home/u/proj', model: 'claude-sonnet-4-5' }
    expect(rows.map(cols)).toEqual([
      { ...base, timestampUtc: started, turnType: 'system', toolName: '', toolUseId: '', text: 'session start: source=cli status=completed interactive=true pid=4242' },
      { ...base, timestampUtc: started, turnType: 'system', toolName: '', toolUseId: '', text: 'model: claude-sonnet-4-5 provider=anthropic' },
      { ...base, timestampUtc: 1760000000000, turnType: 'user', toolName: '', toolUseId: '', text: 'fix tests', sourceLine: 1 },
      { ...base, timestampUtc: 1760000002000, turnType: 'thinking', toolName: '', toolUseId: '', text: 'run the suite', sourceLine: 2 },
      { ...base, timestampUtc: 1760000002000, turnType: 'tool_use', toolName: 'bash', toolUseId: 'call_1', text: '{"command":"pytest -q"}', sourceLine: 2 },
      { ...base, timestampUtc: 1760000003000, turnType: 'tool_result', toolName: 'bash', toolUseId: 'call_1', text: '3 passed', sourceLine: 3 },
      // the call blocked by policy: an error result
      { ...base, timestampUtc: 1760000004000, turnType: 'tool_result', toolName: 'web_fetch', toolUseId: 'call_2', text: '[error] Tool "web_fetch" is disabled by policy', sourceLine: 4 },
    ])
  })

  it('the hooks.jsonl records: the tool_call pairs with call_1 only within an hour; session_shutdown is an audit row', async () => {
    const home = tempDir()
    const dir = join(home, '.cline/data/sessions', LEAD)
    writeJson(join(dir, `${LEAD}.json`), R.manifest)
    writeJson(join(dir, `${LEAD}.messages.json`), R.messages)
    const log = join(home, '.cline/data/logs/hooks.jsonl')
    writeJson(log, {})
    writeFileSync(log, `${JSON.stringify(R.hookToolCall)}\n${JSON.stringify(R.hookShutdown)}\n`)
    const secondary = (await rowsOf(home)).filter((r) => r.recovered).map(cols)
    // The record's ISO time (2026-10-03) is a year after the message's ms time (1760000002000 =
    // 2025-10-09): the one-hour window keeps the hook row, as recovered.
    expect(secondary).toEqual([
      { timestampUtc: Date.parse('2026-10-03T09:00:02.500Z'), sessionId: LEAD, projectPath: '/home/u/proj', turnType: 'tool_use', model: '', toolName: 'bash', toolUseId: 'call_1', text: '{"command":"pytest -q"}', sourceLine: 1, recovered: { source: 'hooks.jsonl' } },
      { timestampUtc: Date.parse('2026-10-03T09:10:00.000Z'), sessionId: LEAD, projectPath: '', turnType: 'system', model: '', toolName: '', toolUseId: '', text: 'hook audit: session_shutdown reason=stale_process pid=4100 source=cli', sourceLine: 2, recovered: { source: 'hooks.jsonl' } },
    ])
    // Stamped within the hour of the transcript's call, the same line is a duplicate and dropped.
    writeFileSync(log, `${JSON.stringify({ ...R.hookToolCall, ts: '2025-10-09T08:53:22.500Z' })}\n${JSON.stringify(R.hookShutdown)}\n`)
    expect((await rowsOf(home)).filter((r) => r.recovered).map((r) => r.text)).toEqual(['hook audit: session_shutdown reason=stale_process pid=4100 source=cli'])
  })

  it('globalState.json, global-settings.json and cline_mcp_settings.json give permission and cloud rows', async () => {
    const home = tempDir()
    const files = [join(home, '.cline/data/globalState.json'), join(home, '.cline/data/settings/global-settings.json'), join(home, '.cline/data/settings/cline_mcp_settings.json')]
    writeJson(files[0]!, R.globalState)
    writeJson(files[1]!, R.globalSettings)
    writeJson(files[2]!, R.mcp)
    fixMtime(...files)
    const rows = await rowsOf(home)
    expect(rows.map((r) => [r.timestampUtc, r.sessionId, r.text])).toEqual([
      ...[
        'autoApprovalSettings.enabled=true',
        'autoApprovalSettings.maxRequests=20',
        'autoApprovalSettings.actions.readFiles=true',
        'autoApprovalSettings.actions.editFiles=true',
        'autoApprovalSettings.actions.executeSafeCommands=false',
        'autoApprovalSettings.actions.executeAllCommands=true',
        'autoApprovalSettings.actions.useBrowser=true',
        'autoApprovalSettings.actions.useMcp=true',
        'mode=act',
      ].map((kv) => [MTIME, '', `permission setting: ${kv} (from .cline/data/globalState.json, file mtime)`]),
      ...['toolAutoApprove=false', 'planActMode=plan', 'disabledTools=browser_action', 'tools.web_fetch.enabled=false'].map((kv) => [
        MTIME, '', `permission setting: ${kv} (from .cline/data/settings/global-settings.json, file mtime)`,
      ]),
      ...['mcpServers.github.autoApprove=list_issues', 'mcpServers.github.disabled=false'].map((kv) => [
        MTIME, '', `permission setting: ${kv} (from .cline/data/settings/cline_mcp_settings.json, file mtime)`,
      ]),
      [MTIME, '', 'cloud task target: target=cloud repository_id=812345678 branch=main (from .cline/data/globalState.json, file mtime)'],
      [1760000100000, 'ses-01JCLOUDDONE', 'session origin: remote cline-cloud session ses-01JCLOUDDONE status completed (from .cline/data/globalState.json cloudSessionStatuses, observedAt)'],
      [1760000100000, 'ses-01JCLOUDDONE', 'session synced: cline-cloud holds session ses-01JCLOUDDONE, no local transcript (from .cline/data/globalState.json cloudSessionStatuses, observedAt)'],
    ])
  })

  it('a cloud-pending-starts record gives the origin and sync pair at the file mtime', async () => {
    const home = tempDir()
    const file = join(home, '.cline/data/cloud-pending-starts/4242-6f1c2a9e.json')
    writeJson(file, R.pending)
    fixMtime(file)
    const rows = await rowsOf(home)
    expect(rows.map((r) => [r.timestampUtc, r.sessionId, r.text])).toEqual([
      [MTIME, 'ses-01JCLOUDWAIT', 'session origin: remote cline-cloud session ses-01JCLOUDWAIT sandbox start pending account=user:usr_0f9e8d7c endpoint=https://api.cline.bot (from .cline/data/cloud-pending-starts/4242-6f1c2a9e.json, file mtime)'],
      [MTIME, 'ses-01JCLOUDWAIT', 'session synced: cline-cloud holds session ses-01JCLOUDWAIT, no local transcript (from .cline/data/cloud-pending-starts/4242-6f1c2a9e.json, file mtime)'],
    ])
  })

  it('the imported session record names its source on the start row, and the IR keeps it', async () => {
    const home = tempDir()
    const id = '1760000100000_imprt'
    writeJson(join(home, '.cline/data/sessions', id, `${id}.json`), R.imported)
    writeJson(join(home, '.cline/data/sessions', id, `${id}.messages.json`), { version: 1, sessionId: id, messages: [{ role: 'user', content: 'port the parser', ts: 1760000100000 }] })
    const rows = await rowsOf(home)
    expect(rows[0]!.text).toBe(
      'session start: imported_from=claude-code imported_session=5f0c1d2e-0000-4000-8000-00000000c1a0 imported_path=/home/u/.claude/projects/-home-u-proj/5f0c1d2e.jsonl imported_at=2026-10-03T09:20:00.000Z imported_provider=anthropic imported_model=claude-opus-4-5',
    )
    const layout = await layoutForHome({ home })
    const found = await cline.discover(layout, { now: () => 0 })
    const session = await cline.read(found.refs[0]!, { now: () => 0 })
    expect(session.title).toBe('port the parser')
    expect(session.metadata.importedFrom).toEqual(R.imported.metadata.importedFrom)
  })
})
