/** The Cline writer: id, the trio (messages, manifest, sessions.db row), schema, backup, faults. */
import Database from 'better-sqlite3'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
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
import { clineSessionId, writeClineSession } from './write'
import { openSqliteReadOnly } from '../../util/sqlite'

const FIXTURE_DB = join(findAppRoot(), 'fixtures/real/cline/home/.cline/data/db/sessions.db')
/** A copy of the real store's sessions.db (a fixture database is never opened in place). */
const REAL_DB = join(mkdtempSync(join(tmpdir(), 'sepia-clw-real-')), 'sessions.db')
copyFileSync(FIXTURE_DB, REAL_DB)
const NOW = Date.parse('2026-12-01T10:00:00.000Z')

async function preparedClaudeTools(): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === 'claude-code')!)
  const s = sessions.find((x) => x.id === 'c79310a4-1627-4beb-8788-81d2e0fc6af8')!
  return prepareForTarget(s, { agent: 'cline', displayName: 'Cline', providerFamily: 'any', vocabulary: VOCABULARIES.cline! }, { textOnly: false }).session
}

async function options(home: string, over: Partial<WriteOptions> = {}): Promise<WriteOptions> {
  return {
    layout: await layoutForHome({ home }),
    textOnly: false,
    dryRun: false,
    now: () => NOW,
    newId: () => 'ab12c3d4-0000-4000-8000-000000000000',
    sourceRef: { agent: 'claude-code', sessionId: 'c79310a4-1627-4beb-8788-81d2e0fc6af8', path: '/home/ana/.claude/projects/x/c79310a4.jsonl' },
    ...over,
  }
}

const ID = `${NOW}_ab12c`
// Through a temporary copy: opening the real fixture in place would add -wal/-shm beside it.
const columns = (db: string) => {
  const d = openSqliteReadOnly(db)
  try {
    return (d.db.prepare('PRAGMA table_info(sessions)').all() as { name: string; type: string; notnull: number }[]).map((c) => `${c.name} ${c.type} ${c.notnull}`)
  } finally {
    d.close()
  }
}
const rows = (db: string) => {
  const d = new Database(db, { readonly: true })
  try {
    return d.prepare('SELECT * FROM sessions ORDER BY session_id').all() as Record<string, unknown>[]
  } finally {
    d.close()
  }
}

