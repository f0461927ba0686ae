/**
 * Where the CLI cuts a title or names a follow-up command: a cut title ends with "…" (never a
 * silent cut mid-word or mid-backtick), and "Run sepia list" carries the --home the user passed.
 */
import { describe, expect, it } from 'vitest'
import { formatPlan } from '../src/cli/convert'
import type { ConvertPlan } from '../src/shared/convert'

const plan = (title: string): ConvertPlan =>
  ({
    source: { agent: 'claude-code', id: 'cde341db', title },
    target: { agent: 'codex', displayName: 'Codex', home: '/tmp/t' },
    textOnly: false,
    warnings: [],
    losses: 0,
    counts: { userMessages: 1, assistantMessages: 1, toolCalls: 0, pairedCalls: 0 },
    sessionId: 'x',
    files: [],
    resumeCommand: 'codex resume x',
  }) as unknown as ConvertPlan

describe('sepia convert --dry-run title', () => {
  it('cuts a long title with an ellipsis', () => {
    const title = "I've noticed whatever command I invoke (e.g., `./entire help`) it prints the banner twice"
    const text = formatPlan(plan(title))
    const shown = /\("(.*)"\)/.exec(text.split('\n')[0]!)![1]!
    expect(shown.endsWith('…')).toBe(true)
    expect(shown.length).toBeLessThanOrEqual(60)
    expect(title.startsWith(shown.slice(0, -1))).toBe(true)
  })
  it('leaves a short title whole', () => {
    expect(formatPlan(plan('Fix the build'))).toContain('("Fix the build")')
  })
})
