/** The Gemini CLI writer: file name and folder, record shapes, thinking, atomicity, never overwriting. */
import { createHash } from 'node:crypto'
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
import type { WriteOptions } from '../types'
import { readHome } from '../../../../tests/builders/gemini/testing'
import { chatFileName, writeGeminiSession } from './write'

type Rec = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const ID = '11111111-2222-4333-8444-555555555555'
const CWD = '/home/ana/src/invoice-service'

async function preparedClineTools(): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === 'cline')!)
  const s = sessions.find((x) => x.id === '1796022183774_v75nv')!
  return prepareForTarget(s, { agent: 'gemini', displayName: 'Gemini CLI', providerFamily: 'google', vocabulary: VOCABULARIES.gemini! }, { textOnly: false }).session
}

/** A prepared-shape session from nodes (chained in order). */
function session(nodes: MessageNode[], extra: Partial<Session> = {}): Session {
  const s = newSession('gemini', 'src', 'gemini-jsonl', [])
  s.nodes = nodes.map((n, i) => (i ? { ...n, parentNodeId: nodes[i - 1]!.nodeId } : n))
  s.workingDirectory = CWD
  s.createdAt = Date.parse('2026-11-30T07:03:00.000Z')
  return Object.assign(s, extra)
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
    sourceRef: { agent: 'cline', sessionId: '1796022183774_v75nv', path: '/src/x.messages.json' },
    ...over,
  }
}

const lines = (file: string): Rec[] => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec)
const homes: string[] = []
const tmpHome = (): string => {
  const home = mkdtempSync(join(tmpdir(), 'sepia-gw-'))
  homes.push(home)
  return home
}
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })))

