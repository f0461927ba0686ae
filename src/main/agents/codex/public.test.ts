/**
 * Public sample rollouts (fixtures/public/codex): ccusage's fork/replay usage samples and
 * claude-code-log's synthetic rollouts. Goldens plus values checked against the lines.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { REPO_ROOT, expectGolden } from '../../../../tests/helpers/golden'
import { readFile } from '../../../../tests/builders/codex/testing'

const PUBLIC = join(REPO_ROOT, 'fixtures', 'public', 'codex')
const read = (name: string) => readFile(join(PUBLIC, name))

describe('codex public samples', () => {
  it('ccusage fork, same second, legacy totals: every turn is the fork’s own; deltas from running totals', async () => {
    const s = await read('ccusage__ccusage__fork-local-same-second-legacy.jsonl')
    expect(s.id).toBe('fresh-thread')
    expect(s.metadata).toMatchObject({ forkedFromId: 'parent-thread', source: 'vscode' })
    expect(s.metadata.replayedLines).toBeUndefined()
    // totals 1000/600/50/10 → 2000/1400/90/20 → 3000/2400/120/30: input excludes cache reads.
    expect(s.usage).toEqual({ inputTokens: 600, cacheReadTokens: 2400, outputTokens: 120, thinkingTokens: 30 })
    expect(s.nodes).toEqual([])
    expect(s.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
    expectGolden('codex/public-ccusage-fork-local-same-second-legacy', s)
  })

  it('ccusage replay over several seconds: the copied parent turns are not counted again', async () => {
    const s = await read('ccusage__ccusage__replay-multisecond-modern.jsonl')
    expect(s.id).toBe('multi-leaf')
    expect(s.metadata).toMatchObject({ forkedFromId: 'multi-parent', ancestorIds: ['multi-parent'], replayedLines: 5 })
    // Only the live turn (started_at after the fork) counts: 5000 in (3000 cached), 500 out.
    expect(s.usage).toEqual({ inputTokens: 2000, cacheReadTokens: 3000, outputTokens: 500, thinkingTokens: 50 })
    expect(s.diagnostics.filter((d) => d.severity !== 'info').map((d) => [d.line, d.severity, d.message])).toEqual([
      [3, 'error', 'line is not JSON; skipped'],
    ])
    expectGolden('codex/public-ccusage-replay-multisecond-modern', s)
  })

  it('claude-code-log structured rollout: echoes merged, reasoning sealed, patch diff, unknown record counted', async () => {
    const s = await read('daaain__claude-code-log__rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl')
    expect(s.id).toBe('11111111-1111-4111-8111-111111111111')
    expect(s.nodes.map((n) => n.role).join(',')).toBe('user,assistant,tool,assistant,tool,assistant,tool,assistant')
    expect(s.nodes[0]!.content).toBe('List the synthetic files.')
    expect(s.nodes[1]).toMatchObject({
      thinking: 'I will inspect the synthetic directory.',
      thinkingSignature: 'SYNTHETIC_ENCRYPTED_CONTENT_MUST_NOT_RENDER',
      model: 'synthetic-model',
    })
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    expect(calls.map((c) => [c.id, c.name, c.kind])).toEqual([
      ['call-structured-001', 'exec_command', 'execute'],
      ['call-custom-001', 'apply_patch', 'edit'],
      ['call-mcp-001', 'mcp__synthetic__lookup', 'other'],
    ])
    expect(countPairedToolCalls(s)).toEqual({ calls: 3, paired: 3 })
    expect(calls[1]!.diffs).toEqual([{ path: '/workspace/synthetic-project/gamma.txt', newText: 'synthetic\n' }])
    expect(s.nodes[4]!.content).toBe('Done!')
    expect(s.nodes[7]!.content).toBe('The synthetic files are alpha.txt and beta.txt.')
    expect(s.metadata.recordTypes).toMatchObject({ future_synthetic_record: 1 })
    expect(s.workingDirectory).toBe('/workspace/synthetic-project')
    expectGolden('codex/public-claude-code-log-11111111', s)
  })

  it('claude-code-log rollout with a broken line: the user_message event alone is the prompt', async () => {
    const s = await read('daaain__claude-code-log__rollout-66666666-6666-4666-8666-666666666666.jsonl')
    expect(s.nodes.map((n) => [n.role, n.content])).toEqual([['user', 'Safe line before malformed input.']])
    expect(s.title).toBe('Safe line before malformed input.')
    expect(s.diagnostics.filter((d) => d.severity === 'error').map((d) => d.line)).toEqual([3])
    expectGolden('codex/public-claude-code-log-66666666', s)
  })
})
