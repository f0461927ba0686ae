/** The Codex writer: thread id, rollout path and lines, the threads row and its backup, faults, dry run. */
import Database from 'better-sqlite3'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MessageNode, Session } from '../../../shared/ir'
import { findAppRoot } from '../../context'
import { FIXTURE_SOURCES, readFixtureSessions } from '../../../../tests/builders/fixture-sources'
import { prepareForTarget } from '../../convert/prepare'
import { transcriptOf } from '../../convert/transcript'
import { readBack } from '../read-back'
import { VOCABULARIES } from '../../convert/vocab'
import { layoutForHome } from '../../platform'
import type { WriteOptions } from '../types'
import { codex } from './index'
import { codexThreadId, rolloutRelativePath, writeCodexSession } from './write'

const FIXTURE_DB = join(findAppRoot(), 'fixtures/real/codex/home/.codex/state_5.sqlite')
const NOW = Date.parse('2026-12-01T10:00:00.000Z')
const UUID = '12345678-9abc-4def-9123-456789abcdef'
/** The Claude Code source's start and last activity (fixtures/real/claude-code, session c79310a4): the thread's times. */
const START = Date.parse('2026-11-30T07:02:28.240Z')
const LAST = Date.parse('2026-11-30T07:02:33.640Z')
const ID = codexThreadId(START, UUID)
const profile = { agent: 'codex' as const, displayName: 'Codex', providerFamily: 'openai' as const, vocabulary: VOCABULARIES.codex! }

async function prepared(label: string, id: string): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === label)!)
  return prepareForTarget(sessions.find((x) => x.id === id)!, profile, { textOnly: false }).session
}
const claudeTools = () => prepared('claude-code', 'c79310a4-1627-4beb-8788-81d2e0fc6af8')

async function options(home: string, over: Partial<WriteOptions> = {}): Promise<WriteOptions> {
  return {
    layout: await layoutForHome({ home }),
    textOnly: false,
    dryRun: false,
    now: () => NOW,
    newId: () => UUID,
    sourceRef: { agent: 'claude-code', sessionId: 'c79310a4-1627-4beb-8788-81d2e0fc6af8' },
    ...over,
  }
}

type Line = { timestamp?: string; type: string; payload: Record<string, unknown> }
const lines = (file: string): Line[] => readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Line)
const threads = (db: string) => {
  const d = new Database(db, { readonly: true })
  try {
    return d.prepare('SELECT * FROM threads ORDER BY id').all() as Record<string, unknown>[]
  } finally {
    d.close()
  }
}
/** A home whose Codex has run: a copy of the real store's thread index. */
function homeWithIndex(): { home: string; db: string } {
  const home = mkdtempSync(join(tmpdir(), 'sepia-cxw-'))
  mkdirSync(join(home, '.codex'), { recursive: true })
  const db = join(home, '.codex', 'state_5.sqlite')
  copyFileSync(FIXTURE_DB, db)
  return { home, db }
}

