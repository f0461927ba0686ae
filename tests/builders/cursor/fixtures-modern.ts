/**
 * Fixture generator: a modern Cursor IDE store (2025–2026 builds, §A4): `composerData` with
 * `fullConversationHeadersOnly` + `bubbleId:` rows, the 3.15.6 `composerHeaders` table, the 3.0
 * `ItemTable['composer.composerHeaders']` list (truncated: it lists one composer), a stub workspace
 * `composer.composerData`, sub-composers and `task-<toolCallId>` sub-agent bubbles, and every
 * project-mapping rule of §A6 (incl. Windows `file:///c%3A/…` and `vscode-remote://` folders).
 * Composer A is the §A7 recipe. Tests only; see FIXTURES.md.
 */
import { join } from 'node:path'
import type { HomeOs } from '../../../src/shared/ir'
import { closeDb, createStateDb, cursorUserDir, headers, lexical, put, putBubbles, writeWorkspace } from './fixtures'

/** Composer ids of the modern store. */
export const MODERN = {
  A: '1f0c2a8e-6b7d-4e21-9a55-3c0d7e1b9a10',
  B: '2a7e3b9f-0c1d-4e2f-8a3b-4c5d6e7f8a90',
  C: '3b8f4c0a-1d2e-4f3a-9b4c-5d6e7f8a9b01',
  D: '4c9a5d1b-2e3f-4a4b-8c5d-6e7f8a9b0c12',
  E: '5d0b6e2c-3f4a-4b5c-9d6e-7f8a9b0c1d23',
  F: '6e1c7f3d-4a5b-4c6d-8e7f-8a9b0c1d2e34',
  G: '7f2d8a4e-5b6c-4d7e-9f8a-9b0c1d2e3f45',
  task: 'task-toolu_task1',
} as const

/** Workspace ids of the modern store. */
export const MODERN_WS = {
  linux: '4b9f0e2c6d1a48f3a0c2e7d95b1f3a66',
  windows: '7c2d9e0f1a2b43c4d5e6f708192a3b4c',
  remote: '9e1a2b3c4d5e46f7a8b9c0d1e2f3a4b5',
  multi: 'a0b1c2d3e4f5460718293a4b5c6d7e8f',
} as const

const T0 = 1764410400000 // 2025-11-29T10:00:00Z

function workspaces(userDir: string): void {
  writeWorkspace(userDir, MODERN_WS.linux, { folder: 'file:///home/ana/src/ledgerlite' })
  const ws = createStateDb(join(userDir, 'workspaceStorage', MODERN_WS.linux, 'state.vscdb'))
  // After Cursor 3.0 the workspace list is a stub without allComposers (§A5.4, §F11).
  put(ws, 'ItemTable', 'composer.composerData', { selectedComposerIds: [MODERN.A], lastFocusedComposerIds: [MODERN.E], hasMigratedComposerData: true })
  put(ws, 'ItemTable', 'aiService.prompts', [{ text: 'Make import.py skip blank rows', commandType: 4 }])
  closeDb(ws)
  writeWorkspace(userDir, MODERN_WS.windows, { folder: 'file:///c%3A/Users/ana/src/tidepool' })
  writeWorkspace(userDir, MODERN_WS.remote, { folder: 'vscode-remote://ssh-remote%2Bbuildbox/home/ana/src/api' })
  writeWorkspace(userDir, MODERN_WS.multi, { workspace: 'file:///home/ana/team.code-workspace' })
}

