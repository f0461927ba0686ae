/**
 * Claude Code 2.1.332 (`@anthropic-ai/claude-code`, native binary) against the mock's Anthropic
 * Messages API. From the shared kit (`realstores/lib/agents.sh`, README "Claude Code 2.1.332"):
 * env `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`, `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1` (no
 * title or token-count requests), `DISABLE_AUTOUPDATER`, `DISABLE_TELEMETRY`,
 * `DISABLE_ERROR_REPORTING`, `CLAUDE_CODE_TMPDIR`; as root `--dangerously-skip-permissions` needs
 * `IS_SANDBOX=1`. Resume: `claude -p --dangerously-skip-permissions --output-format json --resume
 * <id> "<prompt>"`, run in the session's project folder.
 */
import { join } from 'node:path'
import { baseEnv, run } from '../sandbox'
import type { Driver } from './types'

/**
 * The environment every run of `claude` here gets (the resume driver, put-back, rewind, the MCP
 * proof): `baseEnv` of the sandbox `home` plus the mock's Anthropic endpoint `mockUrl`, no
 * nonessential traffic, updates, telemetry or error reports, its temp folder inside the sandbox,
 * and `IS_SANDBOX=1` as root; `extra` adds or overrides variables.
 */
export function claudeCodeEnv(home: string, mockUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return baseEnv(home, {
    ANTHROPIC_BASE_URL: mockUrl,
    ANTHROPIC_API_KEY: 'sk-ant-mock',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_TMPDIR: join(home, 'tmp'),
    ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
    ...extra,
  })
}

export const claudeCodeDriver: Driver = {
  agent: 'claude-code',
  package: { name: 'claude-code', pkg: '@anthropic-ai/claude-code', version: process.env.CLAUDE_CODE_VERSION || '2.1.332', bin: 'claude' },
  scenario: 'claude-code.json',
  async prepareHome() {
    // Nothing to set up: the provider comes from the environment.
  },
  async resume(ctx, sessionId, prompt) {
    const env = claudeCodeEnv(ctx.sandbox.home, ctx.mock.url)
    const r = await run(ctx.bin, ['-p', '--dangerously-skip-permissions', '--output-format', 'json', '--resume', sessionId, prompt], { cwd: ctx.sandbox.cwd, env, timeoutMs: 180_000 })
    return { exitCode: r.code, output: r.output + (r.timedOut ? '\n[stopped after 180 s]' : '') }
  },
}
