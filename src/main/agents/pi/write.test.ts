/** The Pi writer: file and folder, header and entry shapes and chain, part order, dry run, atomicity, never overwriting. */
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
import { pi } from './index'
import { piProjectFolder, writePiSession } from './write'

type Rec = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const ID = '11111111-2222-4333-8444-555555555555'
const CWD = '/home/ana/src/invoice-service'
const START = Date.parse('2026-11-30T07:03:04.005Z')
const DIR = (home: string): string => join(home, '.pi/agent/sessions/--home-ana-src-invoice-service--')
const FILE = (home: string): string => join(DIR(home), `2026-11-30T07-03-04-005Z_${ID}.jsonl`)

/** The Claude Code tools session (ls, write, edit, a failed command), prepared for Pi. */
async function preparedTools(): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === 'claude-code')!)
  const s = sessions.find((x) => x.id.startsWith('c79310a4'))!
  const p = prepareForTarget(s, { agent: 'pi', displayName: 'Pi', providerFamily: 'any', vocabulary: VOCABULARIES.pi! }, { textOnly: false }).session
  return { ...p, workingDirectory: CWD, createdAt: START }
}

function ids(...list: string[]): () => string {
  let i = 0
  return () => list[i++] ?? `${String(i++).padStart(8, '0')}-0000-4000-8000-000000000000`
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
  const home = mkdtempSync(join(tmpdir(), 'sepia-piw-'))
  homes.push(home)
  return home
}
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })))

describe('writePiSession', () => {
  it('names the folder as getDefaultSessionDir does', () => {
    expect(piProjectFolder('/home/pat/src/todo-cli')).toBe('--home-pat-src-todo-cli--')
    expect(piProjectFolder('C:\\Users\\pat\\src')).toBe('--C--Users-pat-src--')
  })

  it('writes sessions/--<cwd>--/<time>_<id>.jsonl: the header, then one chain of message entries', async () => {
    const home = tmpHome()
    const s = await preparedTools()
    const r = await writePiSession(s, await options(home))
    expect(r.output).toEqual({ sessionId: ID, files: [FILE(home)], resumeCommand: `pi --session ${ID}`, cwd: CWD, backups: [] })
    const [header, ...entries] = lines(FILE(home))
    expect(header).toMatchObject({ type: 'session', version: 3, id: ID, timestamp: '2026-11-30T07:03:04.005Z', cwd: CWD, importedFrom: { agent: 'claude-code', importer: 'sepia' } })
    expect(entries[0]!.parentId).toBeNull()
    entries.forEach((e, i) => {
      expect(e.id).toMatch(/^[0-9a-f]{8}$/)
      if (i) expect(e.parentId).toBe(entries[i - 1]!.id)
    })
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length)
    const msgs = entries.filter((e) => e.type === 'message').map((e) => e.message)
    expect(msgs.map((m) => m.role)).toEqual(s.nodes.map((n) => ({ user: 'user', assistant: 'assistant', tool: 'toolResult' })[n.role as 'user']))
    const calls = msgs.filter((m) => m.role === 'assistant').flatMap((m) => m.content.filter((b: Rec) => b.type === 'toolCall'))
    const results = msgs.filter((m) => m.role === 'toolResult')
    expect(results.map((m) => m.toolCallId)).toEqual(calls.map((c: Rec) => c.id))
    expect(results.map((m) => m.toolName)).toEqual(calls.map((c: Rec) => c.name))
    expect(calls.map((c: Rec) => c.name)).toEqual(expect.arrayContaining(['bash', 'write', 'edit']))
    expect(results.filter((m) => m.isError).length).toBe(s.nodes.filter((n) => n.role === 'tool' && n.isError).length)
    for (const m of msgs.filter((x) => x.role === 'assistant')) {
      expect(m.stopReason).toBe(m.content.some((b: Rec) => b.type === 'toolCall') ? 'toolUse' : 'stop')
      expect(m.usage.cost.total).toEqual(expect.any(Number))
      expect(typeof m.timestamp).toBe('number')
    }
    const back = (await readHomeOf(pi, home)).sessions[0]!
    expect(back.id).toBe(ID)
    expect(back.nodes.filter((n) => !n.event).map((n) => n.role)).toEqual(s.nodes.map((n) => n.role))
  })

  it('writes an assistant message in its part order, its usage and cost, and the title as a session_info entry last', async () => {
    const home = tmpHome()
    const s = newSession('pi', 'src', 'x', [])
    s.workingDirectory = CWD
    s.createdAt = START
    s.title = 'Part order'
    const a: MessageNode = {
      nodeId: 'a', role: 'assistant', content: 'before\n\nafter',
      blocks: [{ type: 'text', text: 'before' }, { type: 'text', text: 'after' }],
      toolCalls: [{ id: 'c1', name: 'bash', kind: 'execute', arguments: { command: 'ls' } }],
      usage: { outputTokens: 5, cost: 0.25 },
      partOrder: [{ part: 'block', index: 0 }, { part: 'tool-call', id: 'c1' }, { part: 'block', index: 1 }],
    }
    s.nodes = [{ nodeId: 'u', role: 'user', content: 'go' }, a, { nodeId: 't', role: 'tool', content: 'README.md', toolCallId: 'c1' }]
    const r = await writePiSession(s, await options(home))
    const [, ...entries] = lines(r.output.files[0]!)
    expect(entries[1]!.message.content).toEqual([{ type: 'text', text: 'before' }, { type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'ls' } }, { type: 'text', text: 'after' }])
    expect(entries[1]!.message.usage).toMatchObject({ output: 5, totalTokens: 5, cost: { total: 0.25 } })
    expect(r.warnings).toEqual([])
    expect(entries.at(-1)).toMatchObject({ type: 'session_info', name: 'Part order', parentId: entries.at(-2)!.id })
    const back = (await readHomeOf(pi, home)).sessions[0]!
    expect(back.title).toBe('Part order')
    expect(back.nodes.find((n) => n.role === 'assistant')!.content).toBe('before\n\nafter')
  })

  it('writes nothing on a dry run', async () => {
    const home = tmpHome()
    const r = await writePiSession(await preparedTools(), await options(home, { dryRun: true }))
    expect(r.output.files).toEqual([FILE(home)])
    expect(readdirSync(home)).toEqual([])
  })

  it('never overwrites an existing session file', async () => {
    const home = tmpHome()
    mkdirSync(DIR(home), { recursive: true })
    writeFileSync(FILE(home), 'original\n')
    await expect(writePiSession(await preparedTools(), await options(home))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(readFileSync(FILE(home), 'utf8')).toBe('original\n')
    expect(readdirSync(DIR(home))).toEqual([`2026-11-30T07-03-04-005Z_${ID}.jsonl`])
  })

  it.each([`staged:2026-11-30T07-03-04-005Z_${ID}.jsonl`, `renamed:2026-11-30T07-03-04-005Z_${ID}.jsonl`])('a fault at %s leaves nothing behind', async (step) => {
    const home = tmpHome()
    const fault = (x: string) => {
      if (x === step) throw new Error('disk full (injected)')
    }
    await expect(writePiSession(await preparedTools(), await options(home, { fault }))).rejects.toMatchObject({ code: 'WRITE_FAILED', message: expect.stringContaining('disk full (injected)') })
    expect(existsSync(join(home, '.pi'))).toBe(false)
  })
})
