/**
 * The Continue CLI 1.5.47 (`@continuedev/cli`, binary `cn`, a Node bundle) against the mock's Chat
 * Completions API (streaming). From the run that recorded fixtures/real/continue (its
 * `gen/gen-continue.sh` and README "How it ran"): `~/.continue/config.yaml`, a local config (no
 * Continue Hub login) with one model `provider: openai`, `apiBase: <mock>/v1`, passed with
 * `--config`; `~/.continue/.onboarding_complete` (what the CLI's own e2e tests write to skip
 * onboarding); env `CONTINUE_METRICS_ENABLED=0`, `CONTINUE_CLI_ENABLE_TELEMETRY=0`,
 * `FORCE_NO_TTY=true` (headless mode checks for no update). Resume: `cn --config <it> -p --fork <id>
 * "<prompt>"` in the project folder: `--fork` loads the session by id (`loadSessionById`) and
 * continues it as a new session, which is the writer's `resumeCommand` (`cn --resume` takes the
 * newest session file instead, not an id). The CLI's log lines saying it compacted the history
 * (`CONTINUE_AUTO_COMPACTED`, check.ts) are appended to the output: headless mode prints only the answer.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CONTINUE_AUTO_COMPACTED } from '../check'
import { baseEnv, loadScaled, run } from '../sandbox'
import type { Driver } from './types'

/** The recording run's local config (fixtures/real/continue/README.md), for a mock at `url`. */
export function continueConfig(url: string): string {
  return ['name: Local config', 'version: 1.0.0', 'schema: v1', 'models:', '  - name: mock-model', '    provider: openai', '    model: mock-model', '    apiKey: mock-key', `    apiBase: ${url}/v1`, '    roles:', '      - chat', ''].join('\n')
}

/** The Continue CLI target of the resume matrix (see the module comment). */
export const continueDriver: Driver = {
  agent: 'continue',
  package: { name: 'continue', pkg: '@continuedev/cli', version: process.env.CONTINUE_CLI_VERSION || '1.5.47', bin: 'cn' },
  scenario: 'continue.json',
  async prepareHome(ctx) {
    const dir = join(ctx.sandbox.home, '.continue')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'config.yaml'), continueConfig(ctx.mock.url))
    writeFileSync(join(dir, '.onboarding_complete'), new Date(0).toISOString())
  },
  async resume(ctx, sessionId, prompt) {
    const env = baseEnv(ctx.sandbox.home, { CONTINUE_METRICS_ENABLED: '0', CONTINUE_CLI_ENABLE_TELEMETRY: '0', FORCE_NO_TTY: 'true' })
    const timeoutMs = loadScaled(180_000)
    const args = ['--config', join(ctx.sandbox.home, '.continue', 'config.yaml'), '-p', '--fork', sessionId, prompt]
    const r = await run(ctx.bin, args, { cwd: ctx.sandbox.cwd, env, timeoutMs })
    // Headless mode prints only the answer; whether the CLI compacted the history is in its log.
    const logFile = join(ctx.sandbox.home, '.continue', 'logs', 'cn.log')
    const compacted = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter((l) => l.includes(CONTINUE_AUTO_COMPACTED)) : []
    return { exitCode: r.code, output: r.output + (r.timedOut ? `\n[stopped after ${Math.round(timeoutMs / 1000)} s]` : '') + compacted.map((l) => `\n[cn.log] ${l}`).join('') }
  },
}
