/**
 * The SQLite side of the OpenCode family: reading never changes the store (no -wal/-shm/-journal
 * appears, every byte stays), rows still in an uncheckpointed WAL are read, bad rows become
 * diagnostics naming the table and row, and a broken database does not stop the JSON storage.
 */
import Database from 'better-sqlite3'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../../tests/helpers/golden'
import { closeStoreDbs, kiloCodeCli, opencode } from './index'
import { readHome, snapshotTree } from '../../../../tests/builders/opencode/testing'

const REAL_DB = join(REPO_ROOT, 'fixtures/real/opencode/home/.local/share/opencode/opencode.db')
const QA = 'ses_dd4b9de86ffeUbdelA1z3AtxuC'
const TOOLS = 'ses_dd4b9bcfaffeyODGilKGERSDRq'
const temps: string[] = []
afterEach(() => {
  closeStoreDbs()
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true })
})
afterAll(() => closeStoreDbs())

/** A fresh home holding a copy of the real OpenCode database; returns the home and the copy. */
function homeWithDb(): { home: string; db: string } {
  const home = mkdtempSync(join(tmpdir(), 'sepia-ocdb-'))
  temps.push(home)
  const dir = join(home, '.local', 'share', 'opencode')
  mkdirSync(dir, { recursive: true })
  copyFileSync(REAL_DB, join(dir, 'opencode.db'))
  return { home, db: join(dir, 'opencode.db') }
}

