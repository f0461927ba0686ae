/**
 * Discovery and the home as a whole: archived rollouts, titles and parents from the thread
 * database and the name index, a moved Codex home, an unreadable folder, a truncated last line,
 * and proof that reading changes nothing on disk.
 */
import Database from 'better-sqlite3'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../../tests/helpers/golden'
import { snapshotTree } from '../../../../tests/helpers/snapshot'
import { layoutForHome } from '../../platform'
import { codex } from './index'
import { readHome, testContext } from '../../../../tests/builders/codex/testing'

const REAL_HOME = join(REPO_ROOT, 'fixtures', 'real', 'codex', 'home')
const made: string[] = []
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'sepia-codex-home-'))
  made.push(d)
  return d
}
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true })
})

const A = 'e0000000-0000-4000-8000-00000000000a'
const B = 'e0000000-0000-4000-8000-00000000000b'
const C = 'e0000000-0000-4000-8000-00000000000c'
const line = (type: string, payload: object) => JSON.stringify({ timestamp: '2026-04-01T08:00:00.000Z', type, payload })
const rollout = (id: string, prompt: string, meta: object = {}) =>
  [
    line('session_meta', { id, timestamp: '2026-04-01T08:00:00.000Z', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.90.0', ...meta }),
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] }),
  ].join('\n') + '\n'

describe('codex home', () => {
  it('lists live and archived rollouts; titles and parents come from the database and the name index', async () => {
    const home = temp()
    const codexDir = join(home, '.codex')
    mkdirSync(join(codexDir, 'sessions', '2026', '04', '01'), { recursive: true })
    mkdirSync(join(codexDir, 'archived_sessions'), { recursive: true })
    writeFileSync(join(codexDir, 'sessions', '2026', '04', '01', `rollout-2026-04-01T08-00-00-${A}.jsonl`), rollout(A, 'first prompt of A'))
    writeFileSync(join(codexDir, 'sessions', '2026', '04', '01', `rollout-2026-04-01T08-00-01-${B}.jsonl`), rollout(B, 'sub task'))
    writeFileSync(join(codexDir, 'archived_sessions', `rollout-2026-04-01T08-00-02-${C}.jsonl`), rollout(C, 'old work'))
    writeFileSync(join(codexDir, 'sessions', 'notes.txt'), 'not a rollout')
    writeFileSync(join(codexDir, 'session_index.jsonl'), [JSON.stringify({ id: C, thread_name: 'first name', updated_at: 'x' }), '{broken', JSON.stringify({ id: C, thread_name: 'Renamed', updated_at: 'y' })].join('\n'))
    const db = new Database(join(codexDir, 'state_5.sqlite'))
    db.exec(`CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, title TEXT NOT NULL, source TEXT NOT NULL, name TEXT);
             CREATE TABLE thread_spawn_edges (parent_thread_id TEXT NOT NULL, child_thread_id TEXT NOT NULL PRIMARY KEY, status TEXT NOT NULL);`)
    db.prepare('INSERT INTO threads VALUES (?, ?, ?, ?, ?)').run(A, `/elsewhere/rollout-2026-04-01T08-00-00-${A}.jsonl`, 'Generated title for A', 'cli', null)
    db.prepare('INSERT INTO threads VALUES (?, ?, ?, ?, ?)').run(B, `/elsewhere/rollout-2026-04-01T08-00-01-${B}.jsonl`, 'sub task', 'cli', null)
    db.prepare('INSERT INTO thread_spawn_edges VALUES (?, ?, ?)').run(A, B, 'open')
    db.close()

    const h = await readHome(home)
    expect(h.diagnostics).toEqual([])
    expect(h.refs.map((r) => r.sessionId)).toEqual([A, B, C])
    expect(h.byId(A).title).toBe('Generated title for A')
    expect(h.byId(C)).toMatchObject({ title: 'Renamed', metadata: { archived: true } })
    // B's rollout does not name a parent; the database's spawn edge does.
    expect(h.byId(B).parentSessionId).toBe(A)
    expect(h.byId(A).childSessionIds).toEqual([B])
    expect(h.byId(B).parentToolCallId).toBeUndefined()
  })

  it('reads a Codex home the layout names (CODEX_HOME) instead of ~/.codex', async () => {
    const home = temp()
    const moved = join(home, 'elsewhere', 'codex')
    mkdirSync(join(moved, 'sessions'), { recursive: true })
    writeFileSync(join(moved, 'sessions', `rollout-2026-04-01T08-00-00-${A}.jsonl`), rollout(A, 'moved'))
    const layout = { ...(await layoutForHome({ home, os: 'linux' })), codexHome: moved }
    const { refs } = await codex.discover(layout, testContext)
    expect(refs.map((r) => r.sessionId)).toEqual([A])
  })

  it('reports an unreadable sessions folder and finds nothing, without throwing', async () => {
    const home = temp()
    mkdirSync(join(home, '.codex'), { recursive: true })
    symlinkSync(join(home, '.codex', 'sessions'), join(home, '.codex', 'sessions')) // a link to itself: ELOOP
    const h = await readHome(home)
    expect(h.refs).toEqual([])
    expect(h.diagnostics).toHaveLength(1)
    expect(h.diagnostics[0]).toMatchObject({ severity: 'warning', agent: 'codex', path: join(home, '.codex', 'sessions') })
  })

  it('finds nothing (and no problem) in a home without Codex', async () => {
    const h = await readHome(temp())
    expect(h.refs).toEqual([])
    expect(h.diagnostics).toEqual([])
  })

  it('survives a truncated last line: one error with its line number, every message kept', async () => {
    const home = temp()
    cpSync(REAL_HOME, home, { recursive: true })
    const dayDir = join(home, '.codex', 'sessions', '2026', '11', '30')
    const file = join(dayDir, readdirSync(dayDir).find((f) => f.includes('66c3-75f0'))!)
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
    const last = lines.pop()!
    writeFileSync(file, [...lines, last.slice(0, Math.floor(last.length / 2))].join('\n'))
    const cut = (await readHome(home)).byId('01a22b43-66c3-75f0-90de-6d1ff6499d33')
    const whole = (await readHome(REAL_HOME)).byId('01a22b43-66c3-75f0-90de-6d1ff6499d33')
    expect(cut.diagnostics.map((d) => [d.line, d.severity, d.path])).toEqual([[52, 'error', file]])
    expect(cut.nodes.map((n) => n.content)).toEqual(whole.nodes.map((n) => n.content))
  })

  it('never writes to the source: same bytes, no -wal/-shm/-journal files', async () => {
    const before = snapshotTree(REAL_HOME)
    await readHome(REAL_HOME)
    await readHome(REAL_HOME)
    const after = snapshotTree(REAL_HOME)
    expect(after).toEqual(before)
    expect(Object.keys(after).filter((p) => /-(wal|shm|journal)$/.test(p))).toEqual([])
  })
})

