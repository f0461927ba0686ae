/**
 * Issue #5: a ~21 MB single line — a sub-agent's result, its text both in the `tool_result` and in
 * `toolUseResult.content` as Claude Code writes it — is read whole by the reader and indexed by
 * the catalog's streaming path with the right values (generated here, never committed).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { claudeCode } from '../agents/claude-code'
import { layoutForHome } from '../platform'
import { MAX_TOOL_CHARS } from './extract'
import { indexRefs } from './indexer'
import { openCatalog } from './schema'
import { CatalogStore } from './store'

const home = mkdtempSync(join(tmpdir(), 'sepia-long-line-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))
const ctx = { now: () => 1_800_000_000_000 }
const ID = '11111111-2222-4333-8444-555555555555'
const AGENT = 'a0123456789abcdef'
const TEXT_CHARS = 10_500_000

/** Write the parent session (prompt, Task call, the huge result, a reply) and the sub-agent's file. */
function writeHome(): { path: string; lineBytes: number } {
  const dir = join(home, '.claude/projects/-home-ana-big')
  mkdirSync(join(dir, ID, 'subagents'), { recursive: true })
  const base = (n: number, parent: number | null) => ({ uuid: `00000000-0000-4000-8000-00000000000${n}`, parentUuid: parent === null ? null : `00000000-0000-4000-8000-00000000000${parent}`, sessionId: ID, cwd: '/home/ana/big', timestamp: `2026-03-01T10:00:0${n}.000Z` })
  // Code-like text with the planted word near the start (indexed) and near the end (cut off).
  const chunk = 'const value = readLines(path) // ünïcödé line of a long sub-agent report\n'
  const text = 'zanzibarquokka ' + chunk.repeat(Math.ceil(TEXT_CHARS / chunk.length)).slice(0, TEXT_CHARS) + ' frobnicate_widget'
  const big = JSON.stringify({
    ...base(3, 2),
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_task', content: [{ type: 'text', text }] }] },
    toolUseResult: { status: 'completed', agentId: AGENT, content: [{ type: 'text', text }], totalDurationMs: 5000, totalTokens: 1234 },
  })
  const lines = [
    JSON.stringify({ ...base(1, null), type: 'user', message: { role: 'user', content: 'Summarise the repository with a sub-agent' } }),
    JSON.stringify({ ...base(2, 1), type: 'assistant', message: { id: 'msg_1', role: 'assistant', model: 'claude-opus-4-1', content: [{ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { description: 'Survey', prompt: 'Read everything' } }], usage: { input_tokens: 10, output_tokens: 20 } } }),
    big,
    JSON.stringify({ ...base(4, 3), type: 'assistant', message: { id: 'msg_2', role: 'assistant', model: 'claude-opus-4-1', content: [{ type: 'text', text: 'Done.' }], usage: { input_tokens: 30, output_tokens: 40 } } }),
  ]
  const path = join(dir, `${ID}.jsonl`)
  writeFileSync(path, lines.join('\n') + '\n')
  const sub = { ...base(1, null), isSidechain: true, agentId: AGENT, type: 'user', message: { role: 'user', content: 'Read everything' } }
  writeFileSync(join(dir, ID, 'subagents', `agent-${AGENT}.jsonl`), JSON.stringify(sub) + '\n')
  return { path, lineBytes: Buffer.byteLength(big) }
}

describe('a 20 MB single line', () => {
  it('is read whole by the reader and indexed by the streaming path with the right values', async () => {
    const { path, lineBytes } = writeHome()
    expect(lineBytes).toBeGreaterThan(20_000_000)
    const { refs } = await claudeCode.discover(await layoutForHome({ home }), ctx)
    const ref = { ...refs.find((r) => r.sessionId === ID)!, home }
    expect(ref.size).toBe(statSync(path).size)

    const s = await claudeCode.read(ref, ctx)
    expect(s.diagnostics).toEqual([])
    expect(s.nodes.map((n) => n.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    const result = s.nodes[2]!
    expect(result.content).toHaveLength(TEXT_CHARS + 'zanzibarquokka '.length + ' frobnicate_widget'.length)
    expect(result.content.endsWith(' frobnicate_widget')).toBe(true)
    expect(result.metadata).toMatchObject({ agentId: AGENT, durationMs: 5000, toolUseResult: { status: 'completed', agentId: AGENT, totalDurationMs: 5000, totalTokens: 1234, truncated: true } })
    const call = s.nodes[1]!.toolCalls![0]!
    expect(call).toMatchObject({ id: 'toolu_task', name: 'Task', status: 'completed', durationMs: 5000, subagentSessionId: AGENT })
    expect(s.childSessionIds).toEqual([AGENT])

    const store = new CatalogStore(openCatalog(':memory:'))
    const errors: unknown[] = []
    await indexRefs([ref], () => claudeCode, store, ctx, (i) => i.error && errors.push(i.error))
    expect(errors).toEqual([])
    const row = store.db.prepare('SELECT * FROM sessions WHERE session_id = ?').get(ID) as Record<string, unknown>
    expect(row).toMatchObject({ message_count: 3, tool_call_count: 1, node_count: 4, input_tokens: 40, output_tokens: 60, model: 'claude-opus-4-1', title: 'Summarise the repository with a sub-agent' })
    const skeleton = store.skeletonOf(row.sid as number)!
    expect(skeleton.nodes.flatMap((n) => n.toolCalls ?? []).map((c) => c.subagentSessionId)).toEqual([AGENT])
    const msgs = store.db.prepare('SELECT seq, role, tool_names, length(text) AS chars FROM messages ORDER BY seq').all()
    expect(msgs).toEqual([
      { seq: 0, role: 'user', tool_names: '', chars: 41 },
      { seq: 1, role: 'assistant', tool_names: ' Task ', chars: expect.any(Number) },
      { seq: 2, role: 'tool', tool_names: ' Task ', chars: MAX_TOOL_CHARS },
      { seq: 3, role: 'assistant', tool_names: '', chars: 5 },
    ])
    // The head of the result is searchable, its tail is past the indexed 4,000 characters.
    const step = store.ftsStep(100)
    expect(step).toBe(4)
    const hits = (word: string) => (store.db.prepare('SELECT rowid FROM fts WHERE fts MATCH ?').all(word) as unknown[]).length
    expect(hits('zanzibarquokka')).toBe(1)
    expect(hits('frobnicate_widget')).toBe(0)
  }, 60_000)
})
