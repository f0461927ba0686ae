/**
 * `sepia list --agent ID` (a first-user try: `list --agent codex` printed every agent's sessions,
 * and `list --agent bogus` was accepted without a word). Counts come from the raw homes.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli as run } from './helpers/cli-run'
import { findAppRoot } from '../src/main/context'

const ROOT = findAppRoot()
const CLAUDE = join(ROOT, 'fixtures/real/claude-code/home')
const CODEX = join(ROOT, 'fixtures/real/codex/home')

describe('sepia list --agent', () => {
  it('lists only that agent, in text and in JSON, and refuses an id that is no agent', async () => {
    // Independent count: one rollout file per Codex session.
    const rollouts = readdirSync(join(CODEX, '.codex/sessions'), { recursive: true }).filter((f) => String(f).endsWith('.jsonl')).length
    const json = await run('list', '--home', CLAUDE, '--home', CODEX, '--agent', 'codex', '--json')
    expect(json.code).toBe(0)
    const sessions = (JSON.parse(json.out) as { sessions: { agent: string }[] }).sessions
    expect(sessions.length).toBe(rollouts)
    expect(new Set(sessions.map((s) => s.agent))).toEqual(new Set(['codex']))
    const text = await run('list', '--home', CLAUDE, '--home', CODEX, '--agent', 'codex')
    expect(text.code).toBe(0)
    expect(text.out).toContain('codex (')
    expect(text.out).not.toContain('claude-code (')
    const bad = await run('list', '--home', CLAUDE, '--agent', 'bogus')
    expect(bad.code).not.toBe(0)
    expect(bad.err).toContain('"bogus" is not an agent id')
  })
})