describe('codex sub-agent spawn events (issue 14 point 9)', () => {
  it('links a spawn call to its child thread from collab_agent_spawn_end / sub_agent_activity, written after the result', async () => {
    const home = temp()
    const day = join(home, '.codex', 'sessions', '2026', '04', '01')
    mkdirSync(day, { recursive: true })
    const call = (id: string) => line('response_item', { type: 'function_call', name: 'spawn_agent', namespace: 'collaboration', arguments: '{}', call_id: id })
    const out = (id: string) => line('response_item', { type: 'function_call_output', call_id: id, output: 'spawned' })
    writeFileSync(
      join(day, `rollout-2026-04-01T08-00-00-${A}.jsonl`),
      rollout(A, 'split the work') +
        [call('c1'), out('c1'), line('event_msg', { type: 'collab_agent_spawn_end', call_id: 'c1', new_thread_id: B }), call('c2'), line('event_msg', { type: 'sub_agent_activity', event_id: 'c2', agent_thread_id: C, kind: 'started' }), out('c2')].join('\n') +
        '\n',
    )
    writeFileSync(join(day, `rollout-2026-04-01T08-00-01-${B}.jsonl`), rollout(B, 'part one', { parent_thread_id: A, source: { subagent: { thread_spawn: { parent_thread_id: A, depth: 1 } } } }))
    writeFileSync(join(day, `rollout-2026-04-01T08-00-02-${C}.jsonl`), rollout(C, 'part two', { parent_thread_id: A }))
    const h = await readHome(home)
    const parent = h.byId(A)
    expect(parent.childSessionIds).toEqual([B, C])
    const calls = parent.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => [c.id, c.subagentSessionId, c.namespace])).toEqual([
      ['c1', B, 'collaboration'],
      ['c2', C, 'collaboration'],
    ])
    expect(h.byId(B)).toMatchObject({ parentSessionId: A, parentToolCallId: 'c1' })
    expect(h.byId(C)).toMatchObject({ parentSessionId: A, parentToolCallId: 'c2' })
  })
})
