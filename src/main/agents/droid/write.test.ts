/** The Droid writer: project key, session_start and message shapes and chain, grouped results, part order, dry run, never overwriting. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
import { droid } from './index'
import { droidProjectKey, writeDroidSession } from './write'

type Rec = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const ID = '11111111-2222-4333-8444-555555555555'
const CWD = '/home/ana/src/invoice-service'
const START = Date.parse('2026-11-30T07:03:04.005Z')
const DIR = (home: string): string => join(home, '.factory/sessions/-home-ana-src-invoice-service')
const FILE = (home: string): string => join(DIR(home), `${ID}.jsonl`)

async function preparedTools(): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === 'claude-code')!)
  const s = sessions.find((x) => x.id.startsWith('c79310a4'))!
  const p = prepareForTarget(s, { agent: 'droid', displayName: 'Factory Droid', providerFamily: 'any', vocabulary: VOCABULARIES.droid! }, { textOnly: false }).session
  return { ...p, workingDirectory: CWD, createdAt: START }
}

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
  const home = mkdtempSync(join(tmpdir(), 'sepia-droidw-'))
  homes.push(home)
  return home
}
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })))

describe('writeDroidSession', () => {
  it('names the project folder as sanitizePathToDirectoryName does', () => {
    expect(droidProjectKey('/home/pat/src/notes-cli')).toBe('-home-pat-src-notes-cli')
    expect(droidProjectKey('/home/pat//src/x/')).toBe('-home-pat-src-x')
  })

  it('writes sessions/<key>/<id>.jsonl: session_start, then one parentId chain; the results of a message in one user message', async () => {
    const home = tmpHome()
    const s = await preparedTools()
    const r = await writeDroidSession(s, await options(home))
    expect(r.output).toEqual({ sessionId: ID, files: [FILE(home)], resumeCommand: `droid --resume ${ID}`, cwd: CWD, backups: [] })
    const [start, ...msgs] = lines(FILE(home))
    expect(start).toMatchObject({ type: 'session_start', id: ID, owner: 'unknown', version: 2, cwd: CWD, isSessionTitleManuallySet: false, importedFrom: { agent: 'claude-code', importer: 'sepia' } })
    expect(msgs[0]!.parentId).toBeUndefined()
    msgs.forEach((m, i) => {
      expect(m.type).toBe('message')
      if (i) expect(m.parentId).toBe(msgs[i - 1]!.id)
    })
    const uses = msgs.filter((m) => m.message.role === 'assistant').flatMap((m) => m.message.content.filter((b: Rec) => b.type === 'tool_use'))
    const results = msgs.flatMap((m) => m.message.content.filter((b: Rec) => b.type === 'tool_result'))
    expect(results.map((b: Rec) => b.tool_use_id)).toEqual(uses.map((b: Rec) => b.id))
    expect(uses.map((b: Rec) => b.name)).toEqual(expect.arrayContaining(['Execute', 'Create', 'Edit']))
    for (const u of uses.filter((b: Rec) => b.name === 'Execute')) expect(u.input.summary).toMatch(/^[A-Z]\S*(?:\s+\S+){2,7}$/)
    expect(results.filter((b: Rec) => b.is_error).length).toBe(s.nodes.filter((n) => n.role === 'tool' && n.isError).length)
    const back = (await readHomeOf(droid, home)).sessions[0]!
    expect(back.id).toBe(ID)
    expect(back.diagnostics).toEqual([])
    expect(back.nodes.filter((n) => !n.event && !n.isMeta).map((n) => n.role)).toEqual(s.nodes.map((n) => n.role))
  })

  it('keeps [text, call, text] in one assistant message, in order', async () => {
    const home = tmpHome()
    const s = newSession('droid', 'src', 'x', [])
    s.workingDirectory = CWD
    s.createdAt = START
    const a: MessageNode = {
      nodeId: 'a', role: 'assistant', content: 'before\n\nafter',
      blocks: [{ type: 'text', text: 'before' }, { type: 'text', text: 'after' }],
      toolCalls: [{ id: 'c1', name: 'LS', kind: 'search', arguments: { directory_path: CWD } }],
      partOrder: [{ part: 'block', index: 0 }, { part: 'tool-call', id: 'c1' }, { part: 'block', index: 1 }],
    }
    s.nodes = [{ nodeId: 'u', role: 'user', content: 'go' }, a, { nodeId: 't', role: 'tool', content: 'README.md', toolCallId: 'c1' }]
    const r = await writeDroidSession(s, await options(home))
    const [, , assistant] = lines(r.output.files[0]!)
    expect(assistant!.message.content).toEqual([{ type: 'text', text: 'before' }, { type: 'tool_use', id: 'c1', name: 'LS', input: { directory_path: CWD } }, { type: 'text', text: 'after' }])
  })

  it('writes nothing on a dry run, and never overwrites', async () => {
    const home = tmpHome()
    await writeDroidSession(await preparedTools(), await options(home, { dryRun: true }))
    expect(readdirSync(home)).toEqual([])
    mkdirSync(DIR(home), { recursive: true })
    writeFileSync(FILE(home), 'original\n')
    await expect(writeDroidSession(await preparedTools(), await options(home))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(readFileSync(FILE(home), 'utf8')).toBe('original\n')
  })
})