function composerA(db: ReturnType<typeof createStateDb>): void {
  const id = MODERN.A
  put(db, 'cursorDiskKV', `composerData:${id}`, {
    _v: 10, composerId: id, name: 'Tidy the CSV importer', createdAt: T0, lastUpdatedAt: T0 + 125000, status: 'completed',
    unifiedMode: 'agent', isAgentic: true, text: '', richText: '', hasLoaded: true,
    modelConfig: { modelName: 'default', maxMode: false },
    workspaceIdentifier: { id: MODERN_WS.linux, uri: { $mid: 1, fsPath: '/home/ana/src/ledgerlite', external: 'file:///home/ana/src/ledgerlite', path: '/home/ana/src/ledgerlite', scheme: 'file' } },
    fullConversationHeadersOnly: headers([
      ['aa000000-0000-4000-8000-000000000001', 1],
      ['aa000000-0000-4000-8000-000000000002', 2, { serverBubbleId: 'ee000000-0000-4000-8000-000000000002' }],
      ['aa000000-0000-4000-8000-000000000003', 2],
      ['aa000000-0000-4000-8000-000000000004', 2],
    ]),
    conversationMap: {}, contextTokensUsed: 18250, contextTokenLimit: 200000, contextUsagePercent: 9.1,
    blobEncryptionKey: 'c2VjcmV0LWtleS1ub3QtcmVhbA==', originalFileStates: { 'file:///home/ana/src/ledgerlite/import.py': { content: 'x' } },
  })
  putBubbles(db, id, [
    { type: 1, bubbleId: 'aa000000-0000-4000-8000-000000000001', text: 'Make import.py skip blank rows', richText: lexical('Make import.py skip blank rows'), createdAt: '2025-11-29T10:00:05.120Z', tokenCount: { inputTokens: 0, outputTokens: 0 }, isAgentic: true, unifiedMode: 2 },
    { type: 2, bubbleId: 'aa000000-0000-4000-8000-000000000002', text: '', thinking: { text: 'The loop should continue on empty lines.', signature: 'sig-aa02' }, thinkingDurationMs: 900, modelInfo: { modelName: 'claude-4.5-sonnet' }, createdAt: '2025-11-29T10:00:07.000Z', requestId: 'req-aa-1' },
    { type: 2, bubbleId: 'aa000000-0000-4000-8000-000000000003', text: '', capabilityType: 15, createdAt: '2025-11-29T10:00:09.000Z',
      toolFormerData: { tool: 7, name: 'edit_file', toolCallId: 'toolu_01Ab', status: 'completed', rawArgs: '{"target_file":"import.py","instructions":"skip blanks"}', result: '{"diff":{}}', userDecision: 'accepted' } },
    { type: 2, bubbleId: 'aa000000-0000-4000-8000-000000000004', text: 'Done - blank rows are skipped now.', createdAt: '2025-11-29T10:00:12.000Z', tokenCount: { inputTokens: 18120, outputTokens: 130 } },
    // Not in the headers: an edit leftover (must not show) and a NULL orphan (must not crash).
    { type: 1, bubbleId: 'aa000000-0000-4000-8000-000000000005', text: 'Make import.py skip blank rows (first draft)', createdAt: '2025-11-29T10:00:01.000Z' },
  ])
  put(db, 'cursorDiskKV', `bubbleId:${id}:aa000000-0000-4000-8000-000000000006`, null)
  put(db, 'cursorDiskKV', `checkpointId:${id}:c0000000-0000-4000-8000-000000000001`, { files: [], nonExistentFiles: [] })
  put(db, 'cursorDiskKV', `codeBlockDiff:${id}:d0000000-0000-4000-8000-000000000001`, { newModelDiffWrtV0: [], originalModelDiffWrtV0: [] })
}

function composerB(db: ReturnType<typeof createStateDb>): void {
  const id = MODERN.B
  put(db, 'cursorDiskKV', `composerData:${id}`, {
    _v: 17, composerId: id, name: 'Run the test suite', createdAt: T0 + 3600000, lastUpdatedAt: T0 + 3700000, status: 'completed', unifiedMode: 'agent',
    fullConversationHeadersOnly: headers([
      ['bb000000-0000-4000-8000-000000000001', 1, { createdAt: '2026-03-14T09:26:53.589Z' }],
      ['bb000000-0000-4000-8000-000000000002', 2, { createdAt: '2026-03-14T09:26:58.000Z' }],
      ['bb000000-0000-4000-8000-000000000003', 2, { createdAt: '2026-03-14T09:27:03.000Z' }],
    ]),
  })
  putBubbles(db, id, [
    { type: 1, bubbleId: 'bb000000-0000-4000-8000-000000000001', text: '', richText: lexical('Run npm test and tell me what fails') },
    { type: 2, bubbleId: 'bb000000-0000-4000-8000-000000000002', text: '', capabilityType: 15,
      toolFormerData: { tool: 15, name: 'run_terminal_cmd', toolCallId: 'call_b1\nfc_b1', status: 'completed', userDecision: 'accepted',
        rawArgs: '{"command":"npm test","is_background":false}', params: '{"command":"npm test","requireUserApproval":true}', result: '{"output":"3 passing","exitCodeV2":0}' } },
    { type: 2, bubbleId: 'bb000000-0000-4000-8000-000000000003', text: 'All 3 tests pass.', tokenCount: { inputTokens: 0, outputTokens: 0 } },
  ])
}

