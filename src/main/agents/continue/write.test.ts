/** The Continue writer: file, history items and tool call states as the CLI writes them, part order, images, dry run, atomicity, never overwriting. */
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
import { continueAgent } from './index'
import { writeContinueSession } from './write'

type Rec = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const ID = '11111111-2222-4333-8444-555555555555'
const CWD = '/home/ana/src/invoice-service'
const FILE = (home: string): string => join(home, '.continue', 'sessions', `${ID}.json`)

/** The real Qwen Code tools session (ls, write, edit, a failed `ls`, the resumed read), prepared for Continue. */
async function preparedTools(): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === 'qwen-code')!)
  const s = sessions.find((x) => x.id.startsWith('5d2f7dc0'))!
  const p = prepareForTarget(s, { agent: 'continue', displayName: 'Continue', providerFamily: 'any', vocabulary: VOCABULARIES.continue! }, { textOnly: false }).session
  return { ...p, workingDirectory: CWD }
}

async function options(home: string, over: Partial<WriteOptions> = {}): Promise<WriteOptions> {
  return {
    layout: await layoutForHome({ home }),
    textOnly: false,
    dryRun: false,
    now: () => 1_800_000_000_000,
    newId: () => ID,
    sourceRef: { agent: 'qwen-code', sessionId: '5d2f7dc0', path: '/src/x.jsonl' },
    ...over,
  }
}

const load = (file: string): Rec => JSON.parse(readFileSync(file, 'utf8')) as Rec
const homes: string[] = []
const tmpHome = (): string => {
  const home = mkdtempSync(join(tmpdir(), 'sepia-cn-'))
  homes.push(home)
  return home
}
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })))

