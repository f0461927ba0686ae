/** The Qwen Code writer: file and folder, record shapes and chain, part order, dry run, atomicity, never overwriting. */
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
import { qwenCode } from './index'
import { sanitizeCwd, writeQwenCodeSession } from './write'

type Rec = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const ID = '11111111-2222-4333-8444-555555555555'
const CWD = '/home/ana/src/invoice-service'
const FILE = (home: string): string => join(home, '.qwen/projects/-home-ana-src-invoice-service/chats', `${ID}.jsonl`)

/** The Claude Code tools session (ls, write, edit, a failed command), prepared for Qwen Code. */
async function preparedTools(): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === 'claude-code')!)
  const s = sessions.find((x) => x.id.startsWith('c79310a4'))!
  const p = prepareForTarget(s, { agent: 'qwen-code', displayName: 'Qwen Code', providerFamily: 'any', vocabulary: VOCABULARIES['qwen-code']! }, { textOnly: false }).session
  return { ...p, workingDirectory: CWD }
}

function ids(...list: string[]): () => string {
  let i = 0
  return () => list[i++] ?? `00000000-0000-4000-8000-${String(i++).padStart(12, '0')}`
}

async function options(home: string, over: Partial<WriteOptions> = {}): Promise<WriteOptions> {
  return {
    layout: await layoutForHome({ home }),
    textOnly: false,
    dryRun: false,
    now: () => 1_800_000_000_000,
    newId: ids(ID),
    sourceRef: { agent: 'claude-code', sessionId: 'c79310a4', path: '/src/x.jsonl' },
    ...over,
  }
}

const lines = (file: string): Rec[] => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec)
const homes: string[] = []
const tmpHome = (): string => {
  const home = mkdtempSync(join(tmpdir(), 'sepia-qw-'))
  homes.push(home)
  return home
}
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })))

describe('writeQwenCodeSession', () => {
  it('names the folder as sanitizeCwd does', () => {
    expect(sanitizeCwd('/home/lin/src/notes-app', 'linux')).toBe('-home-lin-src-notes-app')
    expect(sanitizeCwd('C:\\Users\\Ana\\src', 'win32')).toBe('c--users-ana-src')
  })

  it('writes projects/<cwd>/chats/<id>.jsonl: one chain of user / assistant / tool_result records', async () => {
    const home = tmpHome()
    const s = await preparedTools()
    const r = await writeQwenCodeSession(s, await options(home))
    expect(r.output).toEqual({ sessionId: ID, files: [FILE(home)], resumeCommand: `qwen --resume ${ID}`, cwd: CWD, backups: [] })
    const recs = lines(FILE(home))
    expect(recs[0]!.parentUuid).toBeNull()
    expect(recs[0]!.importedFrom).toMatchObject({ agent: 'claude-code', sessionId: 'c79310a4', importer: 'sepia' })
    recs.forEach((x, i) => {
      expect(x).toMatchObject({ sessionId: ID, cwd: CWD, version: '0.15.10' })
      if (i) expect(x.parentUuid).toBe(recs[i - 1]!.uuid)
    })
    expect(new Set(recs.map((x) => x.uuid)).size).toBe(recs.length)
    // The raw records against the prepared nodes: one record per user, assistant and tool node.
    const convo = recs.filter((x) => x.type !== 'system')
    expect(convo.map((x) => x.type)).toEqual(s.nodes.map((n) => ({ user: 'user', assistant: 'assistant', tool: 'tool_result' })[n.role as 'user']))
    const calls = convo.filter((x) => x.type === 'assistant').flatMap((x) => x.message.parts.filter((p: Rec) => p.functionCall))
    const results = convo.filter((x) => x.type === 'tool_result')
    expect(calls.length).toBe(results.length)
    expect(results.map((x) => x.message.parts[0].functionResponse.id)).toEqual(calls.map((p: Rec) => p.functionCall.id))
    for (const x of convo) expect(x.message.role).toBe(x.type === 'assistant' ? 'model' : 'user')
    const failed = results.filter((x) => x.toolCallResult.status === 'error')
    expect(failed.length).toBe(s.nodes.filter((n) => n.role === 'tool' && n.isError).length)
    for (const f of failed) expect(f.message.parts[0].functionResponse.response.error).toEqual(expect.any(String))
    expect(calls.map((p: Rec) => p.functionCall.name)).toEqual(expect.arrayContaining(['run_shell_command', 'write_file', 'edit']))

    // The reader takes it back: same turns.
    const back = (await readHomeOf(qwenCode, home)).sessions[0]!
    expect(back.nodes.map((n) => n.role)).toEqual(s.nodes.map((n) => n.role))
  })

  it('writes the parts of an assistant message in its part order, and the title last', async () => {
    const home = tmpHome()
    const s = newSession('qwen-code', 'src', 'x', [])
    s.workingDirectory = CWD
    s.title = 'Part order'
    const a: MessageNode = {
      nodeId: 'a', role: 'assistant', content: 'before\n\nafter',
      blocks: [{ type: 'text', text: 'before' }, { type: 'text', text: 'after' }],
      toolCalls: [{ id: 'c1', name: 'run_shell_command', kind: 'execute', arguments: { command: 'ls' } }],
      partOrder: [{ part: 'block', index: 0 }, { part: 'tool-call', id: 'c1' }, { part: 'block', index: 1 }],
    }
    s.nodes = [{ nodeId: 'u', role: 'user', content: 'go' }, a, { nodeId: 't', role: 'tool', content: 'README.md', toolCallId: 'c1' }]
    const r = await writeQwenCodeSession(s, await options(home))
    const recs = lines(r.output.files[0]!)
    expect(recs[1]!.message.parts).toEqual([{ text: 'before' }, { functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'ls' } } }, { text: '\n\nafter' }])
    expect(recs.at(-1)).toMatchObject({ type: 'system', subtype: 'custom_title', systemPayload: { customTitle: 'Part order' }, parentUuid: recs.at(-2)!.uuid })
    const back = (await readHomeOf(qwenCode, home)).sessions[0]!
    expect(back.title).toBe('Part order')
    expect(back.nodes[1]!.content).toBe('before\n\nafter')
  })

  it('writes nothing on a dry run', async () => {
    const home = tmpHome()
    const r = await writeQwenCodeSession(await preparedTools(), await options(home, { dryRun: true }))
    expect(r.output.files).toEqual([FILE(home)])
    expect(readdirSync(home)).toEqual([])
  })

  it('never overwrites an existing chat', async () => {
    const home = tmpHome()
    mkdirSync(join(FILE(home), '..'), { recursive: true })
    writeFileSync(FILE(home), 'original\n')
    await expect(writeQwenCodeSession(await preparedTools(), await options(home))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(readFileSync(FILE(home), 'utf8')).toBe('original\n')
    expect(readdirSync(join(FILE(home), '..'))).toEqual([`${ID}.jsonl`])
  })

  it.each([`staged:${ID}.jsonl`, `renamed:${ID}.jsonl`])('a fault at %s leaves nothing behind', async (step) => {
    const home = tmpHome()
    const fault = (x: string) => {
      if (x === step) throw new Error('disk full (injected)')
    }
    await expect(writeQwenCodeSession(await preparedTools(), await options(home, { fault }))).rejects.toMatchObject({ code: 'WRITE_FAILED', message: expect.stringContaining('disk full (injected)') })
    expect(existsSync(join(home, '.qwen'))).toBe(false)
  })
})
