/**
 * Rollout shapes written into temporary files: the 2025 bare-line format, a fork with copied
 * history, a fork without turn markers, and the record kinds the real store does not show
 * (ghost snapshots, compactions, aborted turns, errors, hosted tools, newer kinds).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SepiaError } from '../../../shared/api'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { readFile } from '../../../../tests/builders/codex/testing'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sepia-codex-shapes-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Write `lines` (objects are JSON-encoded) to `name` in the temp folder. */
function write(name: string, lines: unknown[]): string {
  const path = join(dir, name)
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n')
  return path
}
const T0 = Date.parse('2026-03-01T10:00:00.500Z')
const iso = (offsetMs: number) => new Date(T0 + offsetMs).toISOString()
const rec = (offsetMs: number, type: string, payload: object) => ({ timestamp: iso(offsetMs), type, payload })
const item = (offsetMs: number, payload: object) => rec(offsetMs, 'response_item', payload)
const event = (offsetMs: number, payload: object) => rec(offsetMs, 'event_msg', payload)
const text = (role: string, t: string) => ({ type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text: t }] })
const usage = (input: number, cached: number, output: number) => ({ input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output })
const tokenCount = (offsetMs: number, total: object, last: object) => event(offsetMs, { type: 'token_count', info: { total_token_usage: total, last_token_usage: last } })
const CHILD = 'c0000000-0000-4000-8000-000000000001'
const PARENT = 'c0000000-0000-4000-8000-000000000002'
const meta = (id: string, extra: object = {}) => ({ id, timestamp: iso(0), cwd: '/p', originator: 'codex_cli_rs', cli_version: '0.50.0', source: 'cli', ...extra })

