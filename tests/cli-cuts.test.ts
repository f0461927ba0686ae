/**
 * Where the CLI cuts a title or names a follow-up command: a cut title ends with "…" (never a
 * silent cut mid-word or mid-backtick), and "Run sepia list" carries the --home the user passed.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { main } from '../src/cli/index'
import { listCommand } from '../src/cli/terminal'
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

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const o = new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) })
  const e = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) })
  const code = await main(argv, o as unknown as NodeJS.WritableStream, e as unknown as NodeJS.WritableStream)
  return { code, out, err }
}

describe('"Run sepia list" hints', () => {
  it('repeats the --home the user passed', async () => {
    const r = await cli('show', 'nonexistent', '--home', 'fixtures/cline-3x/home')
    expect(r.code).toBe(1)
    expect(r.err).toContain('Run "sepia list --home fixtures/cline-3x/home" to see the ids.')
  })
  it('shell-quotes each home and adds none when none was passed', () => {
    expect(listCommand(['/a b', "/it's", '/plain'])).toBe("sepia list --home '/a b' --home '/it'\\''s' --home /plain")
    expect(listCommand([])).toBe('sepia list')
  })
})

describe('a home whose only history Sepia used to list as unreadable (Goose, read now)', () => {
  // The "found X history, which Sepia cannot read yet" sentence itself: tests/doctor.test.ts
  // (health/unread.ts lists no agent at present).
  const home = 'fixtures/public-real/goose/empty-cli-session/home'
  it('sepia list shows its one session (no messages) and no "cannot read" line', async () => {
    const r = await cli('list', '--home', home)
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^1 session in /)
    expect(r.out).not.toContain('cannot read yet')
  })
  it('sepia list on a home with sessions adds no such line', async () => {
    expect((await cli('list', '--home', 'fixtures/cline-3x/home')).out).not.toContain('cannot read yet')
  })
})