describe('opencode-family SQLite stores', () => {
  it('reading the real stores changes no byte and creates no -wal/-shm/-journal', async () => {
    for (const [agent, name] of [[opencode, 'opencode'], [kiloCodeCli, 'kilo']] as const) {
      const home = join(REPO_ROOT, 'fixtures', 'real', name, 'home')
      const before = snapshotTree(home)
      const h = await readHome(agent, home)
      expect(h.sessions).toHaveLength(5)
      closeStoreDbs()
      const after = snapshotTree(home)
      expect(after).toEqual(before)
      expect(Object.keys(after).filter((f) => /\.db-(wal|shm|journal)$/.test(f))).toEqual([])
    }
  })

  it('bad rows become diagnostics naming table and row; the rest of the session loads', async () => {
    const { home, db } = homeWithDb()
    const w = new Database(db)
    w.pragma('journal_mode = DELETE')
    w.pragma('foreign_keys = OFF')
    w.prepare("UPDATE part SET data = '{\"type\":\"text\",\"te' WHERE id = 'prt_22b4653390011tfQyjR5jX3rdn'").run()
    w.prepare("UPDATE message SET data = 'not json' WHERE id = 'msg_22b465ad3001F6jrVTxJbDkKwP'").run()
    w.prepare("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_orphan', 'msg_gone', ?, 1, 1, '{\"type\":\"text\",\"text\":\"x\"}')").run(TOOLS)
    w.close()
    const s = (await readHome(opencode, home)).byId(TOOLS)
    expect(s.diagnostics.map((d) => [d.severity, d.message.replace(/ \(.*$/, '')])).toEqual([
      ['error', 'table message, row msg_22b465ad3001F6jrVTxJbDkKwP: "data" is not valid JSON; the message is skipped'],
      ['error', 'table part, row prt_22b4653390011tfQyjR5jX3rdn: "data" is not valid JSON; the part is skipped'],
      ['info', 'table part: 3 rows belong to skipped message rows and are skipped too'],
      ['warning', 'table part: 1 row names a message that is not in this session'],
    ])
    for (const d of s.diagnostics) expect(d).toMatchObject({ path: db, sessionId: TOOLS, agent: 'opencode' })
    const first = s.nodes.find((n) => n.role === 'assistant')!
    expect(first.content).toBe('')
    expect(first.thinking).toMatch(/^The user wants me/)
    expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(5)
    expect(s.nodes.some((n) => n.content.startsWith('I listed the project'))).toBe(false)
  })

  it('reads rows still in the -wal of a database the agent has open, without touching its files', async () => {
    const { home, db } = homeWithDb()
    const writer = new Database(db)
    try {
      writer.pragma('journal_mode = WAL')
      writer.pragma('wal_autocheckpoint = 0')
      writer.prepare("UPDATE session SET title = 'Renamed while open' WHERE id = ?").run(QA)
      writer.prepare("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_22b463309000WALonly', 'msg_22b462968001elL9RApnVmQsfe', ?, 2, 2, '{\"type\":\"text\",\"text\":\"Only in the WAL.\"}')").run(QA)
      const dir = join(home, '.local', 'share', 'opencode')
      expect(readdirSync(dir).sort()).toEqual(['opencode.db', 'opencode.db-shm', 'opencode.db-wal'])
      const before = snapshotTree(dir)
      const h = await readHome(opencode, home)
      const s = h.byId(QA)
      expect(s.title).toBe('Renamed while open')
      expect(s.nodes[1]!.content).toBe('The capital of France is Paris. (mock answer)\n\nOnly in the WAL.')
      expect(h.refs.find((r) => r.sessionId === QA)!.files).toEqual([db, `${db}-wal`])
      closeStoreDbs()
      expect(snapshotTree(dir)).toEqual(before)
    } finally {
      writer.close()
    }
  })

  it('a file that is not a database is a discovery diagnostic; the JSON storage still loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ocbad-'))
    temps.push(home)
    const dir = join(home, '.local', 'share', 'opencode')
    mkdirSync(join(dir, 'storage', 'session', 'p'), { recursive: true })
    writeFileSync(join(dir, 'opencode.db'), 'this is not a database')
    writeFileSync(join(dir, 'storage', 'session', 'p', 'ses_j.json'), JSON.stringify({ id: 'ses_j', title: 'still here' }))
    const h = await readHome(opencode, home)
    expect(h.diagnostics.map((d) => [d.severity, d.path, d.agent])).toEqual([['warning', join(dir, 'opencode.db'), 'opencode']])
    expect(h.diagnostics[0]!.message).toMatch(/^cannot read database: /)
    expect(h.sessions.map((s) => [s.id, s.title])).toEqual([['ses_j', 'still here']])
  })

  it.skipIf(process.getuid?.() === 0)('an unreadable data folder is a diagnostic, not an exception', async () => {
    const { home } = homeWithDb()
    const dir = join(home, '.local', 'share', 'opencode')
    chmodSync(dir, 0o000)
    try {
      const h = await readHome(opencode, home)
      expect(h.sessions).toEqual([])
      expect(h.diagnostics.map((d) => [d.severity, d.path])).toEqual([['warning', dir]])
    } finally {
      chmodSync(dir, 0o755)
    }
  })

  it('a data folder that cannot be listed (a symbolic link loop) is a diagnostic; Kilo still loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ocloop-'))
    temps.push(home)
    const share = join(home, '.local', 'share')
    mkdirSync(join(share, 'kilo'), { recursive: true })
    symlinkSync(join(share, 'opencode'), join(share, 'opencode'))
    copyFileSync(join(REPO_ROOT, 'fixtures/real/kilo/home/.local/share/kilo/kilo.db'), join(share, 'kilo', 'kilo.db'))
    const oc = await readHome(opencode, home)
    expect(oc.sessions).toEqual([])
    expect(oc.diagnostics.map((d) => [d.severity, d.path, d.agent])).toEqual([['warning', join(share, 'opencode'), 'opencode']])
    expect((await readHome(kiloCodeCli, home)).sessions).toHaveLength(5)
  })

  it('a session row deleted after discovery rejects with READ_FAILED', async () => {
    const { home, db } = homeWithDb()
    const h = await readHome(opencode, home)
    const ref = h.refs.find((r) => r.sessionId === QA)!
    closeStoreDbs()
    const w = new Database(db)
    w.pragma('journal_mode = DELETE')
    w.pragma('foreign_keys = OFF')
    w.prepare('DELETE FROM session WHERE id = ?').run(QA)
    w.close()
    await expect(opencode.read(ref, { now: () => 0 })).rejects.toMatchObject({ code: 'READ_FAILED' })
  })
})