function composerC(db: ReturnType<typeof createStateDb>): void {
  const id = MODERN.C
  put(db, 'cursorDiskKV', `composerData:${id}`, {
    _v: 16, composerId: id, name: 'Rename the handler', createdAt: 1751360000000, lastUpdatedAt: 1751360090000, status: 'aborted',
    fullConversationHeadersOnly: headers([
      ['cc000000-0000-4000-8000-000000000001', 1], ['cc000000-0000-4000-8000-000000000002', 2], ['cc000000-0000-4000-8000-000000000003', 2],
      ['cc000000-0000-4000-8000-000000000004', 2], ['cc000000-0000-4000-8000-000000000005', 2],
    ]),
  })
  // Before Sep 2025: no createdAt; assistant bubbles carry timingInfo (clientStartTime is process-relative, §F5).
  putBubbles(db, id, [
    { type: 1, bubbleId: 'cc000000-0000-4000-8000-000000000001', text: 'Rename handle() to onRequest() everywhere' },
    { type: 2, bubbleId: 'cc000000-0000-4000-8000-000000000002', text: '', timingInfo: { clientStartTime: 62550.5, clientRpcSendTime: 1751360005000, clientSettleTime: 1751360009000, clientEndTime: 1751360009000 },
      toolFormerData: { name: 'search_replace', toolCallId: 'toolu_c_rej', status: 'cancelled', userDecision: 'rejected', rawArgs: '{"file_path":"/home/ana/src/api/server.ts","old_string":"handle(","new_string":"onRequest("}', result: '{"rejected":true}' } },
    { type: 2, bubbleId: 'cc000000-0000-4000-8000-000000000003', text: '', timingInfo: { clientStartTime: 62551.0 },
      toolFormerData: { name: 'run_terminal_cmd', toolCallId: 'toolu_c_err', status: 'error', rawArgs: '', params: '{"command":"npm test"}' } },
    { type: 2, bubbleId: 'cc000000-0000-4000-8000-000000000004', text: '', timingInfo: { clientRpcSendTime: '1751360020000' },
      toolFormerData: { name: 'read_file', toolCallId: 'toolu_c_bad', status: 'completed', rawArgs: '{"target_file": "src/server.ts"', result: 'export function handle() {}' } },
    { type: 2, bubbleId: 'cc000000-0000-4000-8000-000000000005', text: 'I stopped: the edit was rejected.', codeBlocks: 3 },
  ])
}

