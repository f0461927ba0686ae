/**
 * A warm `sepia list` skips the discovery of an agent whose freshness snapshot is unchanged
 * (src/main/catalog/freshness.ts, issue 15). These tests change a store between two runs in every
 * way discovery can see — an append to an existing transcript (its folder's mtime stays), a new
 * session in a new folder, a first session in a folder that did not exist, a removal — and check
 * that the next `sepia list` shows it. Hermetic: a temp home and data folder per test.
 */
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findAppRoot } from '../src/main/context'
import { runCli } from './helpers/cli-run'

const ROOT = findAppRoot()
const saved = { HOME: process.env.HOME, SEPIA_DATA_DIR: process.env.SEPIA_DATA_DIR }
let tmp = ''
let home = ''

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'sepia-fresh-'))
  home = join(tmp, 'home')
  mkdirSync(home)
  process.env.HOME = join(tmp, 'own-home') // not the listed home: no archive
  process.env.SEPIA_DATA_DIR = join(tmp, 'data')
})
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  rmSync(tmp, { recursive: true, force: true })
})

interface Listed {
  sessions: { id: string; agent: string; messageCount: number }[]
}

async function list(): Promise<Listed> {
  const r = await runCli('list', '--home', home, '--json')
  expect(r.code).toBe(0)
  return JSON.parse(r.out) as Listed
}

/** The freshness snapshots the catalog holds (meta keys `fresh:<home>:<agent>` with a value). */
function snapshots(): string[] {
  const db = new Database(join(tmp, 'data', 'catalog.sqlite'), { readonly: true })
  try {
    return (db.prepare(`SELECT key FROM meta WHERE key LIKE 'fresh:%' AND value <> ''`).all() as { key: string }[]).map((r) => r.key.slice(r.key.lastIndexOf(':') + 1))
  } finally {
    db.close()
  }
}

const SID = '11111111-1111-4111-8111-111111111111'
const rec = (i: number, sid = SID) =>
  JSON.stringify({
    type: i % 2 === 0 ? 'user' : 'assistant',
    uuid: `u${i}`,
    parentUuid: i === 0 ? null : `u${i - 1}`,
    cwd: '/tmp/x',
    sessionId: sid,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    message: i % 2 === 0 ? { role: 'user', content: `question ${i}` } : { role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] },
  }) + '\n'

/** Lines of a transcript that are messages (each written line is one). */
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').length

describe('warm sepia list after a store changed', () => {
  it('shows an append to a Claude Code transcript (the folder mtime does not change)', async () => {
    const dir = join(home, '.claude/projects/-tmp-x')
    mkdirSync(dir, { recursive: true })
    const file = join(dir, `${SID}.jsonl`)
    writeFileSync(file, rec(0) + rec(1))
    const first = await list()
    expect(first.sessions.find((s) => s.id === SID)?.messageCount).toBe(lines(file))
    expect(snapshots()).toContain('claude-code')
    expect((await list()).sessions.find((s) => s.id === SID)?.messageCount).toBe(2) // nothing changed
    appendFileSync(file, rec(2) + rec(3))
    // Same mtime as before, bigger file: the size alone must show the change.
    const before = new Date(Date.UTC(2026, 0, 1))
    utimesSync(file, before, before)
    const second = await list()
    expect(second.sessions.find((s) => s.id === SID)?.messageCount).toBe(lines(file))
    expect(lines(file)).toBe(4)
  })

  it('shows a new session in a new project folder and drops a removed one', async () => {
    const dir = join(home, '.claude/projects/-tmp-x')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `${SID}.jsonl`), rec(0) + rec(1))
    expect((await list()).sessions.map((s) => s.id)).toEqual([SID])
    const other = '22222222-2222-4222-8222-222222222222'
    const dir2 = join(home, '.claude/projects/-tmp-y')
    mkdirSync(dir2)
    writeFileSync(join(dir2, `${other}.jsonl`), rec(0, other))
    expect((await list()).sessions.map((s) => s.id).sort()).toEqual([SID, other])
    rmSync(join(dir, `${SID}.jsonl`))
    expect((await list()).sessions.map((s) => s.id)).toEqual([other])
  })

  it('shows a first Codex rollout in a dated folder that did not exist, and an append to it', async () => {
    const src = join(ROOT, 'fixtures/real/codex/home/.codex/sessions/2026/11/30')
    const name = 'rollout-2026-11-30T07-02-47-01a22b43-6965-7f70-8305-26886e29fe44.jsonl'
    mkdirSync(join(home, '.codex/sessions/2026/11/30'), { recursive: true })
    copyFileSync(join(src, name), join(home, '.codex/sessions/2026/11/30', name))
    expect((await list()).sessions.filter((s) => s.agent === 'codex')).toHaveLength(1)
    expect(snapshots()).toContain('codex')
    // A new day's folder (and month) below an existing year: two folders that were not recorded.
    const other = 'rollout-2026-11-30T07-02-46-01a22b43-64f5-7001-a0f5-62902c07c581.jsonl'
    mkdirSync(join(home, '.codex/sessions/2026/12/01'), { recursive: true })
    copyFileSync(join(src, other), join(home, '.codex/sessions/2026/12/01', other))
    const after = (await list()).sessions.filter((s) => s.agent === 'codex')
    expect(after).toHaveLength(2)
    const grown = after.find((s) => s.id === '01a22b43-64f5-7001-a0f5-62902c07c581')!
    const path = join(home, '.codex/sessions/2026/12/01', other)
    // Codex appends to the rollout of a resumed thread: one more user message (a new id, later).
    const msg = { timestamp: '2026-11-30T07:05:00.000Z', ordinal: 99, type: 'response_item', payload: { type: 'message', id: 'msg_appended', role: 'user', content: [{ type: 'input_text', text: 'And Germany?' }] } }
    appendFileSync(path, JSON.stringify(msg) + '\n')
    const again = (await list()).sessions.find((s) => s.id === grown.id)!
    expect(again.messageCount).toBe(grown.messageCount + 1)
  })

  it('shows a first Claude Code session when the projects folder did not exist at the last run', async () => {
    const dir = join(home, '.codex/sessions')
    mkdirSync(dir, { recursive: true })
    expect((await list()).sessions).toHaveLength(0)
    const cc = join(home, '.claude/projects/-tmp-x')
    mkdirSync(cc, { recursive: true })
    writeFileSync(join(cc, `${SID}.jsonl`), rec(0))
    expect((await list()).sessions.map((s) => s.id)).toEqual([SID])
  })

  it('shows a new Cline task folder (legacy layout)', async () => {
    const tasks = join(home, '.cline/data/tasks')
    const task = (id: string, text: string) => {
      mkdirSync(join(tasks, id), { recursive: true })
      writeFileSync(join(tasks, id, 'ui_messages.json'), JSON.stringify([{ ts: Number(id), type: 'say', say: 'task', text }]))
    }
    task('1796022253554', 'first task')
    const first = await list()
    expect(first.sessions.filter((s) => s.agent === 'cline')).toHaveLength(1)
    expect(snapshots()).toContain('cline')
    task('1796022270019', 'second task')
    expect((await list()).sessions.filter((s) => s.agent === 'cline')).toHaveLength(2)
  })
})
