/**
 * The Devin writer: id, where the database goes, the rows against the documented schema (C2-C5),
 * read-back with the Devin reader, backup, faults, dry run, never overwriting. No Devin CLI runs
 * here, so the schema and the reader are the proof (src/main/convert/README.md).
 */
import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Session } from '../../../shared/ir'
import { FIXTURE_SOURCES, readFixtureSessions } from '../../../../tests/builders/fixture-sources'
import { prepareForTarget } from '../../convert/prepare'
import { transcriptOf } from '../../convert/transcript'
import { readBack } from '../read-back'
import { VOCABULARIES } from '../../convert/vocab'
import { layoutForHome } from '../../platform'
import type { WriteOptions } from '../types'
import { devin } from './index'
import { MIGRATION_CHECKSUMS, MIGRATIONS, SCHEMA_17_TABLES } from './schema'
import { devinSessionId, devinStoreDir, graftCogs, writeDevinSession } from './write'

const NOW = Date.parse('2026-12-01T10:00:00.000Z')
const UUID = 'ab12c3d4-0000-4000-8000-000000000000'
const ID = 'eager-fog' // ADJECTIVES[0xab12 % 64], NOUNS[0xc3d4 % 64]
const DB = (home: string) => join(home, '.local/share/devin/cli/sessions.db')
const profile = { agent: 'devin' as const, displayName: 'Devin CLI', providerFamily: 'devin' as const, vocabulary: VOCABULARIES.devin! }

async function source(label: string, id: string): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === label)!)
  return sessions.find((s) => s.id === id)!
}
const prepared = async (label: string, id: string) => prepareForTarget(await source(label, id), profile, { textOnly: false }).session

async function options(home: string, over: Partial<WriteOptions> = {}): Promise<WriteOptions> {
  let n = 0
  return {
    layout: await layoutForHome({ home }),
    textOnly: false,
    dryRun: false,
    now: () => NOW,
    newId: () => (n++ === 0 ? UUID : `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`),
    sourceRef: { agent: 'claude-code', sessionId: 'c79310a4-1627-4beb-8788-81d2e0fc6af8', path: '/home/ana/.claude/projects/x/c79310a4.jsonl' },
    ...over,
  }
}

/** A copy of the Devin fixture home (its sessions.db exists, schema 17). */
function fixtureHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'sepia-dvw-fx-'))
  cpSync(FIXTURE_SOURCES.find((s) => s.label === 'devin')!.home(), home, { recursive: true })
  return home
}

function query<T = Record<string, unknown>>(db: string, sql: string, ...args: unknown[]): T[] {
  const d = new Database(db, { readonly: true, fileMustExist: true })
  try {
    return d.prepare(sql).all(...args) as T[]
  } finally {
    d.close()
  }
}
const ddl = (db: string) => query<{ name: string; sql: string }>(db, "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
const documented = (tables: readonly string[]) =>
  tables.map((sql) => ({ name: /^CREATE TABLE (\w+)/.exec(sql)![1]!, sql })).sort((a, b) => a.name.localeCompare(b.name))
const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex')
/** Every row of every table, per table, as JSON (BLOBs as hex), for byte-for-byte comparisons. */
function dump(db: string, except?: string): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const { name } of ddl(db)) {
    const rows = query(db, `SELECT * FROM "${name}" ORDER BY rowid`)
    const has = rows.length > 0 && ('session_id' in rows[0]! || name === 'sessions')
    out[name] = rows.filter((r) => !has || (name === 'sessions' ? r.id : r.session_id) !== except).map((r) => JSON.stringify(r, (_k, v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)))
  }
  return out
}

/** Checks every column constraint of the new session's rows against PRAGMA table_info and the units of C3/C4. */
function checkRows(db: string, id: string): void {
  for (const [table, key] of [['sessions', 'id'], ['message_nodes', 'session_id'], ['tool_call_state', 'session_id'], ['prompt_history', 'session_id']] as const) {
    const cols = query<{ name: string; type: string; notnull: number }>(db, `PRAGMA table_info("${table}")`)
    for (const c of cols) {
      const types = query<{ t: string }>(db, `SELECT DISTINCT typeof("${c.name}") AS t FROM "${table}" WHERE "${key}" = ?`, id).map((r) => r.t)
      const allowed = [c.type === 'INTEGER' ? 'integer' : 'text', ...(c.notnull ? [] : ['null'])]
      for (const t of types) expect(allowed, `${table}.${c.name} is ${t}`).toContain(t)
    }
  }
  const [s] = query<{ created_at: number; last_activity_at: number }>(db, 'SELECT * FROM sessions WHERE id = ?', id)
  for (const v of [s!.created_at, s!.last_activity_at]) expect(v).toBeLessThan(1e10) // unix seconds (C3)
  for (const r of query<{ created_at: number }>(db, 'SELECT created_at FROM message_nodes WHERE session_id = ?', id)) expect(r.created_at).toBeLessThan(1e10)
  expect(query(db, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }])
  expect(query(db, 'PRAGMA foreign_key_check')).toEqual([])
}

