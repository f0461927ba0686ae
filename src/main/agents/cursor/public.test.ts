/**
 * The public Cursor IDE samples (fixtures/public/cursor, SOURCES.md): workspace `ItemTable` dumps,
 * loaded into a real workspace `state.vscdb` the way Cursor stores them, then read.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, expectGolden } from '../../../../tests/helpers/golden'
import { closeCursorSnapshots, cursor } from './index'
import { closeDb, createStateDb, cursorUserDir, headers, put, putBubbles, tempHome, writeWorkspace } from '../../../../tests/builders/cursor/fixtures'
import { readGenerated, withoutHome } from '../../../../tests/builders/cursor/testing'

const PUBLIC = join(REPO_ROOT, 'fixtures', 'public', 'cursor')
const cleanups: (() => void)[] = []
afterAll(() => {
  closeCursorSnapshots()
  for (const c of cleanups) c()
})

/** A home whose one workspace `ItemTable` holds the dump's keys (string values verbatim). */
function homeFromDump(file: string, folder?: string): string {
  const t = tempHome()
  cleanups.push(t.cleanup)
  const userDir = cursorUserDir(t.home)
  writeWorkspace(userDir, 'ws0000000000000000000000000000001', folder ? { folder } : undefined)
  const db = createStateDb(join(userDir, 'workspaceStorage', 'ws0000000000000000000000000000001', 'state.vscdb'))
  const dump = JSON.parse(readFileSync(join(PUBLIC, file), 'utf8')) as Record<string, unknown>
  for (const [k, v] of Object.entries(dump)) put(db, 'ItemTable', k, v)
  closeDb(db)
  closeDb(createStateDb(join(userDir, 'globalStorage', 'state.vscdb')))
  return t.home
}

describe('cursor: public samples', () => {
  it('luoyuctl/agenttrace cursor-composer-messages.json: conversation.messages with text and content[] variants', async () => {
    const home = homeFromDump('luoyuctl__agenttrace__cursor-composer-messages.json', 'file:///home/ana/src/auth')
    const r = await readGenerated(cursor, home)
    expectGolden('cursor/public-composer-messages', withoutHome(r.sessions, home))
    const s = r.byId('cmp-1')
    expect(s.source.format).toBe('cursor-workspace-composer')
    expect(s.title).toBe('Auth cleanup')
    expect(s.workingDirectory).toBe('/home/ana/src/auth')
    expect(s.lastActivityAt).toBe(1710000060000)
    expect(s.nodes.map((n) => [n.role, n.content, n.createdAt])).toEqual([
      ['user', 'Refactor the auth flow', Date.parse('2026-05-03T10:00:00Z')],
      ['assistant', 'Updated the login component.\n\nAdded focused tests.', Date.parse('2026-05-03T10:01:00Z')],
    ])
  })

  it('luoyuctl/agenttrace cursor-json-string-values.json: double-encoded lists give membership, not sessions', async () => {
    const home = homeFromDump('luoyuctl__agenttrace__cursor-json-string-values.json', 'file:///home/ana/src/auth')
    let r = await readGenerated(cursor, home)
    expect(r.sessions).toEqual([])
    expect(r.discovery).toEqual([])
    const g = createStateDb(join(cursorUserDir(home), 'globalStorage', 'state.vscdb'))
    put(g, 'cursorDiskKV', 'composerData:cmp-1', { _v: 10, composerId: 'cmp-1', fullConversationHeadersOnly: headers([['b1', 1]]) })
    putBubbles(g, 'cmp-1', [{ type: 1, bubbleId: 'b1', text: 'Refactor the auth flow' }])
    closeDb(g)
    r = await readGenerated(cursor, home)
    expect(r.byId('cmp-1').workingDirectory).toBe('/home/ana/src/auth')
    expect(r.byId('cmp-1').metadata.project).toMatchObject({ via: 'workspace membership' })
  })
})