describe('codexThreadId', () => {
  it('is a UUIDv7: the ms time, version 7, then the random bits of the v4 id', () => {
    // The real thread 01a22b43-64f5-7001-a0f5-62902c07c581 (fixtures/real/codex) was created at 0x01a22b4364f5 ms.
    expect(codexThreadId(0x01a22b4364f5, 'ffffffff-ffff-4001-a0f5-62902c07c581')).toBe('01a22b43-64f5-7001-a0f5-62902c07c581')
    expect(ID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(parseInt(ID.replace(/-/g, '').slice(0, 12), 16)).toBe(START)
    expect(() => codexThreadId(NOW, 'not-a-uuid')).toThrow()
  })

  it('names the rollout by the local time of its creation', () => {
    const d = new Date(START)
    const p2 = (n: number) => String(n).padStart(2, '0')
    const day = `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())}`
    const expected = join('sessions', String(d.getFullYear()), p2(d.getMonth() + 1), p2(d.getDate()), `rollout-${day}T${p2(d.getHours())}-${p2(d.getMinutes())}-${p2(d.getSeconds())}-${ID}.jsonl`)
    expect(rolloutRelativePath(START, ID)).toBe(expected)
  })
})

describe('writeCodexSession', () => {
  it('writes one rollout under sessions/ with the lines Codex 0.171 resumes, and no thread index', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-cxw-'))
    const r = await writeCodexSession(await claudeTools(), await options(home))
    const file = join(home, '.codex', rolloutRelativePath(START, ID))
    expect(r.output).toEqual({ sessionId: ID, files: [file], resumeCommand: `codex resume ${ID}`, cwd: '/home/ana/src/ledger-api', backups: [] })
    // Codex builds its index itself on its next start (see write.ts): no database is made.
    expect(readdirSync(join(home, '.codex'))).toEqual(['sessions'])
    const all = lines(file)
    expect(all.every((l) => typeof l.timestamp === 'string' && !Number.isNaN(Date.parse(l.timestamp)))).toBe(true)
    expect(all[0]).toEqual({
      timestamp: '2026-11-30T07:02:28.240Z',
      type: 'session_meta',
      payload: { id: ID, timestamp: '2026-11-30T07:02:28.240Z', cwd: '/home/ana/src/ledger-api', originator: 'codex_cli_rs', cli_version: '0.171.0', source: 'cli', git: { branch: 'main' } },
    })
    const kinds = all.slice(1).map((l) => `${l.type}:${String(l.payload.type)}${l.payload.role ? `(${String(l.payload.role)})` : ''}${l.payload.name ? `(${String(l.payload.name)})` : ''}`)
    expect(kinds).toEqual([
      'turn_context:undefined', 'response_item:message(user)', 'event_msg:user_message',
      'response_item:message(assistant)', 'event_msg:agent_message', 'response_item:function_call(exec_command)', 'response_item:function_call_output',
      'response_item:message(assistant)', 'event_msg:agent_message', 'response_item:custom_tool_call(apply_patch)', 'response_item:custom_tool_call_output',
      'response_item:custom_tool_call(apply_patch)', 'response_item:custom_tool_call_output',
      'response_item:message(assistant)', 'event_msg:agent_message',
      'response_item:message(user)', 'event_msg:user_message',
      'response_item:message(assistant)', 'event_msg:agent_message', 'response_item:function_call(exec_command)', 'response_item:function_call_output',
      'response_item:message(assistant)', 'event_msg:agent_message',
    ])
    // The source's model, as Codex records a turn's model (one turn_context: the model never changes).
    expect(all[1]!.payload).toEqual({ cwd: '/home/ana/src/ledger-api', approval_policy: 'on-request', sandbox_policy: { type: 'read-only' }, model: 'claude-opus-5-5', summary: 'auto' })
    expect(all[1]!.timestamp).toBe(all[2]!.timestamp) // written with the turn's first message
    all.splice(1, 1)
    expect(all[1]!.payload).toEqual({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '[tools] List the files, then create NOTES.md and mark its TODO line as done.' }] })
    expect(all[2]!.payload).toEqual({ type: 'user_message', message: '[tools] List the files, then create NOTES.md and mark its TODO line as done.', images: [] })
    const exec = all.find((l) => l.payload.type === 'function_call')!.payload
    expect(exec).toMatchObject({ name: 'exec_command', arguments: '{"cmd":"ls -la"}' })
    expect(all.find((l) => l.payload.type === 'function_call_output')!.payload.call_id).toBe(exec.call_id)
    const patches = all.filter((l) => l.payload.type === 'custom_tool_call').map((l) => l.payload.input)
    expect(patches).toEqual([
      '*** Begin Patch\n*** Add File: NOTES.md\n+# Notes\n+\n+TODO: write tests for the parser\n*** End Patch\n',
      '*** Begin Patch\n*** Update File: NOTES.md\n@@\n-TODO: write tests for the parser\n+DONE: write tests for the parser\n*** End Patch\n',
    ])
    // Usage another agent measured is not written (Codex sizes its context from token_count).
    expect(all.some((l) => l.payload.type === 'token_count')).toBe(false)
    // prepareForTarget already left them out and said so (convert/issue-14.test.ts); nothing is left for the writer to drop.
    expect(r.warnings.find((w) => w.kind === 'input-usage-dropped')?.count ?? 0).toBe(0)
  })

  it('reads back through the Codex reader with the same turns, tool pairs and texts', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-cxw-'))
    const s = await claudeTools()
    await writeCodexSession(s, await options(home))
    const back = await readBack(codex, await layoutForHome({ home }), ID, { now: () => NOW })
    expect(back?.id).toBe(ID)
    expect(transcriptOf(back!)).toEqual(transcriptOf(s))
    // It lists with the source's time and model (a conversion used to list with its own time and no model).
    expect(back).toMatchObject({ createdAt: START, model: 'claude-opus-5-5' })
    expect(back!.nodes.filter((n) => n.role === 'assistant').every((n) => n.model === 'claude-opus-5-5')).toBe(true)
    expect(back!.nodes.some((n) => n.event === 'model-change')).toBe(false)
    expect(back!.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
  })

  it('records a model change in a new turn_context, as Codex does; a session without a model gets none', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-cxw-'))
    const s = await claudeTools()
    const second = s.nodes.findIndex((n, i) => i > 0 && n.role === 'user')
    for (const n of s.nodes.slice(second)) if (n.role === 'assistant') n.model = 'claude-sonnet-5'
    const r = await writeCodexSession(s, await options(home))
    const all = lines(r.output.files[0]!)
    expect(all.filter((l) => l.type === 'turn_context').map((l) => l.payload.model)).toEqual(['claude-opus-5-5', 'claude-sonnet-5'])
    const back = await readBack(codex, await layoutForHome({ home }), r.output.sessionId, { now: () => NOW })
    expect(back!.nodes.filter((n) => n.role === 'assistant').map((n) => n.model)).toEqual(s.nodes.filter((n) => n.role === 'assistant').map((n) => n.model))
    const bare = await claudeTools()
    delete bare.model
    for (const n of bare.nodes) delete n.model
    const none = await writeCodexSession(bare, await options(mkdtempSync(join(tmpdir(), 'sepia-cxw-'))))
    expect(lines(none.output.files[0]!).some((l) => l.type === 'turn_context')).toBe(false)
  })

  it('writes under $CODEX_HOME and names the provider of its config.toml', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-cxw-'))
    const codexHome = join(home, 'elsewhere')
    mkdirSync(codexHome)
    writeFileSync(join(codexHome, 'config.toml'), 'model = "gpt-5.5"\nmodel_provider = "mock"\n\n[model_providers.mock]\nname = "mock"\n')
    const layout = await layoutForHome({ home, isOwnHome: true, env: { CODEX_HOME: codexHome } })
    const r = await writeCodexSession(await claudeTools(), await options(home, { layout }))
    expect(r.output.files).toEqual([join(codexHome, rolloutRelativePath(START, ID))])
    expect(lines(r.output.files[0]!)[0]!.payload.model_provider).toBe('mock')
  })

  it('adds a threads row after a backup when Codex has its index, keeping the other rows', async () => {
    const { home, db } = homeWithIndex()
    const before = threads(db)
    const r = await writeCodexSession(await claudeTools(), await options(home))
    const file = join(home, '.codex', rolloutRelativePath(START, ID))
    expect(r.output.files).toEqual([file, db])
    expect(r.output.backups).toEqual([`${db}.sepia-backup-20261201T100000Z`])
    expect(threads(r.output.backups[0]!)).toEqual(before)
    const after = threads(db)
    expect(after.filter((t) => t.id !== ID)).toEqual(before)
    const prompt = '[tools] List the files, then create NOTES.md and mark its TODO line as done.'
    expect(after.find((t) => t.id === ID)).toMatchObject({
      rollout_path: file,
      created_at: Math.floor(START / 1000),
      created_at_ms: START,
      updated_at: Math.floor(LAST / 1000),
      updated_at_ms: LAST,
      recency_at_ms: LAST,
      source: 'cli',
      model_provider: 'openai',
      cwd: '/home/ana/src/ledger-api',
      title: prompt,
      preview: prompt,
      first_user_message: prompt,
      approval_mode: 'on-request',
      archived: 0,
      history_mode: 'legacy',
      originator: 'codex_cli_rs',
      cli_version: '0.171.0',
      model: 'claude-opus-5-5',
      git_branch: 'main',
    })
    // The reader finds it through the index as well.
    const back = await readBack(codex, await layoutForHome({ home }), ID, { now: () => NOW })
    expect(back?.title).toBe(prompt)
  })

  it('writes a Codex source usage as token_count events, and separates two answers in a row', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-cxw-'))
    const s = await prepared('codex', '01a22b43-66c3-75f0-90de-6d1ff6499d33')
    // The last answer without usage, then another answer right after it: nothing else separates them.
    delete s.nodes[s.nodes.length - 1]!.usage
    const lone: MessageNode = { nodeId: 'extra', role: 'assistant', content: 'A second answer in a row.' }
    s.nodes.push(lone)
    const r = await writeCodexSession(s, await options(home, { sourceRef: { agent: 'codex', sessionId: '01a22b43-66c3-75f0-90de-6d1ff6499d33' } }))
    const counts = lines(r.output.files[0]!).filter((l) => l.payload.type === 'token_count').map((l) => l.payload.info as { total_token_usage: { total_tokens: number }; last_token_usage: { input_tokens: number } } | null)
    expect(counts.filter((c) => c !== null).map((c) => c!.total_token_usage.total_tokens)).toEqual([7075, 14414, 21888, 29480, 37216])
    expect(counts[counts.length - 1]).toBeNull()
    expect(r.warnings.find((w) => w.kind === 'input-usage-dropped')?.count).toBe(0)
    const back = await readBack(codex, await layoutForHome({ home }), r.output.sessionId, { now: () => NOW })
    expect(transcriptOf(back!)).toEqual(transcriptOf(s))
    expect(back!.nodes.filter((n) => n.role === 'assistant').map((n) => n.usage?.outputTokens)).toEqual([158, 116, 76, 59, 104, undefined, undefined])
  })

  it('never overwrites an existing rollout', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-cxw-'))
    const file = join(home, '.codex', rolloutRelativePath(START, ID))
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, 'theirs\n')
    await expect(writeCodexSession(await claudeTools(), await options(home))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(readFileSync(file, 'utf8')).toBe('theirs\n')
    expect(readdirSync(join(file, '..'))).toEqual([basename(file)])
  })

  it('a dry run returns the id and files and writes nothing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-cxw-'))
    const r = await writeCodexSession(await claudeTools(), await options(home, { dryRun: true }))
    expect(r.output.sessionId).toBe(ID)
    expect(r.output.files).toEqual([join(home, '.codex', rolloutRelativePath(START, ID))])
    expect(readdirSync(home)).toEqual([])
  })

  it.each([`staged:${basename(rolloutRelativePath(START, ID))}`, `renamed:${basename(rolloutRelativePath(START, ID))}`, 'db-backup', 'db-insert'])(
    'a fault at %s leaves the store as it was',
    async (step) => {
      const { home, db } = homeWithIndex()
      const before = threads(db)
      const fault = (s: string) => {
        if (s === step) throw new Error('power cut (injected)')
      }
      await expect(writeCodexSession(await claudeTools(), await options(home, { fault }))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
      expect(existsSync(join(home, '.codex', 'sessions'))).toBe(false)
      expect(threads(db)).toEqual(before)
      expect(readdirSync(join(home, '.codex')).filter((f) => f.includes('sepia'))).toEqual([])
    },
  )
})

