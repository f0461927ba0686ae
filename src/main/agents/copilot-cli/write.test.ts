/** The Copilot CLI writer: folder, event envelope and chain, shapes, part order, dry run, atomicity, never overwriting. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { MessageNode, Session } from '../../../shared/ir'
import { FIXTURE_SOURCES, readFixtureSessions } from '../../../../tests/builders/fixture-sources'
import { prepareForTarget } from '../../convert/prepare'
import { VOCABULARIES } from '../../convert/vocab'
import { newSession } from '../../ir/build'
import { layoutForHome } from '../../platform'
import { readHomeOf } from '../../../../tests/builders/testing'
import type { WriteOptions } from '../types'
import { copilotCli } from './index'
import { writeCopilotCliSession } from './write'

type Rec = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const ID = '11111111-2222-4333-8444-555555555555'
const CWD = '/home/ana/src/invoice-service'
const START = Date.parse('2026-11-30T07:03:04.005Z')
const DIR = (home: string): string => join(home, '.copilot/session-state', ID)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The Claude Code tools session (ls, write, edit, a failed command), prepared for Copilot CLI. */
async function preparedTools(): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === 'claude-code')!)
  const s = sessions.find((x) => x.id.startsWith('c79310a4'))!
  const p = prepareForTarget(s, { agent: 'copilot-cli', displayName: 'GitHub Copilot CLI', providerFamily: 'any', vocabulary: VOCABULARIES['copilot-cli']! }, { textOnly: false }).session
  return { ...p, workingDirectory: CWD, createdAt: START }
}

/** `first`, then distinct v4 UUIDs. */
function ids(first: string): () => string {
  let i = 0
  return () => (i++ === 0 ? first : `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`)
}

async function options(home: string, over: Partial<WriteOptions> = {}): Promise<WriteOptions> {
  return { layout: await layoutForHome({ home }), textOnly: false, dryRun: false, now: () => 1_800_000_000_000, newId: ids(ID), sourceRef: { agent: 'claude-code', sessionId: 'c79310a4' }, ...over }
}

const lines = (file: string): Rec[] => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec)
const homes: string[] = []
const tmpHome = (): string => {
  const home = mkdtempSync(join(tmpdir(), 'sepia-copw-'))
  homes.push(home)
  return home
}
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })))

describe('writeCopilotCliSession', () => {
  it('writes session-state/<id>/events.jsonl (UUID ids, one parentId chain) and workspace.yaml', async () => {
    const home = tmpHome()
    const s = await preparedTools()
    const r = await writeCopilotCliSession(s, await options(home))
    expect(r.output).toEqual({ sessionId: ID, files: [join(DIR(home), 'events.jsonl'), join(DIR(home), 'workspace.yaml')], resumeCommand: `copilot --resume=${ID}`, cwd: CWD, backups: [] })
    const events = lines(join(DIR(home), 'events.jsonl'))
    expect(events[0]).toMatchObject({ type: 'session.start', parentId: null, data: { sessionId: ID, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.102', startTime: '2026-11-30T07:03:04.005Z', context: { cwd: CWD } } })
    events.forEach((e, i) => {
      expect(Object.keys(e).sort()).toEqual(['data', 'id', 'parentId', 'timestamp', 'type'])
      expect(e.id).toMatch(UUID)
      if (i) expect(e.parentId).toBe(events[i - 1]!.id)
    })
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length)
    const types = events.slice(1).map((e) => e.type)
    expect(types).toEqual(s.nodes.map((n) => ({ user: 'user.message', assistant: 'assistant.message', tool: 'tool.execution_complete' })[n.role as 'user']))
    const requests = events.filter((e) => e.type === 'assistant.message').flatMap((e) => e.data.toolRequests)
    const done = events.filter((e) => e.type === 'tool.execution_complete')
    expect(done.map((e) => e.data.toolCallId)).toEqual(requests.map((q: Rec) => q.toolCallId))
    expect(requests.map((q: Rec) => q.name)).toEqual(expect.arrayContaining(['bash', 'create', 'edit']))
    for (const q of requests.filter((x: Rec) => x.name === 'bash')) expect(q.arguments).toEqual({ command: expect.any(String), description: expect.any(String) })
    expect(done.filter((e) => e.data.success === false).map((e) => Object.keys(e.data.error).sort())).toEqual(s.nodes.filter((n) => n.role === 'tool' && n.isError).map(() => ['code', 'message']))
    const yaml = readFileSync(join(DIR(home), 'workspace.yaml'), 'utf8')
    expect(yaml).toContain(`id: ${ID}\ncwd: "${CWD}"\n`)
    expect(yaml.split('\n')[0]).toBe('# imported by sepia from claude-code c79310a4')
    const back = (await readHomeOf(copilotCli, home)).sessions[0]!
    expect(back.id).toBe(ID)
    expect(back.diagnostics).toEqual([])
    expect(back.nodes.filter((n) => !n.event && !n.isMeta).map((n) => n.role)).toEqual(s.nodes.map((n) => n.role))
  })

  it('splits an assistant message whose parts were [text, call, text] into consecutive messages', async () => {
    const home = tmpHome()
    const s = newSession('copilot-cli', 'src', 'x', [])
    s.workingDirectory = CWD
    s.createdAt = START
    const a: MessageNode = {
      nodeId: 'a', role: 'assistant', content: 'before\n\nafter',
      blocks: [{ type: 'text', text: 'before' }, { type: 'text', text: 'after' }],
      toolCalls: [{ id: 'c1', name: 'bash', kind: 'execute', arguments: { command: 'ls', description: 'List' } }],
      partOrder: [{ part: 'block', index: 0 }, { part: 'tool-call', id: 'c1' }, { part: 'block', index: 1 }],
    }
    s.nodes = [{ nodeId: 'u', role: 'user', content: 'go' }, a, { nodeId: 't', role: 'tool', content: 'README.md', toolCallId: 'c1' }]
    const r = await writeCopilotCliSession(s, await options(home))
    const events = lines(r.output.files[0]!).slice(1)
    expect(events.map((e) => [e.type, e.data.content ?? e.data.result?.content])).toEqual([
      ['user.message', 'go'],
      ['assistant.message', 'before'],
      ['tool.execution_complete', 'README.md'],
      ['assistant.message', 'after'],
    ])
  })

  it('writes nothing on a dry run', async () => {
    const home = tmpHome()
    const r = await writeCopilotCliSession(await preparedTools(), await options(home, { dryRun: true }))
    expect(r.output.files[0]).toBe(join(DIR(home), 'events.jsonl'))
    expect(readdirSync(home)).toEqual([])
  })

  it('never overwrites an existing session, and a fault leaves nothing behind', async () => {
    const home = tmpHome()
    mkdirSync(DIR(home), { recursive: true })
    writeFileSync(join(DIR(home), 'events.jsonl'), 'original\n')
    await expect(writeCopilotCliSession(await preparedTools(), await options(home))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(readFileSync(join(DIR(home), 'events.jsonl'), 'utf8')).toBe('original\n')
    expect(readdirSync(DIR(home))).toEqual(['events.jsonl'])
    const other = tmpHome()
    const fault = (x: string) => {
      if (x === 'staged:workspace.yaml') throw new Error('disk full (injected)')
    }
    await expect(writeCopilotCliSession(await preparedTools(), await options(other, { fault }))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(existsSync(DIR(other))).toBe(false)
  })
})