describe('writeGeminiSession', () => {
  it('writes tmp/<slug>/chats/session-<minute>-<8>.jsonl, the .project_root markers and the resume command', async () => {
    const home = tmpHome()
    const s = await preparedClineTools()
    const r = await writeGeminiSession(s, await options(home))
    const file = join(home, `.gemini/tmp/invoice-service/chats/session-2026-11-30T07-03-11111111.jsonl`)
    expect(r.output).toEqual({
      sessionId: ID,
      files: [file, join(home, '.gemini/tmp/invoice-service/.project_root'), join(home, '.gemini/history/invoice-service/.project_root')],
      resumeCommand: `gemini --resume ${ID}`,
      cwd: CWD,
      backups: [],
    })
    expect(chatFileName(s.createdAt!, ID)).toBe('session-2026-11-30T07-03-11111111.jsonl')
    expect(readFileSync(join(home, '.gemini/tmp/invoice-service/.project_root'), 'utf8')).toBe(CWD)
    expect(readFileSync(join(home, '.gemini/history/invoice-service/.project_root'), 'utf8')).toBe(CWD)
    expect(existsSync(join(home, '.gemini/projects.json'))).toBe(false)
    expect(r.warnings).toEqual([
      { kind: 'usage-not-representable', count: 0 },
      { kind: 'message-skipped-by-target', count: 0 },
    ])
  })

  it('writes the header, user and gemini records the real CLI resumes (realstores "Gemini CLI 0.61.0")', async () => {
    const home = tmpHome()
    const s = await preparedClineTools()
    const r = await writeGeminiSession(s, await options(home))
    const [header, ...rest] = lines(r.output.files[0]!)
    expect(header).toEqual({
      sessionId: ID,
      projectHash: createHash('sha256').update(CWD).digest('hex'),
      startTime: new Date(s.createdAt!).toISOString(),
      lastUpdated: new Date(s.lastActivityAt!).toISOString(),
      kind: 'main',
      importedFrom: { agent: 'cline', sessionId: '1796022183774_v75nv', path: '/src/x.messages.json', importedAt: '2027-01-15T08:00:00.000Z', importer: 'sepia' },
    })
    const last = rest.pop()!
    expect(last).toEqual({ $set: { summary: s.title } })
    expect(rest.map((m) => m.type)).toEqual(['user', 'gemini', 'gemini', 'gemini', 'gemini', 'user', 'gemini', 'gemini'])
    for (const m of rest) {
      expect(m.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(m.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    }
    expect(rest[0]!.content).toEqual([{ text: '[tools] List the files, then create NOTES.md and mark its TODO line as done.' }])
    const g = rest[1]!
    expect(Object.keys(g)).toEqual(['id', 'timestamp', 'type', 'content', 'thoughts', 'tokens', 'model', 'toolCalls'])
    expect(typeof g.content).toBe('string')
    expect(g.thoughts).toEqual([])
    expect(Object.keys(g.tokens)).toEqual(['input', 'output', 'cached', 'thoughts', 'tool', 'total'])
    const tc = g.toolCalls[0]
    expect(tc.name).toBe('run_shell_command')
    expect(tc.args.command).toMatch(/^ls/)
    expect(tc.status).toBe('success')
    expect(tc.result).toEqual([{ functionResponse: { id: tc.id, name: 'run_shell_command', response: { output: expect.any(String) } } }])
    const names = rest.flatMap((m) => (m.toolCalls ?? []).map((c: Rec) => c.name))
    expect(names).toEqual(['run_shell_command', 'write_file', 'replace', 'run_shell_command'])
    // Each result once, in toolCalls[].result: no type:"user" functionResponse lines (the CLI would send both).
    expect(rest.filter((m) => m.type === 'user').every((m) => m.content.every((p: Rec) => p.functionResponse === undefined))).toBe(true)
  })

  it('reads back through discovery with the same turns, the origin and the title', async () => {
    const home = tmpHome()
    const s = await preparedClineTools()
    await writeGeminiSession(s, await options(home))
    const { sessions } = await readHome(home)
    expect(sessions.map((x) => x.id)).toEqual([ID])
    const back = sessions[0]!
    expect(back.workingDirectory).toBe(CWD)
    expect(back.title).toBe(s.title)
    expect(back.metadata.importedFrom).toMatchObject({ agent: 'cline', sessionId: '1796022183774_v75nv', importer: 'sepia' })
    expect(back.nodes.map((n) => n.role)).toEqual(s.nodes.map((n) => n.role))
    expect(back.nodes.map((n) => n.content)).toEqual(s.nodes.map((n) => n.content))
  })

  it('writes signed Google thinking as thought parts, the signature on the first functionCall', async () => {
    const home = tmpHome()
    const s = session([
      { nodeId: 'u', role: 'user', content: 'hi' },
      {
        nodeId: 'a',
        role: 'assistant',
        content: 'Looking.',
        thinking: '**Plan**\nlist files',
        thinkingSignature: 'c2lnbmF0dXJl',
        model: 'gemini-2.5-flash',
        toolCalls: [{ id: 'c1', name: 'run_shell_command', kind: 'execute', arguments: { command: 'ls' } }],
      },
      { nodeId: 'r', role: 'tool', content: 'bad', toolCallId: 'c1', toolName: 'run_shell_command', isError: true },
    ])
    const r = await writeGeminiSession(s, await options(home))
    const g = lines(r.output.files[0]!)[2]!
    expect(g.content).toEqual([
      { text: '**Plan**\nlist files', thought: true },
      { text: 'Looking.' },
      { functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'ls' } }, thoughtSignature: 'c2lnbmF0dXJl' },
    ])
    expect(g.toolCalls[0]).toMatchObject({ status: 'error', result: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { error: 'bad' } } }] })
    const back = (await readHome(home)).sessions[0]!
    const a = back.nodes.find((n) => n.role === 'assistant')!
    expect([a.thinking, a.thinkingSignature, a.toolCalls?.length]).toEqual(['**Plan**\nlist files', 'c2lnbmF0dXJl', 1])
    expect(back.nodes.find((n) => n.role === 'tool')).toMatchObject({ content: 'bad', isError: true })
  })

  it('writes images and text files as inlineData parts and counts user texts the CLI skips on resume', async () => {
    const home = tmpHome()
    const blocks = [
      { type: 'text' as const, text: 'see' },
      { type: 'image' as const, mediaType: 'image/png', data: 'iVBORw0K' },
      { type: 'text' as const, text: 'and' },
      { type: 'file' as const, path: '/x.txt', mediaType: 'text/plain', text: 'hello' },
    ]
    const s = session([
      { nodeId: 'u', role: 'user', content: 'see\n\nand', blocks },
      { nodeId: 'a', role: 'assistant', content: 'ok' },
      { nodeId: 'u2', role: 'user', content: '/compact please' },
    ])
    const r = await writeGeminiSession(s, await options(home))
    expect(lines(r.output.files[0]!)[1]!.content).toEqual([
      { text: 'see' },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } },
      { text: '\n\nand' },
      { inlineData: { mimeType: 'text/plain', data: Buffer.from('hello').toString('base64') } },
    ])
    expect(r.warnings).toContainEqual({ kind: 'message-skipped-by-target', count: 1 })
    const u = (await readHome(home)).sessions[0]!.nodes[0]!
    expect(u.content).toBe('see\n\nand')
    expect(u.blocks?.map((b) => b.type)).toEqual(['text', 'image', 'text', 'file'])
  })

  it('text only: calls and results are plain text, no toolCalls', async () => {
    const home = tmpHome()
    const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((x) => x.label === 'cline')!)
    const src = sessions.find((x) => x.id === '1796022183774_v75nv')!
    const s = prepareForTarget(src, { agent: 'gemini', displayName: 'Gemini CLI', providerFamily: 'google', vocabulary: VOCABULARIES.gemini! }, { textOnly: true }).session
    const r = await writeGeminiSession(s, await options(home, { textOnly: true }))
    const msgs = lines(r.output.files[0]!).filter((m) => typeof m.id === 'string')
    expect(msgs.some((m) => m.toolCalls !== undefined)).toBe(false)
    expect(msgs.filter((m) => m.type === 'user' && m.content[0].text.startsWith('[Tool result: run_commands]')).length).toBe(2)
  })

  it('writes nothing on a dry run', async () => {
    const home = tmpHome()
    const r = await writeGeminiSession(await preparedClineTools(), await options(home, { dryRun: true }))
    expect(r.output.sessionId).toBe(ID)
    expect(readdirSync(home)).toEqual([])
  })

  it('never overwrites an existing chats file, and takes a new id when the short id is in use', async () => {
    const home = tmpHome()
    const dir = join(home, '.gemini/tmp/invoice-service/chats')
    mkdirSync(dir, { recursive: true })
    const existing = join(dir, 'session-2026-11-30T07-03-11111111.jsonl')
    writeFileSync(existing, 'original\n')
    const same = () => ID
    await expect(writeGeminiSession(await preparedClineTools(), await options(home, { newId: same }))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(readFileSync(existing, 'utf8')).toBe('original\n')
    expect(readdirSync(dir)).toEqual(['session-2026-11-30T07-03-11111111.jsonl'])
    expect(existsSync(join(home, '.gemini/tmp/invoice-service/.project_root'))).toBe(false)

    const next = '99999999-2222-4333-8444-555555555555'
    const r = await writeGeminiSession(await preparedClineTools(), await options(home, { newId: ids(ID, next) }))
    expect(r.output.sessionId).toBe(next)
    expect(readFileSync(existing, 'utf8')).toBe('original\n')
  })

  it.each(['staged:session-2026-11-30T07-03-11111111.jsonl', 'staged:.project_root', 'renamed:session-2026-11-30T07-03-11111111.jsonl', 'renamed:.project_root'])(
    'a fault at %s leaves nothing behind',
    async (step) => {
      const home = tmpHome()
      const fault = (x: string) => {
        if (x === step) throw new Error('disk full (injected)')
      }
      await expect(writeGeminiSession(await preparedClineTools(), await options(home, { fault }))).rejects.toMatchObject({ code: 'WRITE_FAILED', message: expect.stringContaining('disk full (injected)') })
      expect(existsSync(join(home, '.gemini'))).toBe(false)
    },
  )
})
