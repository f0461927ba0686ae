/** The OpenCode-family writer: ids, rows, schema, project, backup, faults, never overwriting. */
import Database from 'better-sqlite3'
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Session } from '../../../shared/ir'
import { findAppRoot } from '../../context'
import { FIXTURE_SOURCES, readFixtureSessions } from '../../../../tests/builders/fixture-sources'
import { prepareForTarget } from '../../convert/prepare'
import { VOCABULARIES } from '../../convert/vocab'
import { layoutForHome } from '../../platform'
import type { WriteOptions } from '../types'
import { type FamilyWriteSpec, KILO_WRITE, OPENCODE_WRITE, familyId, writeFamilySession } from './write'

const NOW = Date.parse('2026-12-01T10:00:00.000Z')
const UUID = 'ab12c3d4-0000-4000-8000-000000000000'
/** Copies of the real stores (a fixture database is never opened in place). */
function realCopy(agent: 'opencode' | 'kilo'): string {
  const db = join(mkdtempSync(join(tmpdir(), 'sepia-ocw-real-')), `${agent}.db`)
  copyFileSync(join(findAppRoot(), `fixtures/real/${agent}/home/.local/share/${agent}/${agent}.db`), db)
  return db
}
const REAL = { opencode: realCopy('opencode'), kilo: realCopy('kilo') }

async function prepared(agent: 'opencode' | 'kilo-code', cwd?: string): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === 'claude-code')!)
  const s = sessions.find((x) => x.id === 'c79310a4-1627-4beb-8788-81d2e0fc6af8')!
  const p = prepareForTarget(s, { agent, displayName: agent, providerFamily: 'any', vocabulary: VOCABULARIES[agent]! }, { textOnly: false, ...(cwd ? { cwd } : {}) })
  return p.session
}

async function options(home: string, over: Partial<WriteOptions> = {}): Promise<WriteOptions> {
  return {
    layout: await layoutForHome({ home }),
    textOnly: false,
    dryRun: false,
    now: () => NOW,
    newId: () => UUID,
    sourceRef: { agent: 'claude-code', sessionId: 'c79310a4-1627-4beb-8788-81d2e0fc6af8', path: '/home/ana/.claude/projects/x/c79310a4.jsonl' },
    ...over,
  }
}