describe('writeContinueSession', () => {
  it('writes sessions/<id>.json: user and assistant items, every result in its call state, the failed one errored', async () => {
    const home = tmpHome()
    const s = await preparedTools()
    const r = await writeContinueSession(s, await options(home))
    expect(r.output).toEqual({ sessionId: ID, files: [FILE(home)], resumeCommand: `cn --fork ${ID}`, cwd: CWD, backups: [] })
    const raw = load(FILE(home))
    expect(Object.keys(raw)).toEqual(['sessionId', 'title', 'workspaceDirectory', 'history', 'usage', 'importedFrom'])
    expect(raw).toMatchObject({ sessionId: ID, workspaceDirectory: CWD, importedFrom: { agent: 'qwen-code', sessionId: '5d2f7dc0', importer: 'sepia' } })
    // No `sessions.json` is written or changed (the CLI adds its entry when it saves the session).
    expect(readdirSync(join(home, '.continue', 'sessions'))).toEqual([`${ID}.json`])
    const h = raw.history as Rec[]
    // One item per user and assistant node; tool results are no items of their own (the CLI's shape).
    expect(h.map((x) => x.message.role)).toEqual(s.nodes.filter((n) => n.role !== 'tool').map((n) => n.role))
    for (const x of h) expect(x.contextItems).toEqual([])
    for (const x of h.filter((y) => y.message.role === 'user')) expect(x.editorState).toEqual(x.message.content)
    const calls = h.flatMap((x) => x.message.toolCalls ?? []) as Rec[]
    const states = h.flatMap((x) => x.toolCallStates ?? []) as Rec[]
    expect(states.map((st) => st.toolCallId)).toEqual(calls.map((c) => c.id))
    expect(calls.length).toBe(s.nodes.filter((n) => n.role === 'tool').length)
    for (const c of calls) expect(JSON.parse(c.function.arguments)).toEqual(expect.any(Object))
    for (const st of states) expect(st.output).toEqual([{ content: expect.any(String), name: 'Tool Result', description: 'Tool execution result' }])
    expect(states.filter((st) => st.status === 'errored').length).toBe(s.nodes.filter((n) => n.role === 'tool' && n.isError).length)
    expect(states.filter((st) => st.status === 'errored').length).toBeGreaterThan(0)
    expect(calls.map((c) => c.function.name)).toEqual(expect.arrayContaining(['Bash', 'Write', 'Edit']))

    // The reader takes it back: same turns and results.
    const back = (await readHomeOf(continueAgent, home)).sessions[0]!
    expect(back.diagnostics).toEqual([])
    expect(back.nodes.map((n) => n.role)).toEqual(s.nodes.map((n) => n.role))
    expect(back.nodes.filter((n) => n.role === 'tool').map((n) => n.content)).toEqual(s.nodes.filter((n) => n.role === 'tool').map((n) => n.content))
  })

  it('splits an assistant message whose text follows its call into two items; keeps images as data URL parts; titles it', async () => {
    const home = tmpHome()
    const s = newSession('continue', 'src', 'x', [])
    s.workingDirectory = CWD
    s.title = 'Part order'
    const a: MessageNode = {
      nodeId: 'a', role: 'assistant', content: 'before\n\nafter',
      blocks: [{ type: 'text', text: 'before' }, { type: 'text', text: 'after' }],
      toolCalls: [{ id: 'c1', name: 'Bash', kind: 'execute', arguments: { command: 'ls' } }],
      partOrder: [{ part: 'block', index: 0 }, { part: 'tool-call', id: 'c1' }, { part: 'block', index: 1 }],
      usage: { outputTokens: 7 },
    }
    const u: MessageNode = { nodeId: 'u', role: 'user', content: 'look', blocks: [{ type: 'text', text: 'look' }, { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }] }
    s.nodes = [u, a, { nodeId: 't', role: 'tool', content: 'README.md', toolCallId: 'c1' }]
    const r = await writeContinueSession(s, await options(home))
    const raw = load(r.output.files[0]!)
    expect(raw.title).toBe('Part order')
    const h = raw.history as Rec[]
    expect(h[0]!.message.content).toEqual([{ type: 'text', text: 'look' }, { type: 'imageUrl', imageUrl: { url: 'data:image/png;base64,iVBORw0KGgo=' } }])
    expect(h.slice(1).map((x) => [x.message.content, (x.message.toolCalls ?? []).map((c: Rec) => c.id)])).toEqual([['before', ['c1']], ['after', []]])
    expect(h[1]!.toolCallStates[0]).toMatchObject({ toolCallId: 'c1', status: 'done', parsedArgs: { command: 'ls' }, output: [{ content: 'README.md' }] })
    expect(h[1]!.message.usage).toEqual({ completion_tokens: 7, total_tokens: 7 })
    expect(raw.usage).toMatchObject({ totalCost: 0, promptTokens: 0, completionTokens: 7 })
    const back = (await readHomeOf(continueAgent, home)).sessions[0]!
    expect(back.title).toBe('Part order')
    expect(back.nodes[0]!.blocks?.find((b) => b.type === 'image')).toEqual({ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' })
    expect(back.nodes.map((n) => n.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
  })

  it('writes nothing on a dry run', async () => {
    const home = tmpHome()
    const r = await writeContinueSession(await preparedTools(), await options(home, { dryRun: true }))
    expect(r.output.files).toEqual([FILE(home)])
    expect(readdirSync(home)).toEqual([])
  })

  it('never overwrites an existing session', async () => {
    const home = tmpHome()
    mkdirSync(join(FILE(home), '..'), { recursive: true })
    writeFileSync(FILE(home), 'original\n')
    await expect(writeContinueSession(await preparedTools(), await options(home))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(readFileSync(FILE(home), 'utf8')).toBe('original\n')
    expect(readdirSync(join(FILE(home), '..'))).toEqual([`${ID}.json`])
  })

  it.each([`staged:${ID}.json`, `renamed:${ID}.json`])('a fault at %s leaves nothing behind', async (step) => {
    const home = tmpHome()
    const fault = (x: string) => {
      if (x === step) throw new Error('disk full (injected)')
    }
    await expect(writeContinueSession(await preparedTools(), await options(home, { fault }))).rejects.toMatchObject({ code: 'WRITE_FAILED', message: expect.stringContaining('disk full (injected)') })
    expect(existsSync(join(home, '.continue'))).toBe(false)
  })
})
