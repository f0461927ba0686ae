/**
 * The SQLite stores of the `fixtures/seed000/home` fixture, built from seed 000's documented
 * shapes (no real install has written them): `db/sessions.db` ("sessions.db and teams.db", the
 * columns of the real CLI 3.0.65's table), `db/session-search.db` (session-history-search.ts
 * schema; documents computed from the fixture's transcripts with the SDK's own text walk, plus a
 * turn the lead transcript lost and a deleted session) and `teams/teams.db` (team_events).
 *
 * `npx tsx scripts/gen-seed000-dbs.ts` rewrites the committed databases; a test compares them with
 * a fresh build. Used only by that script and tests (it writes, unlike every reader).
 */
import Database from 'better-sqlite3'
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { indexText } from '../../../src/main/agents/cline/secondary/search-index'

/** Session ids of the fixture. */
export const SEED000 = {
  lead: '1760000000000_k3x9q',
  sub: '1760000000000_k3x9q__agent_sub01',
  team: '1760000000000_k3x9q__teamtask__task_0001',
  imported: '1760000100000_imprt',
  gone: '1760000200000_gone1',
  deleted: '1759990000000_del01',
  hooksOnly: '1759980000000_hk001',
  legacyTask: '1760000000000',
  orphanTask: '1759000000000',
  cursorTask: '1760000300000',
  rooTask: '1760000400000',
  kiloTask: '1760000500000',
  pearTask: '1760000550000',
  project: '/home/u/proj',
} as const

const SESSIONS_SQL = `CREATE TABLE sessions (
  session_id TEXT PRIMARY KEY, source TEXT NOT NULL, pid INTEGER NOT NULL, started_at TEXT NOT NULL, ended_at TEXT,
  exit_code INTEGER, status TEXT NOT NULL, status_lock INTEGER NOT NULL DEFAULT 0, interactive INTEGER NOT NULL,
  provider TEXT NOT NULL, model TEXT NOT NULL, cwd TEXT NOT NULL, workspace_root TEXT NOT NULL, team_name TEXT,
  enable_tools INTEGER NOT NULL, enable_spawn INTEGER NOT NULL, enable_teams INTEGER NOT NULL, parent_session_id TEXT,
  parent_agent_id TEXT, agent_id TEXT, conversation_id TEXT, is_subagent INTEGER NOT NULL DEFAULT 0, prompt TEXT,
  metadata_json TEXT, transcript_path TEXT NOT NULL DEFAULT '', hook_path TEXT NOT NULL, messages_path TEXT,
  updated_at TEXT NOT NULL)`

const SEARCH_SQL = [
  `CREATE TABLE indexed_sessions (session_id TEXT PRIMARY KEY, source_revision TEXT NOT NULL, indexed_at TEXT NOT NULL,
    document_count INTEGER NOT NULL, index_version INTEGER NOT NULL, title TEXT NOT NULL DEFAULT '')`,
  `CREATE VIRTUAL TABLE session_search USING fts5(session_id UNINDEXED, document_id UNINDEXED, ordinal UNINDEXED,
    role UNINDEXED, started_at UNINDEXED, workspace_root, title, content, tokenize='unicode61 remove_diacritics 2 tokenchars ''_-@''')`,
]

const TEAMS_SQL = `CREATE TABLE team_events (id INTEGER PRIMARY KEY AUTOINCREMENT, team_name TEXT NOT NULL, ts TEXT NOT NULL,
  event_type TEXT NOT NULL, payload_json TEXT NOT NULL, causation_id TEXT, correlation_id TEXT)`

function iso(ms: number): string {
  return new Date(ms).toISOString()
}

function fresh(path: string): Database.Database {
  mkdirSync(dirname(path), { recursive: true })
  for (const s of ['', '-wal', '-shm', '-journal']) rmSync(path + s, { force: true })
  const db = new Database(path)
  db.pragma('journal_mode = DELETE')
  return db
}

/**
 * Write `db/sessions.db`, `db/session-search.db` and `teams/teams.db` under `<home>/.cline/data`,
 * reading the fixture's transcripts from the same home. Replaces existing files.
 */
