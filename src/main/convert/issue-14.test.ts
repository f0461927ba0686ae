/**
 * Issue 14, "Conversion of real sessions": a failed call keeps its failure in every target that has
 * the notion, and foreign input-token counts are dropped for every target alike.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { MessageNode, Session, ToolCall } from '../../shared/ir'
import { AGENTS } from '../agents/registry'
import { newSession } from '../ir/build'
import { toolKind } from '../ir/toolkind'
import { layoutForHome } from '../platform'
import { runConversion, targetProfile } from './convert'
import { FAILED_NO_RESULT_TEXT, prepareForTarget } from './prepare'

const call = (id: string, name: string, args: unknown, extra: Partial<ToolCall> = {}): ToolCall => ({ id, name, kind: toolKind(name), arguments: args, ...extra })
const homes: string[] = []
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })))

/** A Codex session: one failed call with no result, one failed call whose result lacks isError; usage with input counts. */
function codexSession(): Session {
  const s = newSession('codex', 'src-1', 'test', ['/src/rollout.jsonl'])
  const nodes: MessageNode[] = [
    { nodeId: 'u1', role: 'user', content: 'run the tests' },
    {
      nodeId: 'a1',
      role: 'assistant',
      content: 'Running them.',
      toolCalls: [call('c1', 'shell', { command: ['npm', 'test'] }, { status: 'failed' }), call('c2', 'shell', { command: ['ls'] }, { isError: true, status: 'failed' })],
      usage: { inputTokens: 90_000, cacheReadTokens: 80_000, outputTokens: 40 },
    },
    { nodeId: 'r2', role: 'tool', toolCallId: 'c2', content: 'ls: cannot access' },
    { nodeId: 'a2', role: 'assistant', content: 'Both failed.', usage: { inputTokens: 91_000, outputTokens: 5 } },
  ]
  nodes.forEach((n, i) => i > 0 && (n.parentNodeId = nodes[i - 1]!.nodeId))
  return { ...s, workingDirectory: '/home/ana/src/app', nodes }
}

const WRITABLE = AGENTS.filter((a) => a.capabilities.canWrite && a.id !== 'codex')

describe('failed calls', () => {
  for (const target of WRITABLE) {
    it(`${target.id}: both results are errors, the missing one says it failed`, () => {
      const { session } = prepareForTarget(codexSession(), targetProfile(target), { textOnly: false })
      const results = session.nodes.filter((n) => n.role === 'tool')
      expect(results.map((r) => r.isError)).toEqual([true, true])
      expect(results[0]!.content).toBe(FAILED_NO_RESULT_TEXT)
    })
  }

  it('Claude Code: the written tool_result blocks carry is_error (read from the raw file)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-i14f-'))
    homes.push(home)
    const target = AGENTS.find((a) => a.id === 'claude-code')!
    const r = await runConversion({ session: codexSession(), target, layout: await layoutForHome({ home }), textOnly: false, now: () => 1_800_000_000_000, ctx: { now: () => 1_800_000_000_000 } as never })
    const records = readFileSync(r.files[0]!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { message?: { content?: unknown } })
    const blocks = records.flatMap((x) => (Array.isArray(x.message?.content) ? (x.message!.content as { type: string; is_error?: boolean }[]) : [])).filter((b) => b.type === 'tool_result')
    expect(blocks.map((b) => b.is_error)).toEqual([true, true])
  })

  it('text only: both results say (error)', () => {
    const { session } = prepareForTarget(codexSession(), targetProfile(AGENTS.find((a) => a.id === 'claude-code')!), { textOnly: true })
    expect(session.nodes.filter((n) => n.content.startsWith('[Tool result:')).map((n) => n.content.split('\n')[0])).toEqual(['[Tool result: shell (error)]', '[Tool result: shell (error)]'])
  })
})

describe('foreign input-token counts', () => {
  for (const target of WRITABLE) {
    it(`${target.id}: dropped and said so; output tokens stay`, () => {
      const { session, warnings } = prepareForTarget(codexSession(), targetProfile(target), { textOnly: false })
      const usages = session.nodes.filter((n) => n.role === 'assistant').map((n) => n.usage)
      expect(usages).toEqual([{ outputTokens: 40 }, { outputTokens: 5 }])
      expect(warnings.find((w) => w.kind === 'input-usage-dropped')).toMatchObject({ count: 2 })
    })
  }

  it('Codex to Codex keeps them', () => {
    const { session, warnings } = prepareForTarget(codexSession(), targetProfile(AGENTS.find((a) => a.id === 'codex')!), { textOnly: false })
    expect(session.nodes[1]!.usage).toEqual({ inputTokens: 90_000, cacheReadTokens: 80_000, outputTokens: 40 })
    expect(warnings.find((w) => w.kind === 'input-usage-dropped')).toBeUndefined()
  })
})