describe('writeDevinSession', () => {
  it('makes two-word slugs (C3) and finds the store folder (C1)', async () => {
    expect(devinSessionId(UUID)).toBe(ID)
    expect(devinSessionId('ffffffff-ffff')).toBe('wandering-willow')
    expect(devinStoreDir(await layoutForHome({ home: '/home/ana', os: 'linux' }))).toBe('/home/ana/.local/share/devin/cli')
    expect(devinStoreDir(await layoutForHome({ home: '/Users/ana', os: 'darwin' }))).toBe('/Users/ana/.local/share/devin/cli')
    expect(devinStoreDir(await layoutForHome({ home: 'C:\\Users\\ana', os: 'win32' }))).toBe('C:\\Users\\ana\\AppData\\Local\\devin\\cli')
  })

  it('writes a Windows home under %LOCALAPPDATA%\\devin\\cli, where the reader finds it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-dvw-win-'))
    const layout = await layoutForHome({ home, os: 'win32' })
    const r = await writeDevinSession(await prepared('devin', 'quiet-harbor'), { ...(await options(home)), layout })
    expect(r.output.files).toEqual([join(home, 'AppData/Local/devin/cli/sessions.db')])
    expect((await readBack(devin, layout, ID, { now: () => NOW }))?.id).toBe(ID)
  })

  it('grafts only the core/model cog of the donor (seed 002 "Resumable via")', () => {
    expect(graftCogs('{"core":{"model":"swe-2-high","x":1},"workspace":{"a":1}}')).toBe('{"core":{"model":"swe-2-high"}}')
    expect(graftCogs('{"core/model":{"slug":"swe-2"},"workspace/context":{}}')).toBe('{"core/model":{"slug":"swe-2"}}')
    expect(graftCogs('[{"key":"core/model","v":1},{"key":"workspace/context"}]')).toBe('[{"key":"core/model","v":1}]')
    expect([graftCogs(undefined), graftCogs('{not json'), graftCogs('{"other":1}')]).toEqual([null, null, null])
  })

  it('creates a missing sessions.db with the real schema and writes the documented rows', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-dvw-'))
    const session = await prepared('claude-code', 'c79310a4-1627-4beb-8788-81d2e0fc6af8')
    const r = await writeDevinSession(session, await options(home))
    const db = DB(home)
    expect(r.output).toEqual({ sessionId: ID, files: [db], resumeCommand: `devin --resume ${ID}`, cwd: '/home/ana/src/ledger-api', backups: [] })
    expect(readdirSync(join(home, '.local/share/devin/cli'))).toEqual(['sessions.db'])
    // C2 tables of migrations 1-16 verbatim; migration 17 (subagent_heads) is left to the CLI (see schema.ts).
    expect(ddl(db)).toEqual(documented(SCHEMA_17_TABLES.filter((t) => !t.startsWith('CREATE TABLE subagent_heads'))))
    expect(query(db, 'SELECT version, name, checksum FROM refinery_schema_history ORDER BY version')).toEqual(
      MIGRATION_CHECKSUMS.map((checksum, i) => ({ version: i + 1, name: MIGRATIONS[i], checksum })),
    )
    expect(query(db, 'SELECT * FROM app_state')).toEqual([{ key: 'schema_compat_version', value: '0' }])
    checkRows(db, ID)
    const [row] = query(db, 'SELECT * FROM sessions')
    expect(row).toEqual({
      id: ID, working_directory: '/home/ana/src/ledger-api', backend_type: 'windsurf', model: '', agent_mode: 'normal',
      created_at: Math.floor(session.createdAt! / 1000), last_activity_at: expect.any(Number), title: expect.any(String),
      main_chain_id: session.nodes.length, shell_last_seen_index: 0, cogs_json: null, workspace_dirs: '[]', hidden: 0, metadata: expect.any(String),
    })
    expect(JSON.parse(row!.metadata as string)).toEqual({
      imported_from: { agent: 'claude-code', session_id: 'c79310a4-1627-4beb-8788-81d2e0fc6af8', path: '/home/ana/.claude/projects/x/c79310a4.jsonl', imported_at: '2026-12-01T10:00:00.000Z', importer: 'sepia', model: 'claude-opus-5-5' },
    })
    // The chain: node ids 1..n, each node's parent the previous one, the head = main_chain_id.
    const nodes = query<{ node_id: number; parent_node_id: number | null; chat_message: string; metadata: string }>(db, 'SELECT * FROM message_nodes ORDER BY node_id')
    expect(nodes.map((n) => [n.node_id, n.parent_node_id])).toEqual(session.nodes.map((_, i) => [i + 1, i === 0 ? null : i]))
    expect(JSON.parse(nodes[0]!.metadata)).toEqual({ summarized_from: null, num_tokens_preceding: null, is_system_prefix: null })
    const msgs = nodes.map((n) => JSON.parse(n.chat_message) as Record<string, any>)
    expect(msgs[0]).toEqual({ message_id: expect.any(String), role: 'user', content: session.nodes[0]!.content, metadata: { created_at: expect.any(String), is_user_input: true } })
    const call = msgs.find((m) => m.tool_calls)!
    expect(call.tool_calls[0]).toEqual({ id: expect.any(String), name: 'exec', arguments: { command: 'ls -la' }, index: 0, kind: 'function' })
    expect(call.thinking).toBeUndefined() // Anthropic-sealed thinking is not Devin's (prepare.ts dropped it)
    expect(call.metadata.finish_reason).toBe('tool_calls')
    const result = msgs[msgs.indexOf(call) + 1]!
    expect(result).toEqual({
      message_id: expect.any(String), role: 'tool', tool_call_id: call.tool_calls[0].id, content: expect.any(String),
      metadata: { created_at: expect.any(String), extensions: { 'chisel/tool_result_meta': { success: true, kind: 'execute' } } },
    })
    expect(new Set(msgs.map((m) => m.message_id)).size).toBe(msgs.length)
    // One tool_call_state row per call: ACP ToolCall + final ToolCallUpdate (C5).
    const states = query<{ tool_call_id: string; tool_call_json: string; tool_call_update_json: string }>(db, 'SELECT * FROM tool_call_state')
    expect(states.length).toBe(msgs.flatMap((m) => m.tool_calls ?? []).length)
    const first = states.find((s) => s.tool_call_id === call.tool_calls[0].id)!
    expect(JSON.parse(first.tool_call_json)).toMatchObject({ toolCallId: first.tool_call_id, kind: 'execute', status: 'pending', rawInput: { command: 'ls -la' }, _meta: { 'cognition.ai/inferenceToolName': 'exec' } })
    expect(JSON.parse(first.tool_call_update_json)).toEqual({ toolCallId: first.tool_call_id, status: 'completed', _meta: { 'cognition.ai/inferenceToolName': 'exec' } })
    expect(query(db, 'SELECT content, is_shell FROM prompt_history ORDER BY id')).toEqual(session.nodes.filter((n) => n.role === 'user').map((n) => ({ content: n.content, is_shell: 0 })))
  })

  it('adds to an existing sessions.db after a backup; the other sessions stay byte-for-byte', async () => {
    const home = fixtureHome()
    const db = DB(home)
    const before = dump(db)
    const r = await writeDevinSession(await prepared('claude-code', 'c79310a4-1627-4beb-8788-81d2e0fc6af8'), await options(home))
    expect(r.output.backups).toEqual([`${db}.sepia-backup-20261201T100000Z`])
    expect(dump(r.output.backups[0]!)).toEqual(before)
    expect(dump(db, ID)).toEqual(before)
    expect(ddl(db)).toEqual(documented(SCHEMA_17_TABLES)) // schema 17 kept as it was
    checkRows(db, ID)
    // The donor (newest visible session, amber-falcon) gives backend and model.
    expect(query(db, 'SELECT backend_type, model FROM sessions WHERE id = ?', ID)).toEqual([{ backend_type: 'windsurf', model: 'swe-1-6-slow' }])
  })

  it('reads back with the Devin reader: same turns, tool pairs, texts, outcomes; twins written once', async () => {
    for (const [label, id] of [['claude-code', 'c79310a4-1627-4beb-8788-81d2e0fc6af8'], ['devin', 'quiet-harbor'], ['devin', 'amber-falcon']] as const) {
      const home = fixtureHome()
      const session = await prepared(label, id)
      const r = await writeDevinSession(session, await options(home))
      const back = (await readBack(devin, await layoutForHome({ home }), r.output.sessionId, { now: () => NOW }))!
      expect(transcriptOf(back)).toEqual(transcriptOf(session))
      expect(back.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
      expect(back.metadata.foldedTwins).toBeUndefined()
      expect(back.metadata.foldedCopies).toBeUndefined()
      const failed = session.nodes.filter((n) => n.role === 'tool' && n.isError).map((n) => n.toolCallId)
      const calls = back.nodes.flatMap((n) => n.toolCalls ?? [])
      expect(calls.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(failed)
      expect(calls.every((c) => c.status === 'failed' || c.status === 'completed')).toBe(true)
    }
  })

  it('keeps Devin-sealed thinking as {thinking, signature} and writes a twin pair once', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-dvw-'))
    const quiet = await prepared('devin', 'quiet-harbor')
    await writeDevinSession(quiet, await options(home))
    const msgs = query<{ chat_message: string }>(DB(home), 'SELECT chat_message FROM message_nodes ORDER BY node_id').map((r) => JSON.parse(r.chat_message))
    expect(msgs.filter((m) => m.thinking).map((m) => m.thinking)).toEqual([
      { thinking: 'Need to find argparse setup.', signature: 'sealed.v1.m-a1' },
      { thinking: 'Run unit and cli tests in parallel.', signature: 'sealed.v1.m-a3' },
    ])
    const amber = await prepared('devin', 'amber-falcon')
    const r = await writeDevinSession(amber, await options(home, { newId: () => '11110000-0000-4000-8000-000000000000' }))
    const texts = query<{ chat_message: string }>(DB(home), 'SELECT chat_message FROM message_nodes WHERE session_id = ?', r.output.sessionId).map((x) => JSON.parse(x.chat_message).content)
    expect(texts.filter((t) => t === "I'll write it.")).toEqual(["I'll write it."])
  })

  it.each(['db-backup', 'db-insert'])('a fault at %s leaves an existing database as it was, and no file', async (step) => {
    const home = fixtureHome()
    const db = DB(home)
    const hash = sha(db)
    const files = readdirSync(join(home, '.local/share/devin/cli')).sort()
    const fault = (s: string) => {
      if (s === step) throw new Error('power cut (injected)')
    }
    await expect(writeDevinSession(await prepared('devin', 'quiet-harbor'), await options(home, { fault }))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(sha(db)).toBe(hash)
    expect(readdirSync(join(home, '.local/share/devin/cli')).sort()).toEqual(files)
  })

  it.each(['db-insert', 'db-created'])('a fault at %s while creating the database leaves no file or folder', async (step) => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-dvw-'))
    const fault = (s: string) => {
      if (s === step) throw new Error('crash (injected)')
    }
    await expect(writeDevinSession(await prepared('devin', 'quiet-harbor'), await options(home, { fault }))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(readdirSync(home)).toEqual([])
  })

  it('never reuses an existing id, and a dry run writes nothing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-dvw-'))
    const dry = await writeDevinSession(await prepared('devin', 'quiet-harbor'), await options(home, { dryRun: true }))
    expect(dry.output).toMatchObject({ sessionId: ID, resumeCommand: `devin --resume ${ID}` })
    expect(readdirSync(home)).toEqual([])
    await writeDevinSession(await prepared('devin', 'quiet-harbor'), await options(home))
    const first = (db: string) => ['sessions WHERE id', 'message_nodes WHERE session_id', 'tool_call_state WHERE session_id'].map((t) => query(db, `SELECT * FROM ${t} = ?`, ID))
    const before = first(DB(home))
    const again = await writeDevinSession(await prepared('devin', 'still-river'), await options(home))
    expect(again.output.sessionId).not.toBe(ID)
    expect(again.output.sessionId).toMatch(/^[a-z]+-[a-z]+$/)
    const stuck = await writeDevinSession(await prepared('devin', 'still-river'), await options(home, { newId: () => UUID }))
    expect(stuck.output.sessionId).toMatch(new RegExp(`^${ID}-[0-9a-f]{6}$`))
    expect(first(DB(home))).toEqual(before)
    expect(query(DB(home), 'SELECT COUNT(*) AS n FROM sessions')).toEqual([{ n: 3 }])
    expect(existsSync(`${DB(home)}-journal`)).toBe(false)
  })
})
