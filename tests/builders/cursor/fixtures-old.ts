/**
 * Fixture generators for the older Cursor IDE generations (§A4): the v0.43 global composers with
 * an inline `conversation[]` (no `_v`, no headers), and the ≤ v0.42 workspace `ItemTable` chat
 * data (`workbench.panel.aichat.view.aichat.chatdata` tabs, `…chat.view.chat.chatdata` with
 * `chatSessions`, and `composer.composerData.allComposers[]` with inline conversations).
 * Tests only; see FIXTURES.md.
 */
import { join } from 'node:path'
import type { HomeOs } from '../../../src/shared/ir'
import { closeDb, createStateDb, cursorUserDir, lexical, put, writeWorkspace } from './fixtures'
import { writeModernStore } from './fixtures-modern'

/** Ids of the inline and legacy stores. */
export const OLD = {
  inline1: '0a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9',
  inline2: '1b2c3d4e-5f60-4172-9384-a5b6c7d8e9f0',
  ws: '5e6f708192a3b4c5d6e7f8091a2b3c4d',
  legacyWs: '0c1d2e3f4a5b4c6d7e8f9a0b1c2d3e4f',
  tab1: '7c1e0000-0000-4000-8000-00000000a001',
  tab2: '7c1e0000-0000-4000-8000-00000000a002',
  tab3: '7c1e0000-0000-4000-8000-00000000a003',
  wsComposer: '8d2f0000-0000-4000-8000-00000000b001',
} as const

/** v0.43 (late 2024): global composers with inline bubbles; the workspace lists them (membership). */
export function writeInlineStore(home: string, os: HomeOs = 'linux'): string {
  const userDir = cursorUserDir(home, os)
  writeWorkspace(userDir, OLD.ws, { folder: 'file:///home/ana/src/ledgerlite' })
  const ws = createStateDb(join(userDir, 'workspaceStorage', OLD.ws, 'state.vscdb'))
  put(ws, 'ItemTable', 'composer.composerData', {
    allComposers: [
      { type: 'head', composerId: OLD.inline1, name: 'Add a CSV export', createdAt: 1733000000000, lastUpdatedAt: 1733000300000, unifiedMode: 'edit' },
      { type: 'head', composerId: OLD.inline2, createdAt: 1733100000000 },
    ],
    selectedComposerId: OLD.inline1, composerDataVersion: 1,
  })
  closeDb(ws)
  const path = join(userDir, 'globalStorage', 'state.vscdb')
  const db = createStateDb(path)
  put(db, 'cursorDiskKV', `composerData:${OLD.inline1}`, {
    composerId: OLD.inline1, name: 'Add a CSV export', createdAt: 1733000000000, lastUpdatedAt: 1733000300000, status: 'completed', conversationMap: {},
    conversation: [
      { type: 1, bubbleId: 'a1000000-0000-4000-8000-000000000001', text: 'Add an export_csv() to report.py', richText: lexical('Add an export_csv() to report.py') },
      { type: 2, bubbleId: 'a1000000-0000-4000-8000-000000000002', text: '', codeBlocks: [{ content: 'def export_csv(rows):\n    ...', languageId: 'python', codeBlockIdx: 0 }] },
      { type: 2, bubbleId: 'a1000000-0000-4000-8000-000000000003', text: 'Added export_csv().', suggestedCodeBlocks: [] },
    ],
  })
  put(db, 'cursorDiskKV', `composerData:${OLD.inline2}`, {
    composerId: OLD.inline2, createdAt: 1733100000000, conversation: [
      { type: 1, bubbleId: 'a2000000-0000-4000-8000-000000000001', text: 'Why is the build slow?' },
      { type: 2, bubbleId: 'a2000000-0000-4000-8000-000000000002', text: 'Type checking runs twice.', timingInfo: { clientStartTime: 1200.5, clientRpcSendTime: 1733100004000 } },
    ],
  })
  closeDb(db)
  return path
}

/** ≤ v0.42: chats in the workspace `ItemTable` only (chat pane tabs and inline workspace composers). */
export function writeLegacyStore(home: string, os: HomeOs = 'linux'): string {
  const userDir = cursorUserDir(home, os)
  writeWorkspace(userDir, OLD.legacyWs, { folder: 'file:///home/ana/src/dateparse' })
  const path = join(userDir, 'workspaceStorage', OLD.legacyWs, 'state.vscdb')
  const ws = createStateDb(path, false)
  put(ws, 'ItemTable', 'workbench.panel.aichat.view.aichat.chatdata', {
    tabs: [
      { tabId: OLD.tab1, chatTitle: 'Fix flaky date parser', lastSendTime: 1719830000000, bubbles: [
        { type: 'user', id: 'u-1', text: 'why does parse() drop the tz?', selections: [{ text: 'const d = parse(s)' }] },
        { type: 'ai', id: 'a-1', rawText: 'Because `parse` calls `new Date(s)` without an offset.', text: 'Because `parse` calls `new Date(s)` without an offset.', modelType: 'gpt-4o', codeBlocks: [] },
      ] },
      { tabId: OLD.tab2, chatTitle: '', lastSendTime: 1719830600000, bubbles: [
        { type: 'user', id: 'u-2', text: '', initText: lexical('explain the regex in tz.js'), delegate: { a: 'explain the regex in tz.js' } },
        { type: 'ai', id: 'a-2', rawText: 'It matches an optional +HH:MM suffix.', modelType: 'gpt-4o' },
      ] },
      { tabId: 'empty-tab', chatTitle: 'New chat', bubbles: [] },
    ],
  })
  put(ws, 'ItemTable', 'workbench.panel.chat.view.chat.chatdata', {
    chatSessions: [{ id: OLD.tab3, title: 'Old chat view', lastUpdatedAt: 1719000000000, messages: [
      { type: 'user', text: 'list the exported functions' }, { type: 'ai', text: 'parse, format, tz' },
    ] }],
  })
  // Double-encoded: the value is a JSON string holding the JSON (fixtures/public/cursor/…json-string-values.json).
  put(ws, 'ItemTable', 'composer.composerData', JSON.stringify(JSON.stringify({
    allComposers: [{ composerId: OLD.wsComposer, name: 'Refactor tz handling', createdAt: 1719840000000, lastUpdatedAt: 1719840500000, status: 'completed',
      conversation: [
        { type: 1, bubbleId: 'w1', text: 'Move tz parsing into tz.js' },
        { type: 2, bubbleId: 'w2', text: 'Moved; parse() now imports parseTz().', modelInfo: { modelName: 'claude-3.5-sonnet' } },
      ] }],
    selectedComposerId: OLD.wsComposer,
  })))
  put(ws, 'ItemTable', 'aiService.generations', [{ unixMs: 1719840500000, generationUUID: 'gen-1', type: 'composer', textDescription: 'Moved tz parsing' }])
  closeDb(ws)
  const g = createStateDb(join(userDir, 'globalStorage', 'state.vscdb'))
  closeDb(g)
  return path
}

/**
 * Every positive Cursor IDE generation in one home (modern + inline + legacy share the global
 * database and sit in separate workspaces): 14 sessions. For conformance suites and demos.
 */
export function writeCursorHome(home: string, os: HomeOs = 'linux'): void {
  writeModernStore(home, os)
  writeInlineStore(home, os)
  writeLegacyStore(home, os)
}