describe('server-side tools', () => {
  /** `[server_tool_use web_search, web_search_tool_result, text]` as the Claude Code reader gives it. */
  function claudeSearch(): Session {
    const s = newSession('claude-code', 'src-2', 'test', ['/src/s.jsonl'])
    const nodes: MessageNode[] = [
      { nodeId: 'u1', role: 'user', content: 'what is new in node 24?' },
      { nodeId: 'a1', role: 'assistant', content: 'Node 24 ships V8 13.6.', toolCalls: [call('srvtoolu_01', 'web_search', { query: 'node 24 release notes' }, { status: 'completed' })] },
      { nodeId: 'u2', role: 'user', content: 'thanks' },
    ]
    nodes.forEach((n, i) => i > 0 && (n.parentNodeId = nodes[i - 1]!.nodeId))
    return { ...s, workingDirectory: '/home/ana/src/app', nodes }
  }

  for (const target of AGENTS.filter((a) => a.capabilities.canWrite)) {
    it(`${target.id}: the search is text before the answer, not a client call awaiting a result`, () => {
      const { session, warnings } = prepareForTarget(claudeSearch(), targetProfile(target), { textOnly: false })
      expect(session.nodes.map((n) => n.role)).toEqual(['user', 'assistant', 'user'])
      // The source did not "lose" the search's result: the provider answered it in the same message.
      expect(warnings.find((w) => w.kind === 'unpaired-call-result-added')).toBeUndefined()
      const a = session.nodes[1]!
      expect(a.toolCalls).toBeUndefined()
      expect(a.content).toBe('[web_search run by the provider: "node 24 release notes"]\n\nNode 24 ships V8 13.6.')
      expect(a.content.endsWith('Node 24 ships V8 13.6.')).toBe(true)
    })
  }

  it('a Codex web_search_call is text too', () => {
    const s = codexSession()
    s.nodes[1]!.toolCalls!.push(call('ws_1', 'web_search', { type: 'search', query: 'vitest 4' }, { status: 'completed' }))
    const { session } = prepareForTarget(s, targetProfile(AGENTS.find((a) => a.id === 'claude-code')!), { textOnly: false })
    expect(session.nodes[1]!.toolCalls!.map((c) => c.id)).not.toContain('ws_1')
    expect(session.nodes[1]!.content.startsWith('[web_search run by the provider: "vitest 4"]')).toBe(true)
  })
})

describe('an image whose data does not decode (RESUME-MATRIX.md 019ddeed → opencode)', () => {
  // The published public-real copy has runs of the payload replaced by "REDACTED"; OpenCode stops on such a data: URL.
  const GOOD = 'iVBORw0KGgo='
  const BAD = 'iVBORw0KGgoREDACTED'
  function withImages(): Session {
    const s = newSession('claude-code', 'src-img', 'test', ['/src/i.jsonl'])
    const nodes: MessageNode[] = [
      { nodeId: 'u1', role: 'user', content: 'look at these', blocks: [{ type: 'text', text: 'look at these' }, { type: 'image', mediaType: 'image/png', data: BAD }, { type: 'image', mediaType: 'image/png', data: GOOD }] },
      { nodeId: 'a1', role: 'assistant', content: 'Two screenshots.' },
    ]
    nodes.forEach((n, i) => i > 0 && (n.parentNodeId = nodes[i - 1]!.nodeId))
    return { ...s, workingDirectory: '/home/ana/src/app', nodes }
  }

  for (const id of ['opencode', 'cline', 'codex', 'claude-code']) {
    it(`${id}: the undecodable one becomes a note with a warning, the good one stays`, () => {
      const { session, warnings } = prepareForTarget(withImages(), targetProfile(AGENTS.find((a) => a.id === id)!), { textOnly: false })
      const u = session.nodes[0]!
      expect(u.blocks!.filter((b) => b.type === 'image').map((b) => (b as { data?: string }).data)).toEqual([GOOD])
      expect(u.content).toContain('[Image (image/png), not carried over]')
      expect(warnings).toContainEqual({ kind: 'image-undecodable', count: 1 })
    })
  }
})