export function writeSeed000Databases(home: string): void {
  const data = join(home, '.cline', 'data')
  const sessionsDir = join(data, 'sessions')
  const orig = '/home/u/.cline/data/sessions'
  const p = SEED000.project
  const leadMeta = JSON.parse(readFileSync(join(sessionsDir, SEED000.lead, `${SEED000.lead}.json`), 'utf8')) as { metadata: unknown }

  const sdb = fresh(join(data, 'db', 'sessions.db'))
  sdb.exec(SESSIONS_SQL)
  const ins = sdb.prepare(`INSERT INTO sessions (session_id, source, pid, started_at, ended_at, exit_code, status, interactive, provider, model, cwd,
    workspace_root, team_name, enable_tools, enable_spawn, enable_teams, parent_session_id, parent_agent_id, agent_id, is_subagent, prompt,
    metadata_json, hook_path, messages_path, updated_at) VALUES (@session_id, @source, @pid, @started_at, @ended_at, @exit_code, @status,
    @interactive, @provider, @model, @cwd, @workspace_root, @team_name, 1, 1, 1, @parent_session_id, @parent_agent_id, @agent_id, @is_subagent,
    @prompt, @metadata_json, '', @messages_path, @updated_at)`)
  const row = (r: Record<string, unknown>) =>
    ins.run({
      source: 'cli', pid: 4242, ended_at: null, exit_code: 0, status: 'completed', interactive: 1, provider: 'anthropic', model: 'claude-sonnet-4-5',
      cwd: p, workspace_root: p, team_name: null, parent_session_id: null, parent_agent_id: null, agent_id: null, is_subagent: 0, prompt: null,
      metadata_json: null, ...r,
    })
  row({ session_id: SEED000.lead, started_at: iso(1760000000000), ended_at: iso(1760000010000), team_name: 'qa-team', prompt: 'fix tests',
    metadata_json: JSON.stringify(leadMeta.metadata), messages_path: `${orig}/${SEED000.lead}/${SEED000.lead}.messages.json`, updated_at: iso(1760000010000) })
  row({ session_id: SEED000.sub, started_at: iso(1760000005500), ended_at: iso(1760000008000), model: 'claude-haiku-4-5', parent_session_id: SEED000.lead,
    parent_agent_id: 'agent_lead', agent_id: 'agent_sub01', is_subagent: 1, prompt: 'find the flaky test',
    messages_path: `${orig}/${SEED000.lead}/agent_sub01.messages.json`, updated_at: iso(1760000008000) })
  row({ session_id: SEED000.imported, source: 'desktop', pid: 5151, started_at: iso(1760000100000), model: 'claude-opus-4-5', prompt: 'port the parser',
    metadata_json: JSON.stringify({ title: 'port the parser' }), messages_path: `${orig}/${SEED000.imported}/${SEED000.imported}.messages.json`, updated_at: iso(1760000101000) })
  row({ session_id: SEED000.gone, pid: 6161, started_at: iso(1760000200000), ended_at: iso(1760000201000), prompt: 'bump the version',
    metadata_json: JSON.stringify({ title: 'bump the version', 'enterprise.blobUpload': { version: 1, storage: { adapterType: 'r2', bucket: 'acme-r2', accountId: 'cf-acct-9' } } }),
    messages_path: `${orig}/${SEED000.gone}/${SEED000.gone}.messages.json`, updated_at: iso(1760000201000) })
  sdb.close()

  const idx = fresh(join(data, 'db', 'session-search.db'))
  for (const sql of SEARCH_SQL) idx.exec(sql)
  const doc = idx.prepare('INSERT INTO session_search (session_id, document_id, ordinal, role, started_at, workspace_root, title, content) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
  const indexed = idx.prepare('INSERT INTO indexed_sessions (session_id, source_revision, indexed_at, document_count, index_version, title) VALUES (?, ?, ?, ?, 2, ?)')
  const indexSession = (id: string, file: string | undefined, startedAt: string, title: string, prompt: string, revision: string, extra: { role: string; content: string }[] = []) => {
    doc.run(id, `${id}:metadata`, -1, 'session', startedAt, p, title, prompt)
    let count = 1
    let n = 0
    if (file) {
      const messages = (JSON.parse(readFileSync(file, 'utf8')) as { messages: { role: string }[] }).messages
      for (const m of messages) {
        const text = indexText(m)
        if (text) {
          doc.run(id, `${id}:${n}`, n, m.role, startedAt, p, '', text)
          count++
        }
        n++
      }
    }
    for (const e of extra) {
      doc.run(id, `${id}:${n}`, n, e.role, startedAt, p, '', e.content)
      count++
      n++
    }
    indexed.run(id, revision, iso(1760000700000), count, title)
  }
  const leadFile = join(sessionsDir, SEED000.lead, `${SEED000.lead}.messages.json`)
  const subFile = join(sessionsDir, SEED000.lead, 'agent_sub01.messages.json')
  // The lead transcript lost its last user turn after the hub indexed it (revision size differs).
  indexSession(SEED000.lead, leadFile, iso(1760000000000), 'fix tests', 'fix tests', `${iso(1760000011000)}:99999:1760000011000.25`, [
    { role: 'user', content: 'and run the linter too' },
  ])
  indexSession(SEED000.sub, subFile, iso(1760000005500), 'find the flaky test', 'find the flaky test', `${iso(1760000008000)}:${statSync(subFile).size}:1760000008000.5`)
  // Deleted by hand while no Cline process ran: transcript and sessions.db row are gone.
  indexSession(SEED000.deleted, undefined, iso(1759990000000), 'rename the config loader', 'rename the config loader', `${iso(1759990009000)}:2048:1759990009000.5`, [
    { role: 'user', content: 'rename the config loader' },
    { role: 'assistant', content: 'text\nRenaming the module.\ntool_use\ncall_d1\nbash\ngit mv config_loader.py config_reader.py' },
    { role: 'user', content: 'tool_result\ncall_d1\nbash\nfatal: not under version control' },
    { role: 'assistant', content: 'text\nThe file is not under version control; renamed it with mv instead.' },
  ])
  idx.close()

  const teams = fresh(join(data, 'teams', 'teams.db'))
  teams.exec(TEAMS_SQL)
  const ev = teams.prepare('INSERT INTO team_events (team_name, ts, event_type, payload_json, causation_id, correlation_id) VALUES (?, ?, ?, ?, NULL, ?)')
  ev.run('qa-team', iso(1760000009050), 'task_start', JSON.stringify({ type: 'task_start', agentId: 'reviewer', taskId: 'task_0001' }), 'corr-1')
  ev.run('qa-team', iso(1760000009300), 'team_message', JSON.stringify({ agentId: 'reviewer', message: 'reviewer: looks good' }), null)
  ev.run('qa-team', iso(1760000009600), 'task_end', JSON.stringify({ type: 'task_end', agentId: 'reviewer', taskId: 'task_0001', result: { text: 'Approved.' } }), 'corr-1')
  ev.run('night-shift', iso(1760000009700), 'run_progress', JSON.stringify({ message: 'heartbeat' }), null)
  teams.close()
}