describe('writeClineSession', () => {
  it('makes an id <ms>_<5 alnum>', () => {
    expect(clineSessionId(1796022183774, 'V75N-VXYZ')).toBe('1796022183774_v75nv')
    expect(clineSessionId(NOW, 'ab12c3d4-0000')).toMatch(/^\d{13}_[a-z0-9]{5}$/)
  })

  it('writes the messages file, the manifest and a sessions.db row created with the real schema', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-clw-'))
    const r = await writeClineSession(await preparedClaudeTools(), await options(home))
    const dir = join(home, '.cline/data/sessions', ID)
    const db = join(home, '.cline/data/db/sessions.db')
    expect(r.output).toEqual({
      sessionId: ID,
      files: [join(dir, `${ID}.messages.json`), join(dir, `${ID}.json`), db],
      resumeCommand: `cline --id ${ID}`,
      cwd: '/home/ana/src/ledger-api',
      backups: [],
    })
    expect(columns(db)).toEqual(columns(REAL_DB))
    const manifest = JSON.parse(readFileSync(join(dir, `${ID}.json`), 'utf8'))
    expect(manifest).toMatchObject({ version: 1, session_id: ID, source: 'cli', status: 'completed', cwd: '/home/ana/src/ledger-api', messages_path: join(dir, `${ID}.messages.json`) })
    // The origin, in a shape Cline does not treat as its own import (that one is summarized on resume).
    expect(manifest.metadata.importedFrom).toEqual({
      agent: 'claude-code',
      sessionId: 'c79310a4-1627-4beb-8788-81d2e0fc6af8',
      path: '/home/ana/.claude/projects/x/c79310a4.jsonl',
      importedAt: '2026-12-01T10:00:00.000Z',
      importer: 'sepia',
      provider: 'anthropic',
      model: 'claude-opus-5-5',
    })
    expect(manifest.metadata.importedFrom.tool).toBeUndefined()
    const [row] = rows(db)
    expect(row).toMatchObject({ session_id: ID, messages_path: manifest.messages_path, is_subagent: 0, interactive: 0, provider: 'anthropic', model: 'claude-opus-5-5' })
    expect(JSON.parse(row!.metadata_json as string).importedFrom.sessionId).toBe('c79310a4-1627-4beb-8788-81d2e0fc6af8')
    const doc = JSON.parse(readFileSync(join(dir, `${ID}.messages.json`), 'utf8'))
    expect(doc).toMatchObject({ version: 1, agent: 'lead', sessionId: ID, origin: { source: 'cli', mode: 'user', sessionId: ID } })
    const roles = doc.messages.map((m: { role: string; content: { type: string; name?: string }[] }) => `${m.role}:${m.content.map((b) => `${b.type}${b.name ? `(${b.name})` : ''}`).join(',')}`)
    expect(roles).toEqual([
      'user:text',
      'assistant:text,tool_use(run_commands)',
      'user:tool_result(run_commands)',
      'assistant:text,tool_use(editor)',
      'user:tool_result(editor)',
      'assistant:tool_use(editor)',
      'user:tool_result(editor)',
      'assistant:text',
      'user:text',
      'assistant:text,tool_use(run_commands)',
      'user:tool_result(run_commands)',
      'assistant:text',
    ])
    const result = doc.messages.find((m: { role: string; content: { type: string }[] }) => m.content[0]?.type === 'tool_result').content[0]
    expect(result).toMatchObject({ type: 'tool_result', name: 'run_commands', content: [{ query: 'ls -la', success: true }] })
    // Input counts measured with Claude Code's prompt are left out (Cline would compact the session).
    expect(doc.messages.filter((m: { metrics?: { inputTokens?: number } }) => m.metrics?.inputTokens !== undefined)).toEqual([])
    // prepareForTarget already left them out and said so (convert/issue-14.test.ts); nothing is left for the writer to drop.
    expect(r.warnings.find((w) => w.kind === 'input-usage-dropped')?.count ?? 0).toBe(0)
  })

  it('backs up an existing sessions.db before adding the row, and keeps its rows', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-clw-'))
    const db = join(home, '.cline/data/db/sessions.db')
    mkdirSync(join(home, '.cline/data/db'), { recursive: true })
    copyFileSync(REAL_DB, db)
    const before = rows(db)
    const r = await writeClineSession(await preparedClaudeTools(), await options(home))
    expect(r.output.backups).toEqual([`${db}.sepia-backup-20261201T100000Z`])
    expect(rows(r.output.backups[0]!)).toEqual(before)
    const after = rows(db)
    expect(after.length).toBe(before.length + 1)
    expect(after.filter((x) => x.session_id !== ID)).toEqual(before)
  })

  it('uses the provider and model the home is set up with', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-clw-'))
    mkdirSync(join(home, '.cline/data/settings'), { recursive: true })
    writeFileSync(join(home, '.cline/data/settings/providers.json'), JSON.stringify({ version: 1, lastUsedProvider: 'openai-compatible', providers: { 'openai-compatible': { settings: { provider: 'openai-compatible', model: 'mock-model', apiKey: 'sk-x' } } } }))
    await writeClineSession(await preparedClaudeTools(), await options(home))
    expect(rows(join(home, '.cline/data/db/sessions.db'))[0]).toMatchObject({ provider: 'openai-compatible', model: 'mock-model' })
  })

  it.each(['staged:' + ID + '.json', 'renamed:' + ID + '.messages.json', 'db-insert'])('a fault at %s leaves the store as it was', async (step) => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-clw-'))
    const db = join(home, '.cline/data/db/sessions.db')
    mkdirSync(join(home, '.cline/data/db'), { recursive: true })
    copyFileSync(REAL_DB, db)
    const before = rows(db)
    const fault = (s: string) => {
      if (s === step) throw new Error('power cut (injected)')
    }
    await expect(writeClineSession(await preparedClaudeTools(), await options(home, { fault }))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(existsSync(join(home, '.cline/data/sessions'))).toBe(false)
    expect(rows(db)).toEqual(before)
    expect(readdirSync(join(home, '.cline/data/db')).filter((f) => f.includes('sepia'))).toEqual([])
  })

  it('a fault while creating a missing sessions.db leaves no database', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-clw-'))
    const fault = (s: string) => {
      if (s === 'db-created') throw new Error('crash (injected)')
    }
    await expect(writeClineSession(await preparedClaudeTools(), await options(home, { fault }))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(existsSync(join(home, '.cline/data/sessions'))).toBe(false)
    expect(readdirSync(join(home, '.cline/data/db'))).toEqual([])
  })
})