function composersDEFG(db: ReturnType<typeof createStateDb>): void {
  put(db, 'cursorDiskKV', `composerData:${MODERN.D}`, {
    _v: 17, composerId: MODERN.D, name: 'Scratch question', createdAt: T0 + 7200000, status: 'completed', modelConfig: { modelName: 'gpt-5', maxMode: true },
    workspaceIdentifier: { id: 'empty-window' },
    fullConversationHeadersOnly: headers([['dd000000-0000-4000-8000-000000000001', 1], ['dd000000-0000-4000-8000-000000000002', 2]]),
  })
  putBubbles(db, MODERN.D, [
    { type: 1, bubbleId: 'dd000000-0000-4000-8000-000000000001', text: 'What does EPIPE mean?', createdAt: T0 + 7201000 },
    { type: 2, bubbleId: 'dd000000-0000-4000-8000-000000000002', text: 'The reader closed the pipe before the writer finished.', createdAt: T0 + 7203000 },
  ])
  put(db, 'cursorDiskKV', `composerData:${MODERN.E}`, {
    _v: 17, composerId: MODERN.E, name: 'Find the callers', createdAt: T0 + 9000000, status: 'completed', subComposerIds: [MODERN.F],
    fullConversationHeadersOnly: headers([['ee100000-0000-4000-8000-000000000001', 1], ['ee100000-0000-4000-8000-000000000002', 2], ['ee100000-0000-4000-8000-000000000003', 2]]),
  })
  putBubbles(db, MODERN.E, [
    { type: 1, bubbleId: 'ee100000-0000-4000-8000-000000000001', text: 'Who calls parse_row?', createdAt: '2025-11-29T12:30:01.000Z' },
    { type: 2, bubbleId: 'ee100000-0000-4000-8000-000000000002', text: '', createdAt: '2025-11-29T12:30:03.000Z',
      toolFormerData: { tool: 48, name: 'task_v2', toolCallId: 'toolu_task1', status: 'completed', params: { description: 'find callers', prompt: 'List every caller of parse_row', name: 'explore' }, result: '{"result":"{\\"output\\":\\"found 3 callers\\"}"}' } },
    { type: 2, bubbleId: 'ee100000-0000-4000-8000-000000000003', text: 'parse_row has 3 callers.', createdAt: '2025-11-29T12:31:00.000Z' },
  ])
  // The task_v2 child conversation: bubbles keyed by task-<toolCallId>, no composerData row.
  put(db, 'cursorDiskKV', `bubbleId:${MODERN.task}:ab000000-0000-4000-8000-000000000002`, { _v: 3, type: 2, bubbleId: 'ab000000-0000-4000-8000-000000000002', text: 'Found 3 callers in importer.py.', createdAt: '2025-11-29T12:30:50.000Z' })
  put(db, 'cursorDiskKV', `bubbleId:${MODERN.task}:ab000000-0000-4000-8000-000000000001`, { _v: 3, type: 1, bubbleId: 'ab000000-0000-4000-8000-000000000001', text: 'List every caller of parse_row', createdAt: '2025-11-29T12:30:04.000Z' })
  put(db, 'cursorDiskKV', `composerData:${MODERN.F}`, {
    _v: 17, composerId: MODERN.F, name: 'Sub-agent: check tests', createdAt: T0 + 9100000,
    fullConversationHeadersOnly: headers([['ff000000-0000-4000-8000-000000000001', 1], ['ff000000-0000-4000-8000-000000000002', 2]]),
  })
  putBubbles(db, MODERN.F, [
    { type: 1, bubbleId: 'ff000000-0000-4000-8000-000000000001', text: 'Check the tests of parse_row', createdAt: T0 + 9101000 },
    { type: 2, bubbleId: 'ff000000-0000-4000-8000-000000000002', text: 'They cover blank rows.', createdAt: T0 + 9102000 },
  ])
  put(db, 'cursorDiskKV', `composerData:${MODERN.G}`, {
    _v: 3, composerId: MODERN.G, createdAt: T0 + 10000000,
    fullConversationHeadersOnly: headers([['ab100000-0000-4000-8000-000000000001', 1]]),
  })
  putBubbles(db, MODERN.G, [{ type: 1, bubbleId: 'ab100000-0000-4000-8000-000000000001', text: 'Sketch a README', createdAt: T0 + 10001000 }])
  put(db, 'cursorDiskKV', `messageRequestContext:${MODERN.G}:m1`, { projectLayouts: [JSON.stringify({ rootPath: '/home/ana/src/scratch', files: [] })], terminalFiles: [] })
  put(db, 'cursorDiskKV', 'composerData:empty-state-draft', { _v: 17, composerId: 'empty-state-draft', fullConversationHeadersOnly: [], status: 'none', text: '' })
  put(db, 'cursorDiskKV', 'agentKv:blob:00ff', Buffer.from([0x0a, 0x20, 0x01, 0x02]))
}

function headersIndex(db: ReturnType<typeof createStateDb>): void {
  db.exec(`CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, isArchived INTEGER,
    isSubagent INTEGER, recency INTEGER, checkpointAt INTEGER, value TEXT)`)
  const row = db.prepare('INSERT INTO composerHeaders VALUES (?, ?, ?, ?, 0, ?, ?, NULL, ?)')
  row.run(MODERN.C, MODERN_WS.remote, 1751360000000, 1751360090000, 0, 1, JSON.stringify({ type: 'head', composerId: MODERN.C, name: 'Rename the handler' }))
  row.run(MODERN.F, null, T0 + 9100000, T0 + 9102000, 1, 2, JSON.stringify({ type: 'head', composerId: MODERN.F, subagentInfo: { parentComposerId: MODERN.E } }))
  put(db, 'ItemTable', 'composer.composerHeaders', {
    allComposers: [{ type: 'head', composerId: MODERN.B, name: 'Run the test suite',
      workspaceIdentifier: { id: MODERN_WS.windows, uri: { $mid: 1, fsPath: 'c:\\Users\\ana\\src\\tidepool', _sep: 1, external: 'file:///c%3A/Users/ana/src/tidepool', path: '/c:/Users/ana/src/tidepool', scheme: 'file' } } }],
  })
  put(db, 'ItemTable', 'composer.composerHeaders.tableGateEnabled', 'true')
  put(db, 'cursorDiskKV', 'composer.composerHeaders.migratedToTable', '1')
}

/** Write the modern store into `home` (layout of `os`); returns the global database path. */
export function writeModernStore(home: string, os: HomeOs = 'linux'): string {
  const userDir = cursorUserDir(home, os)
  workspaces(userDir)
  const path = join(userDir, 'globalStorage', 'state.vscdb')
  const db = createStateDb(path)
  composerA(db)
  composerB(db)
  composerC(db)
  composersDEFG(db)
  headersIndex(db)
  closeDb(db)
  return path
}
