/** The Claude Code writer: folder rule, record chain, pairing, atomicity, never overwriting. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
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
import { claudeProjectFolder, writeClaudeSession } from './write'

const HANDWRITTEN = join(findAppRoot(), 'fixtures/real/claude-code/handwritten')

async function preparedClineTools(): Promise<Session> {
  const sessions = await readFixtureSessions(FIXTURE_SOURCES.find((s) => s.label === 'cline')!)
  const s = sessions.find((x) => x.id === '1796022183774_v75nv')!
  return prepareForTarget(s, { agent: 'claude-code', displayName: 'Claude Code', providerFamily: 'anthropic', vocabulary: VOCABULARIES['claude-code']! }, { textOnly: false }).session
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
    newId: ids('11111111-2222-4333-8444-555555555555'),
    sourceRef: { agent: 'cline', sessionId: '1796022183774_v75nv', path: '/src/x.messages.json' },
    ...over,
  }
}

describe('claudeProjectFolder', () => {
  it('matches the folders the real Claude Code resumed from (hand-written probe)', () => {
    const folder = (variant: string) => readdirSync(join(HANDWRITTEN, variant, 'home/.claude/projects'))[0]!
    expect(claudeProjectFolder('/home/ana/src/My_Proj.v2 x (ü)')).toBe(folder('28-cwd-with-dots-underscores-space-non-ascii-my-proj-v2-x-ü'))
    const long = '/home/ana/src/' + 'a-very-long-project-folder-name-'.repeat(7)
    expect(claudeProjectFolder(long)).toBe(folder('29-cwd-whose-folder-name-is-longer-than-200-characters'))
    expect(claudeProjectFolder(long)).toMatch(/^.{200}-[0-9a-z]+$/)
    expect(claudeProjectFolder('/home/ana/src/ledger-api')).toBe('-home-ana-src-ledger-api')
  })
})

describe('writeClaudeSession', () => {
  it('writes one transcript: uuid chain, every tool_use followed by its tool_result, the resume command', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ccw-'))
    const session = await preparedClineTools()
    const r = await writeClaudeSession(session, await options(home))
    const file = join(home, '.claude/projects/-home-ana-src-invoice-service/11111111-2222-4333-8444-555555555555.jsonl')
    expect(r.output).toEqual({ sessionId: '11111111-2222-4333-8444-555555555555', files: [file], resumeCommand: 'claude --resume 11111111-2222-4333-8444-555555555555', cwd: '/home/ana/src/invoice-service', backups: [] })
    const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>) // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(records[0]).toEqual({ type: 'custom-title', customTitle: session.title, sessionId: r.output.sessionId })
    const msgs = records.slice(1)
    expect(msgs.map((m) => m.type)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant'])
    expect(msgs[0]!.parentUuid).toBeNull()
    msgs.forEach((m, i) => {
      expect(m.sessionId).toBe(r.output.sessionId)
      expect(m.uuid).toMatch(/^[0-9a-f-]{36}$/)
      if (i > 0) expect(m.parentUuid).toBe(msgs[i - 1]!.uuid)
    })
    // Each tool_use is answered in the next record(s) by a tool_result with its id.
    msgs.forEach((m, i) => {
      const uses = (m.message.content as { type: string; id?: string }[]).filter?.((b) => b.type === 'tool_use') ?? []
      uses.forEach((u, k) => expect(msgs[i + 1 + k]!.message.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: u.id }))
    })
    expect(msgs[1]!.message.content.map((b: { type: string; name?: string }) => b.name ?? b.type)).toEqual(['text', 'Bash'])
    expect(msgs[0]!.message.content).toBe('[tools] List the files, then create NOTES.md and mark its TODO line as done.')
    expect(msgs[1]!.timestamp).toBe('2026-11-30T07:03:04.251Z')
  })

  it('writes nothing on a dry run', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ccw-'))
    const r = await writeClaudeSession(await preparedClineTools(), await options(home, { dryRun: true }))
    expect(r.output.sessionId).toBe('11111111-2222-4333-8444-555555555555')
    expect(readdirSync(home)).toEqual([])
  })

  it('never overwrites an existing transcript', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ccw-'))
    const dir = join(home, '.claude/projects/-home-ana-src-invoice-service')
    mkdirSync(dir, { recursive: true })
    const existing = join(dir, '11111111-2222-4333-8444-555555555555.jsonl')
    writeFileSync(existing, 'original\n')
    await expect(writeClaudeSession(await preparedClineTools(), await options(home))).rejects.toMatchObject({ code: 'WRITE_FAILED' })
    expect(readFileSync(existing, 'utf8')).toBe('original\n')
    expect(readdirSync(dir)).toEqual(['11111111-2222-4333-8444-555555555555.jsonl'])
  })

  it.each(['staged:11111111-2222-4333-8444-555555555555.jsonl', 'renamed:11111111-2222-4333-8444-555555555555.jsonl'])('a fault at %s leaves nothing behind', async (step) => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-ccw-'))
    const fault = (s: string) => {
      if (s === step) throw new Error('disk full (injected)')
    }
    await expect(writeClaudeSession(await preparedClineTools(), await options(home, { fault }))).rejects.toMatchObject({ code: 'WRITE_FAILED', message: expect.stringContaining('disk full (injected)') })
    expect(existsSync(join(home, '.claude'))).toBe(false)
  })
})
