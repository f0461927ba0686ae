/**
 * Devin reader: the store is never changed, a live WAL store is read, older schemas and other
 * layouts load, and each broken shape is a diagnostic while the rest loads.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { expectGolden } from '../../../../tests/helpers/golden'
import { closeDevinDbs } from './db'
import { storeDir, writeSessionsDb, writeTranscript } from '../../../../tests/builders/devin/fixtures'
import { writeMainHome, writeOldHome, writeWalHome, writeWindowsHome } from '../../../../tests/builders/devin/fixtures-homes'
import { assistant, system, T0, user } from '../../../../tests/builders/devin/fixtures-messages'
import { lostLanternAtif } from '../../../../tests/builders/devin/fixtures-homes'
import { CTX, fingerprint, readHome, stable, tempHome } from '../../../../tests/builders/devin/testing'
import { devin } from './index'

const homes: string[] = []
function home(): string {
  const h = tempHome()
  homes.push(h)
  return h
}
afterAll(() => {
  closeDevinDbs()
  for (const h of homes) rmSync(h, { recursive: true, force: true })
})

describe('devin: sources stay untouched', () => {
  it.each([
    ['main', writeMainHome],
    ['wal', writeWalHome],
    ['old', writeOldHome],
  ])('reading the %s home changes no byte and creates no file', async (_name, write) => {
    const h = home()
    write(h)
    const before = fingerprint(h)
    const r = await readHome(h)
    await readHome(h)
    closeDevinDbs()
    expect(r.sessions.length).toBeGreaterThan(0)
    expect(fingerprint(h)).toEqual(before)
    expect(Object.keys(fingerprint(h)).filter((f) => /-(journal|wal|shm)$/.test(f))).toEqual(Object.keys(before).filter((f) => /-(journal|wal|shm)$/.test(f)))
  })
})

describe('devin: store shapes', () => {
  it('a live store whose rows are only in sessions.db-wal is read in full', async () => {
    const h = home()
    writeWalHome(h)
    expect(statSync(join(storeDir(h), 'sessions.db-wal')).size).toBeGreaterThan(0)
    const r = await readHome(h)
    const s = r.byId('amber-falcon')
    expect(s.metadata.mainThread).toEqual(['10', '11', '12', '13', '14', '16', '17'])
    expect(s.diagnostics).toEqual([])
    // A copied live store may lack -shm: still read, and none is created next to the source.
    rmSync(join(storeDir(h), 'sessions.db-shm'))
    closeDevinDbs()
    expect((await readHome(h)).byId('amber-falcon').nodes).toHaveLength(11)
    expect(existsSync(join(storeDir(h), 'sessions.db-shm'))).toBe(false)
  })

  it('an older schema (no main_chain_id, no metadata columns, no tool_call_state/subagent_heads) loads', async () => {
    const h = home()
    writeOldHome(h)
    const r = await readHome(h)
    const s = r.byId('old-oak')
    expectGolden('devin/old-oak', stable(s, h))
    expect(s.metadata.schemaVersion).toBe(6)
    expect(s.metadata.mainChainFallback).toBe('absent')
    expect(s.metadata.mainThread).toEqual(['1', '3', '4'])
    expect(s.nodes.find((n) => n.nodeId === '2')).toMatchObject({ parentNodeId: '1', metadata: { branch: true } })
    // Without is_user_input anywhere, every user row is a prompt.
    expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual(['list the files', 'thanks'])
    expect([s.model, s.workingDirectory, s.createdAt]).toEqual(['swe-1-5', '/home/ana/src/legacy', (T0 - 86400) * 1000])
    expect(s.promptHistory).toEqual(['list the files'])
    expect(s.diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['info', 'sessions has no main_chain_id column (older schema); the transcript ends at the newest node (node_id 4)'],
    ])
  })

  it('a copied Windows profile is found under AppData/Local/devin/cli', async () => {
    const h = home()
    writeWindowsHome(h)
    const r = await readHome(h, 'win32')
    expect(r.refs.map((x) => x.sessionId)).toEqual(['still-river'])
    expect(r.refs[0]!.files[0]).toBe(join(h, 'AppData', 'Local', 'devin', 'cli', 'sessions.db'))
    expect(r.byId('still-river').nodes.map((n) => n.content)).toEqual(['hello', ''])
    expect((await readHome(h, 'linux')).refs).toEqual([])
  })
})

describe('devin: broken shapes are diagnostics, the rest loads', () => {
  it('a sessions.db that is not a database: discovery reports it and the transcript-only session still loads', async () => {
    const h = home()
    mkdirSync(storeDir(h), { recursive: true })
    writeFileSync(join(storeDir(h), 'sessions.db'), 'this is not sqlite')
    writeTranscript(join(storeDir(h), 'transcripts', 'lost-lantern.json'), lostLanternAtif())
    const r = await readHome(h)
    expect(r.diagnostics.map((d) => [d.severity, d.path.endsWith('sessions.db')])).toEqual([['error', true]])
    expect(r.sessions.map((s) => [s.id, s.nodes.length])).toEqual([['lost-lantern', 4]])
  })

  it('a database gone between discovery and read rejects with READ_FAILED', async () => {
    const h = home()
    writeMainHome(h)
    const layoutRefs = (await readHome(h)).refs
    closeDevinDbs()
    rmSync(join(storeDir(h), 'sessions.db'))
    await expect(devin.read(layoutRefs[0]!, CTX)).rejects.toMatchObject({ code: 'READ_FAILED' })
  })

  it('a cycle, a missing main_chain_id node, a BLOB chat_message and bad tool_call_state JSON', async () => {
    const h = home()
    const row = { working_directory: '/w', backend_type: 'windsurf', model: 'swe-2-high', agent_mode: 'normal', created_at: T0, last_activity_at: T0 + 10, hidden: 0 }
    writeSessionsDb(join(storeDir(h), 'sessions.db'), [
      {
        row: { ...row, id: 'loop', main_chain_id: 3 },
        nodes: [
          { node: 1, parent: 3, chat: user('l-u', 'go round', 1), at: T0 + 1 },
          { node: 2, parent: 1, chat: assistant('l-a', 'round', { at: 2 }), at: T0 + 2 },
          { node: 3, parent: 2, chat: assistant('l-b', 'and round', { at: 3 }), at: T0 + 3 },
        ],
        toolStates: [{ id: 'x#1', call: null, update: null }],
      },
      {
        row: { ...row, id: 'lost-head', main_chain_id: 77 },
        nodes: [
          { node: 1, parent: null, chat: system('h-s', 'sys'), at: T0 },
          { node: 2, parent: 1, chat: user('h-u', 'still here', 2), at: T0 + 2 },
        ],
      },
    ], { schema: 'v17' })
    // Store one chat_message as a BLOB and one tool_call_state cell as broken JSON (documented cell variants).
    const Database = (await import('better-sqlite3')).default
    const db = new Database(join(storeDir(h), 'sessions.db'))
    db.prepare('UPDATE message_nodes SET chat_message = CAST(chat_message AS BLOB) WHERE session_id = ? AND node_id = 2').run('lost-head')
    db.prepare("UPDATE tool_call_state SET tool_call_update_json = '{oops' WHERE session_id = 'loop'").run()
    db.close()
    const r = await readHome(h)
    const loop = r.byId('loop')
    expect(loop.metadata.mainThread).toEqual(['1', '2', '3'])
    expect(loop.nodes.map((n) => n.parentNodeId)).toEqual([undefined, '1', '2'])
    expect(loop.diagnostics.map((d) => d.message)).toEqual([
      'tool_call_state tool_call_id x#1: tool_call_update_json is not valid JSON (invalid JSON at character 1); ignored',
      'message_nodes parent links form a cycle; the chain stops at node_id 1',
    ])
    const lost = r.byId('lost-head')
    expect(lost.diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['warning', 'sessions.main_chain_id 77 names no message_nodes row; the newest node (node_id 2) is used'],
    ])
    expect(lost.nodes.map((n) => n.content)).toEqual(['sys', 'still here'])
    expect(existsSync(join(storeDir(h), 'sessions.db-wal'))).toBe(false)
  })

  it.skipIf(process.getuid?.() === 0)('an unreadable store folder is a discovery diagnostic, not a throw', async () => {
    const h = home()
    writeMainHome(h)
    chmodSync(storeDir(h), 0o000)
    try {
      const r = await readHome(h)
      expect(r.refs).toEqual([])
      expect(r.diagnostics.length).toBeGreaterThan(0)
    } finally {
      chmodSync(storeDir(h), 0o755)
    }
  })

  it('no store at all: no sessions, no diagnostics', async () => {
    const h = home()
    const r = await readHome(h)
    expect([r.refs, r.diagnostics]).toEqual([[], []])
    expect(readdirSync(h)).toEqual([])
  })
})