describe('Codex to Codex keeps tool namespaces (issue 14)', () => {
  it('writes function_call.namespace back for the multi-agent calls of a real rollout', async () => {
    const src = join(findAppRoot(), 'fixtures/public-real/codex/graph-0145-multiagent/home')
    const { refs } = await codex.discover(await layoutForHome({ home: src }), { now: () => 0 })
    const session = await codex.read(refs[0]!, { now: () => 0 })
    const key = (name: string, namespace: unknown) => `${typeof namespace === 'string' ? namespace : ''}/${name}`
    const source = session.nodes.flatMap((n) => n.toolCalls ?? []).filter((c) => c.namespace !== undefined).map((c) => key(c.name, c.namespace)).sort()
    expect(source.length).toBe(57) // 57 function_call items of the raw rollout carry `namespace: "collaboration"`
    const ready = prepareForTarget(session, profile, { textOnly: false }).session
    const home = mkdtempSync(join(tmpdir(), 'sepia-cxns-'))
    const r = await writeCodexSession(ready, await options(home, { sourceRef: { agent: 'codex', sessionId: session.id } }))
    const written = lines(r.output!.files[0]!).filter((l) => l.payload.type === 'function_call' && l.payload.namespace !== undefined)
    expect(written.map((l) => key(String(l.payload.name), l.payload.namespace)).sort()).toEqual(source)
  })
})
