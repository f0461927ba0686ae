/**
 * Fixture generator: the Cursor IDE negative cases of shared/formats/cursor-devin-atif-acp.md
 * §F1–§F3, §F6, §F9, §F11, §F16 in one store: NULL, BLOB (JSON bytes and binary), non-JSON and
 * Python-literal values; a header naming no bubble; orphan bubbles; a NULL and a non-JSON
 * composer row; an unsent draft; a workspace with a stub composer list and no `workspace.json`, one
 * whose `workspace.json` is not JSON; an unreadable `composer.composerHeaders` value.
 * Tests only; see FIXTURES.md.
 */
import { join } from 'node:path'
import { closeDb, createStateDb, cursorUserDir, headers, put, putBubbles, writeWorkspace } from './fixtures'

/** Ids of the negative store. */
export const NEG = {
  main: '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d',
  blobComposer: '9b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e',
  nullComposer: '9c2d3e4f-5a6b-4c7d-8e8f-9a0b1c2d3e4f',
  badComposer: '9d3e4f5a-6b7c-4d8e-9f9a-0b1c2d3e4f5a',
  draft: '9e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b',
  stubWs: 'f00d0000000000000000000000000001',
  badJsonWs: 'f00d0000000000000000000000000002',
} as const

const B = (n: number) => `9a000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/** Write the negative store into a linux-layout `home`; returns the global database path. */
export function writeNegativeStore(home: string): string {
  const userDir = cursorUserDir(home)
  writeWorkspace(userDir, NEG.stubWs, undefined)
  const ws = createStateDb(join(userDir, 'workspaceStorage', NEG.stubWs, 'state.vscdb'))
  put(ws, 'ItemTable', 'composer.composerData', { selectedComposerIds: [NEG.main], hasMigratedComposerData: true })
  closeDb(ws)
  writeWorkspace(userDir, NEG.badJsonWs, '{"folder": "file:///home/ana/src/bro')
  const path = join(userDir, 'globalStorage', 'state.vscdb')
  const db = createStateDb(path)
  put(db, 'cursorDiskKV', `composerData:${NEG.main}`, {
    _v: 17, composerId: NEG.main, name: 'Messy rows', createdAt: 1767000000000, status: 'completed',
    speculativeSummarizationEncryptionKey: 'bm90LWEtcmVhbC1rZXk=',
    fullConversationHeadersOnly: headers([
      [B(1), 1], [B(2), 2], [B(3), 2], [B(4), 2], [B(5), 2], [B(6), 2], [B(7), 2], [B(8), 1], [B(9), 2],
    ]),
  })
  putBubbles(db, NEG.main, [
    { type: 1, bubbleId: B(1), text: 'Clean up the rows', createdAt: 1767000001000 },
    { type: 2, bubbleId: B(9), text: 'Cleaned.', createdAt: 1767000009000, tokenCount: { inputTokens: 0, outputTokens: 0 } },
    { type: 2, bubbleId: B(10), text: 'orphan one', createdAt: 1767000002000 },
    { type: 2, bubbleId: B(11), text: 'orphan two', createdAt: 1767000003000 },
  ])
  put(db, 'cursorDiskKV', `bubbleId:${NEG.main}:${B(2)}`, null)
  // B(3): header names no row.
  put(db, 'cursorDiskKV', `bubbleId:${NEG.main}:${B(4)}`, Buffer.from(JSON.stringify({ _v: 2, type: 2, bubbleId: B(4), text: 'Stored as a BLOB.', createdAt: 1767000004000 }), 'utf8'))
  put(db, 'cursorDiskKV', `bubbleId:${NEG.main}:${B(5)}`, Buffer.from([0x0a, 0x20, 0xff, 0xfe, 0x00, 0x01]))
  put(db, 'cursorDiskKV', `bubbleId:${NEG.main}:${B(6)}`, '{"_v":2,"type":2,"bubbleId":"cut')
  put(db, 'cursorDiskKV', `bubbleId:${NEG.main}:${B(7)}`, `{'_v': 2, 'type': 2, 'bubbleId': '${B(7)}', 'text': 'Python-literal bubble', 'isAgentic': True, 'thinking': None}`)
  put(db, 'cursorDiskKV', `bubbleId:${NEG.main}:${B(8)}`, { _v: 2, type: 1, bubbleId: B(8), text: '', richText: '' })
  put(db, 'cursorDiskKV', `composerData:${NEG.blobComposer}`, Buffer.from(JSON.stringify({
    composerId: NEG.blobComposer, name: 'Composer stored as BLOB', createdAt: 1767100000000,
    conversation: [{ type: 1, bubbleId: 'x1', text: 'hello from a blob' }, { type: 2, bubbleId: 'x2', text: 'hi' }],
  }), 'utf8'))
  put(db, 'cursorDiskKV', `composerData:${NEG.nullComposer}`, null)
  put(db, 'cursorDiskKV', `composerData:${NEG.badComposer}`, 'not json at all')
  put(db, 'cursorDiskKV', `composerData:${NEG.draft}`, { _v: 17, composerId: NEG.draft, fullConversationHeadersOnly: [], status: 'none', text: 'half-typed' })
  put(db, 'ItemTable', 'composer.composerHeaders', '{"allComposers": [')
  closeDb(db)
  return path
}