describe('codex rollout shapes', () => {
  it('reads the 2025 bare-line format: meta, state records, items without a wrapper', async () => {
    const s = await readFile(
      write('rollout-2025-05-01T10-00-00-a0000000-0000-4000-8000-000000000000.jsonl', [
        { id: 'a0000000-0000-4000-8000-000000000000', timestamp: '2025-05-01T10:00:00.000Z', instructions: null, git: { branch: 'dev' } },
        { record_type: 'state' },
        text('user', '<user_instructions>\nbe brief\n</user_instructions>'),
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the bug' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBOR' }] },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA-sealed' },
        { type: 'local_shell_call', call_id: 'call_1', status: 'completed', action: { type: 'exec', command: ['bash', '-lc', 'ls'] } },
        { type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ output: 'a.txt\n', metadata: { exit_code: 1, duration_seconds: 0.25 } }) },
        {
          type: 'function_call',
          name: 'shell',
          call_id: 'call_2',
          arguments: JSON.stringify({ command: ['apply_patch', '*** Begin Patch\n*** Update File: src/a.py\n@@\n-    return 1\n+    return 2\n*** End Patch\n'] }),
        },
        { type: 'function_call_output', call_id: 'call_2', output: { content: 'patch rejected', success: false } },
        text('assistant', 'Done.'),
      ]),
    )
    expect(s.id).toBe('a0000000-0000-4000-8000-000000000000')
    expect(s.git).toEqual({ branch: 'dev' })
    expect(s.createdAt).toBe(Date.parse('2025-05-01T10:00:00.000Z'))
    expect(s.nodes.map((n) => [n.role, !!n.isMeta])).toEqual([
      ['system', true],
      ['user', false],
      ['assistant', false],
      ['tool', false],
      ['assistant', false],
      ['tool', false],
      ['assistant', false],
    ])
    const [, prompt, a1, t1, a2, t2] = s.nodes
    expect(prompt!.content).toBe('fix the bug')
    expect(prompt!.blocks).toEqual([{ type: 'text', text: 'fix the bug' }, { type: 'image', mediaType: 'image/png', data: 'iVBOR' }])
    expect(a1!.thinking).toBeUndefined()
    expect(a1!.thinkingSignature).toBe('gAAAA-sealed')
    expect(a1!.toolCalls![0]).toMatchObject({ id: 'call_1', name: 'local_shell', kind: 'execute', exitCode: 1, durationMs: 250, status: 'completed' })
    expect(t1!.content).toBe('a.txt\n')
    expect(a2!.toolCalls![0]).toMatchObject({ name: 'shell', kind: 'execute', status: 'failed', isError: true })
    expect(a2!.toolCalls![0]!.diffs).toEqual([{ path: 'src/a.py', oldText: '    return 1', newText: '    return 2' }])
    expect(t2).toMatchObject({ content: 'patch rejected', isError: true })
    expect(s.metadata.recordTypes).toMatchObject({ session_meta: 1, state: 1, response_item: 8 })
    expect(summarize(s, dir).firstPrompt).toBe('fix the bug')
  })

  it('a fork: copied parent history is hidden and not counted; the fork’s own turn, title and usage stand', async () => {
    const sec = Math.floor(T0 / 1000)
    const s = await readFile(
      write(`rollout-2026-03-01T10-00-00-${CHILD}.jsonl`, [
        rec(0, 'session_meta', meta(CHILD, { forked_from_id: PARENT })),
        rec(0, 'session_meta', meta(PARENT)),
        event(1, { type: 'task_started', turn_id: 'old', started_at: sec - 3600 }),
        rec(2, 'turn_context', { model: 'gpt-old', cwd: '/p' }),
        item(3, text('user', 'parent prompt')),
        item(4, text('assistant', 'parent answer')),
        tokenCount(5, usage(100, 0, 10), usage(100, 0, 10)),
        event(5000, { type: 'task_started', turn_id: 'new', started_at: sec + 5 }),
        rec(5001, 'turn_context', { model: 'gpt-new', cwd: '/p' }),
        item(5002, text('user', 'fork prompt')),
        item(5003, { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'raw thinking' }] }),
        item(5004, text('assistant', 'fork answer')),
        tokenCount(5005, usage(400, 100, 30), usage(300, 100, 20)),
        tokenCount(5006, usage(400, 100, 30), usage(300, 100, 20)),
        item(5007, { type: 'function_call', name: 'exec_command', arguments: '{not json', call_id: 'call_x' }),
      ]),
    )
    expect(s.id).toBe(CHILD)
    expect(s.metadata).toMatchObject({ forkedFromId: PARENT, ancestorIds: [PARENT], replayedLines: 6, replayedNodes: 2 })
    const copied = s.nodes.filter((n) => n.metadata?.replayed)
    expect(copied.map((n) => [n.content, n.isMeta, n.usage])).toEqual([
      ['parent prompt', true, undefined],
      ['parent answer', true, undefined],
    ])
    expect(s.title).toBe('fork prompt')
    const change = s.nodes.find((n) => n.event === 'model-change')!
    expect(change).toMatchObject({ metadata: { from: 'gpt-old', to: 'gpt-new' } })
    expect(change.isMeta).toBeUndefined()
    const answer = s.nodes.find((n) => n.content === 'fork answer')!
    expect(answer).toMatchObject({ thinking: 'raw thinking', model: 'gpt-new', usage: { inputTokens: 200, cacheReadTokens: 100, outputTokens: 20, thinkingTokens: 0 } })
    // The repeated token_count (same totals) is not a second response.
    expect(s.usage).toEqual({ inputTokens: 200, cacheReadTokens: 100, outputTokens: 20, thinkingTokens: 0 })
    expect(s.model).toBe('gpt-new')
    const call = s.nodes.flatMap((n) => n.toolCalls ?? [])[0]!
    expect(call).toMatchObject({ id: 'call_x', arguments: '{not json', status: 'pending' })
  })

  it('a fork without turn markers: nothing is taken for a copy, and the reader says so', async () => {
    const s = await readFile(
      write(`rollout-2026-03-01T10-00-00-${PARENT}.jsonl`, [
        rec(0, 'session_meta', meta(PARENT, { forked_from_id: CHILD })),
        rec(0, 'session_meta', meta(CHILD)),
        item(1, text('user', 'old prompt')),
        item(2, text('assistant', 'old answer')),
        item(3000, text('user', 'new prompt')),
      ]),
    )
    expect(s.nodes.map((n) => [n.content, !!n.isMeta])).toEqual([
      ['old prompt', false],
      ['old answer', false],
      ['new prompt', false],
    ])
    expect(s.diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['info', `the rollout copies history of ${CHILD} without turn markers; copied turns are shown as this session's own`],
    ])
  })

  it('keeps checkpoints, compactions, aborted turns, errors, hosted tools, lone echoes and newer kinds', async () => {
    const s = await readFile(
      write('rollout-2026-03-01T10-00-00-d0000000-0000-4000-8000-000000000000.jsonl', [
        rec(0, 'session_meta', meta('d0000000-0000-4000-8000-000000000000')),
        rec(1, 'turn_context', { model: 'gpt-5', cwd: '/p' }),
        item(2, text('user', 'search the web')),
        item(3, { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'codex' } }),
        item(4, { type: 'ghost_snapshot', ghost_commit: { id: 'abc123', parent: 'def456' } }),
        rec(5, 'compacted', { message: 'summary of the work', replacement_history: [text('user', 'x'), text('assistant', 'y')] }),
        item(6, { type: 'compaction', encrypted_content: 'sealed-summary' }),
        event(7, { type: 'turn_aborted', reason: 'interrupted' }),
        event(8, { type: 'error', message: 'stream disconnected' }),
        event(9, { type: 'agent_message', message: 'only in the event' }),
        event(10, { type: 'agent_reasoning', text: 'only in the event too' }),
        event(11, { type: 'thread_name_updated', thread_name: 'Web search' }),
        rec(12, 'brand_new_kind', { text: 'hello from the future' }),
        rec(13, 'brand_new_kind', { numbers: [1, 2] }),
        '',
        '[1, 2]',
      ]),
    )
    expect(s.title).toBe('Web search')
    expect(s.checkpoints).toEqual([{ ref: 'abc123', kind: 'ghost-snapshot', createdAt: T0 + 4 }])
    expect(s.nodes.map((n) => [n.role, n.event ?? '', n.content])).toEqual([
      ['user', '', 'search the web'],
      ['assistant', '', ''],
      ['system', 'compaction', 'summary of the work'],
      ['system', 'interrupted', 'interrupted'],
      ['system', 'unknown-event', 'stream disconnected'],
      ['assistant', '', 'only in the event'],
      ['assistant', '', ''],
      ['system', 'unknown-event', 'hello from the future'],
    ])
    expect(s.nodes[1]!.toolCalls).toEqual([{ id: 'ws_1', name: 'web_search', kind: 'fetch', arguments: { type: 'search', query: 'codex' }, status: 'completed' }])
    expect(s.nodes[2]!.metadata).toEqual({ replacementItems: 2, item: 'compaction' })
    expect(s.nodes[4]!.metadata).toEqual({ recordType: 'event_msg:error' })
    expect(s.nodes[6]).toMatchObject({ thinking: 'only in the event too', model: 'gpt-5' })
    expect(s.nodes[7]!.metadata).toEqual({ recordType: 'brand_new_kind' })
    expect(s.metadata.recordTypes).toMatchObject({ brand_new_kind: 2, compacted: 1 })
    expect(s.diagnostics.map((d) => [d.line, d.severity])).toEqual([[16, 'warning']])
    expect(countPairedToolCalls(s)).toEqual({ calls: 1, paired: 0 })
  })

  it('rejects with READ_FAILED when the rollout cannot be opened', async () => {
    const err = await readFile(join(dir, 'gone.jsonl')).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SepiaError)
    expect(err).toMatchObject({ code: 'READ_FAILED' })
  })
})