type Row = Record<string, unknown>
function query(db: string, sql: string, ...args: unknown[]): Row[] {
  const d = new Database(db, { readonly: true })
  try {
    return d.prepare(sql).all(...args) as Row[]
  } finally {
    d.close()
  }
}
/** Every table's columns (name, type, NOT NULL, default) and every index name. */
const shape = (db: string) => ({
  tables: query(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((t) => [t.name, query(db, `PRAGMA table_info("${String(t.name)}")`).map((c) => `${String(c.name)} ${String(c.type)} ${String(c.notnull)} ${String(c.dflt_value)}`)]),
  indexes: query(db, "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").map((i) => i.name),
})
const parsed = (rows: Row[]): (Row & { data: Row })[] => rows.map((r) => ({ ...r, data: JSON.parse(String(r.data)) as Row }))

const SPECS: [string, FamilyWriteSpec, 'opencode' | 'kilo-code', 'opencode' | 'kilo'][] = [
  ['opencode', OPENCODE_WRITE, 'opencode', 'opencode'],
  ['kilo', KILO_WRITE, 'kilo-code', 'kilo'],
]

describe('familyId', () => {
  it('encodes ms * 0x1000 + counter in 12 hex digits (inverted for sessions) and 14 base62 characters', () => {
    // Real ids of fixtures/real/opencode: a session made at 1796022346105, a message at 1796022376030.
    expect(familyId('ses', 1796022346105, 1, UUID, true).slice(0, 16)).toBe('ses_dd4b9de86ffe')
    expect(familyId('msg', 1796022376030, 1, UUID, false).slice(0, 16)).toBe('msg_22b46965e001')
    expect(familyId('prt', NOW, 0, UUID, false)).toMatch(/^prt_[0-9a-f]{12}[0-9A-Za-z]{14}$/)
    expect(familyId('msg', NOW, 1, UUID, false) > familyId('msg', NOW, 0, UUID, false)).toBe(true)
    expect(familyId('ses', NOW + 1, 0, UUID, true) < familyId('ses', NOW, 0, UUID, true)).toBe(true)
  })
})

describe.each(SPECS)('writeFamilySession (%s)', (_name, spec, agent, dir) => {
  it('creates the database with the real schema and writes session, message and part rows', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ocw-'))
    const r = await writeFamilySession(await prepared(agent), await options(home), spec)
    const db = join(home, `.local/share/${dir}/${dir}.db`)
    const id = r.output.sessionId
    expect(id).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/)
    expect(r.output).toEqual({ sessionId: id, files: [db], resumeCommand: `${dir} -s ${id}`, cwd: '/home/ana/src/ledger-api', backups: [] })
    expect(shape(db)).toEqual(shape(REAL[dir]))
    expect(query(db, 'SELECT id FROM migration').map((m) => m.id)).toEqual(query(REAL[dir], 'SELECT id FROM migration').map((m) => m.id))
    expect(query(db, 'PRAGMA journal_mode')[0]).toEqual({ journal_mode: 'wal' })

    // No git repository at that path here: the global project, added since the database enforces it.
    expect(query(db, 'SELECT id, worktree, sandboxes FROM project')).toEqual([{ id: 'global', worktree: '/', sandboxes: '[]' }])
    const [session] = query(db, 'SELECT * FROM session')
    expect(session).toMatchObject({ id, project_id: 'global', directory: '/home/ana/src/ledger-api', version: spec.version, parent_id: null, model: null })
    expect(session!.title).toBe('[tools] List the files, then create NOTES.md and mark its TODO line as done.')
    expect(JSON.parse(String(session!.metadata))).toEqual({
      importedFrom: { agent: 'claude-code', sessionId: 'c79310a4-1627-4beb-8788-81d2e0fc6af8', path: '/home/ana/.claude/projects/x/c79310a4.jsonl', importedAt: '2026-12-01T10:00:00.000Z', importer: 'sepia' },
    })

    const messages = parsed(query(db, 'SELECT * FROM message ORDER BY id'))
    const parts = parsed(query(db, 'SELECT * FROM part ORDER BY id'))
    // Ids ascend with the rows' times (the CLI orders by id and compares ids).
    expect(messages.map((m) => m.time_created)).toEqual([...messages.map((m) => m.time_created as number)].sort((a, b) => a - b))
    expect(messages.map((m) => m.id).every((x) => /^msg_[0-9a-f]{12}[0-9A-Za-z]{14}$/.test(String(x)))).toBe(true)
    expect(messages.map((m) => `${String(m.data.role)}:${parts.filter((p) => p.message_id === m.id).map((p) => (p.data.type === 'tool' ? `tool(${String(p.data.tool)})` : p.data.type)).join(',')}`)).toEqual([
      'user:text',
      'assistant:text,tool(bash)',
      'assistant:text,tool(write)',
      'assistant:tool(edit)',
      'assistant:text',
      'user:text',
      'assistant:text,tool(bash)',
      'assistant:text',
    ])
    const user = messages[0]!.data
    expect(user).toEqual({ role: 'user', time: { created: messages[0]!.time_created }, agent: spec.agentName })
    const assistant = messages[1]!.data
    expect(Object.keys(assistant)).toEqual(['parentID', 'role', 'mode', 'agent', 'path', 'cost', 'tokens', 'modelID', 'providerID', 'time', 'finish'])
    expect(assistant).toMatchObject({ parentID: messages[0]!.id, mode: spec.agentName, agent: spec.agentName, path: { cwd: '/home/ana/src/ledger-api', root: '/home/ana/src/ledger-api' }, modelID: 'claude-opus-5-5', providerID: 'anthropic', finish: 'tool-calls' })
    // Input counts measured with Claude Code's prompt are left out (the CLI would compact at once).
    expect(messages.map((m) => (m.data.tokens as Row | undefined)?.input ?? 0)).toEqual(messages.map(() => 0))
    // prepareForTarget already left them out and said so (convert/issue-14.test.ts); nothing is left for the writer to drop.
    expect(r.warnings.find((w) => w.kind === 'input-usage-dropped')?.count ?? 0).toBe(0)
    const bash = parts.find((p) => p.data.tool === 'bash')!
    expect(bash).toMatchObject({ session_id: id, message_id: messages[1]!.id })
    // OpenCode 1.18.33's bash has no description; Kilo's has (the request tools of both CLIs).
    const kilo = spec === KILO_WRITE
    expect(bash.data).toMatchObject({ type: 'tool', tool: 'bash', state: { status: 'completed', input: { command: 'ls -la' }, title: kilo ? 'List files in the project' : 'ls -la' } })
    expect('description' in ((bash.data.state as Row).input as Row)).toBe(kilo)
    expect(typeof (bash.data.state as Row).output).toBe('string')
    expect(String(bash.data.callID)).toMatch(/^[A-Za-z0-9_-]+$/)
  })

  it('makes ids below the ones the CLI makes later, also for times before the 48-bit wrap (2026-08-14)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ocw-'))
    const s = await prepared(agent)
    const march = Date.parse('2026-03-03T10:00:00.000Z')
    s.nodes.forEach((n, i) => (n.createdAt = march + i * 1000))
    s.createdAt = march
    const r = await writeFamilySession(s, await options(home), spec)
    const db = join(home, `.local/share/${dir}/${dir}.db`)
    const later = familyId('msg', NOW + 1000, 0, UUID, false).slice(4, 16)
    const ids = [...query(db, 'SELECT id FROM message'), ...query(db, 'SELECT id FROM part')].map((x) => String(x.id).slice(4, 16))
    expect(ids.length).toBeGreaterThan(10)
    expect(ids.filter((x) => x >= later)).toEqual([])
    // Row order by id is the node order, and the rows keep the session's own times.
    const rows = query(db, 'SELECT time_created FROM message ORDER BY id').map((m) => m.time_created as number)
    expect(rows[0]).toBe(march)
    expect(rows).toEqual([...rows].sort((a, b) => a - b))
    expect(query(db, 'SELECT time_created FROM session WHERE id = ?', r.output.sessionId)).toEqual([{ time_created: march }])
  })

  it('backs up an existing database, keeps its rows, and reuses the project row of the folder', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ocw-'))
    const db = join(home, `.local/share/${dir}/${dir}.db`)
    mkdirSync(join(home, `.local/share/${dir}`), { recursive: true })
    copyFileSync(REAL[dir], db)
    const before = { session: query(db, 'SELECT * FROM session ORDER BY id'), message: query(db, 'SELECT * FROM message ORDER BY id'), project: query(db, 'SELECT * FROM project') }
    const folder = String(before.project[0]!.worktree)
    const r = await writeFamilySession(await prepared(agent, folder), await options(home), spec)
    expect(r.output.backups).toEqual([`${db}.sepia-backup-20261201T100000Z`])
    expect(query(r.output.backups[0]!, 'SELECT * FROM session ORDER BY id')).toEqual(before.session)
    expect(query(db, 'SELECT * FROM session WHERE id <> ? ORDER BY id', r.output.sessionId)).toEqual(before.session)
    expect(query(db, 'SELECT * FROM message WHERE session_id <> ? ORDER BY id', r.output.sessionId)).toEqual(before.message)
    expect(query(db, 'SELECT * FROM project')).toEqual(before.project)
    expect(query(db, 'SELECT project_id FROM session WHERE id = ?', r.output.sessionId)).toEqual([{ project_id: before.project[0]!.id }])
  })

  it('names the model the home is configured with on user messages', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ocw-'))
    mkdirSync(join(home, `.config/${dir}`), { recursive: true })
    writeFileSync(join(home, `.config/${dir}/${dir}.json`), JSON.stringify({ model: 'mock/mock-model', agent: { build: { model: 'x/y' } } }))
    await writeFamilySession(await prepared(agent), await options(home), spec)
    const users = parsed(query(join(home, `.local/share/${dir}/${dir}.db`), 'SELECT data FROM message')).filter((m) => m.data.role === 'user')
    expect(users.map((u) => u.data.model)).toEqual([{ providerID: 'mock', modelID: 'mock-model' }, { providerID: 'mock', modelID: 'mock-model' }])
    // Without a config file: the model last picked in the terminal UI (<xdg state>/<cli>/model.json).
    const other = mkdtempSync(join(tmpdir(), 'sepia-ocw-'))
    mkdirSync(join(other, `.local/state/${dir}`), { recursive: true })
    writeFileSync(join(other, `.local/state/${dir}/model.json`), JSON.stringify({ recent: [{ providerID: 'anthropic', modelID: 'claude-sonnet-4-5' }], favorite: [] }))
    await writeFamilySession(await prepared(agent), await options(other), spec)
    const picked = parsed(query(join(other, `.local/share/${dir}/${dir}.db`), 'SELECT data FROM message')).find((m) => m.data.role === 'user')
    expect(picked?.data.model).toEqual({ providerID: 'anthropic', modelID: 'claude-sonnet-4-5' })
  })

  it('takes the project id of a git folder: the id the CLI cached, else the root commit', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ocw-'))
    const repo = join(home, 'src', 'app')
    mkdirSync(repo, { recursive: true })
    const git = (...a: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=A', '-c', 'user.email=a@example.com', ...a], { encoding: 'utf8' }).trim()
    git('init', '-q')
    writeFileSync(join(repo, 'README.md'), '# app\n')
    git('add', 'README.md')
    git('commit', '-q', '-m', 'first')
    const root = git('rev-list', '--max-parents=0', 'HEAD')
    const first = await writeFamilySession(await prepared(agent, repo), await options(home), spec)
    const db = join(home, `.local/share/${dir}/${dir}.db`)
    expect(query(db, 'SELECT id, worktree, vcs FROM project')).toEqual([{ id: root, worktree: repo, vcs: 'git' }])
    expect(query(db, 'SELECT project_id FROM session WHERE id = ?', first.output.sessionId)).toEqual([{ project_id: root }])
    writeFileSync(join(repo, '.git', dir), 'remote-hash-id\n')
    const second = await writeFamilySession(await prepared(agent, repo), await options(home, { newId: () => 'cd34e5f6-0000-4000-8000-000000000000' }), spec)
    expect(query(db, 'SELECT project_id FROM session WHERE id = ?', second.output.sessionId)).toEqual([{ project_id: 'remote-hash-id' }])
  })

  it('never overwrites a session: the same id again fails and leaves the first one as it was', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ocw-'))
    const first = await writeFamilySession(await prepared(agent), await options(home), spec)
    const db = join(home, `.local/share/${dir}/${dir}.db`)
    const rows = { message: query(db, 'SELECT * FROM message ORDER BY id'), part: query(db, 'SELECT * FROM part ORDER BY id') }
    await expect(writeFamilySession(await prepared(agent), await options(home), spec)).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(query(db, 'SELECT id FROM session')).toEqual([{ id: first.output.sessionId }])
    expect(query(db, 'SELECT * FROM message ORDER BY id')).toEqual(rows.message)
    expect(query(db, 'SELECT * FROM part ORDER BY id')).toEqual(rows.part)
    expect(readdirSync(join(home, `.local/share/${dir}`)).filter((f) => f.includes('sepia'))).toEqual([])
  })

  it('a fault while adding the rows leaves the database as it was and no backup', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ocw-'))
    const db = join(home, `.local/share/${dir}/${dir}.db`)
    mkdirSync(join(home, `.local/share/${dir}`), { recursive: true })
    copyFileSync(REAL[dir], db)
    const before = query(db, 'SELECT count(*) AS n FROM part')
    const fault = (s: string) => {
      if (s === 'db-insert') throw new Error('power cut (injected)')
    }
    await expect(writeFamilySession(await prepared(agent), await options(home, { fault }), spec)).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(query(db, 'SELECT count(*) AS n FROM part')).toEqual(before)
    expect(query(db, 'SELECT count(*) AS n FROM session')).toEqual(query(REAL[dir], 'SELECT count(*) AS n FROM session'))
    expect(readdirSync(join(home, `.local/share/${dir}`)).filter((f) => f.includes('sepia'))).toEqual([])
  })

  it('a fault while creating a missing database leaves no database; a dry run writes nothing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ocw-'))
    const fault = (s: string) => {
      if (s === 'db-created') throw new Error('crash (injected)')
    }
    await expect(writeFamilySession(await prepared(agent), await options(home, { fault }), spec)).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(readdirSync(join(home, `.local/share/${dir}`))).toEqual([])
    const dry = mkdtempSync(join(tmpdir(), 'sepia-ocw-'))
    const r = await writeFamilySession(await prepared(agent), await options(dry, { dryRun: true }), spec)
    expect(r.output.resumeCommand).toBe(`${dir} -s ${r.output.sessionId}`)
    expect(existsSync(join(dry, '.local/share', dir))).toBe(false)
  })
})
