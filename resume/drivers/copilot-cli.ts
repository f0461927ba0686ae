/**
 * GitHub Copilot CLI 1.0.102 (`@github/copilot`: `npm-loader.js` starts the platform binary of
 * `@github/copilot-<platform>`) against the mock's Chat Completions API (streaming). From the run
 * that recorded fixtures/real/copilot-cli (`gen/gen-copilot.sh`, README): the CLI's own BYOK env
 * (`copilot help providers`) `COPILOT_PROVIDER_BASE_URL=<mock>/v1`, `COPILOT_PROVIDER_API_KEY`,
 * `COPILOT_MODEL=mock-model`; `COPILOT_OFFLINE=true` (no GitHub authentication, telemetry, web
 * tools, GitHub MCP server or auto-update) and `COPILOT_AUTO_UPDATE=false`. A model the CLI's
 * catalog does not know gets a 128,000-token prompt limit, and the CLI then truncates a long
 * history before sending it (`session.truncation`, "BasicTruncator"; 7 public-real sessions of
 * 130k to 400k tokens lost turns that way): `COPILOT_PROVIDER_MAX_PROMPT_TOKENS=1000000` (the
 * CLI's own BYOK setting, what a user with a 1M-token model sets) lets the whole history through. Resume: `copilot
 * --allow-all --no-auto-update --disable-client-telemetry --resume=<id> -p "<prompt>"`, run in the
 * session's project folder. The binary unpacks its package (about 235 MB) into
 * `$XDG_CACHE_HOME/copilot` on first start; the sandbox's `.cache/copilot` is a link to one shared
 * folder in the harness cache so that is done once, not per case (it holds only the package).
 */
import { existsSync, mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { baseEnv, cacheRoot, loadScaled, run } from '../sandbox'
import type { Driver } from './types'

/** The Copilot CLI target of the resume matrix (see the module comment). */
export const copilotCliDriver: Driver = {
  agent: 'copilot-cli',
  package: { name: 'copilot-cli', pkg: '@github/copilot', version: process.env.COPILOT_CLI_VERSION || '1.0.102', bin: 'copilot' },
  scenario: 'copilot-cli.json',
  async prepareHome(ctx) {
    const shared = join(cacheRoot(), `copilot-cli-${this.package.version}-unpacked`)
    mkdirSync(shared, { recursive: true })
    const link = join(ctx.sandbox.home, '.cache', 'copilot')
    mkdirSync(join(ctx.sandbox.home, '.cache'), { recursive: true })
    if (!existsSync(link)) symlinkSync(shared, link)
  },
  async resume(ctx, sessionId, prompt) {
    const env = baseEnv(ctx.sandbox.home, {
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PROVIDER_BASE_URL: `${ctx.mock.url}/v1`,
      COPILOT_PROVIDER_API_KEY: 'sk-mock',
      COPILOT_MODEL: 'mock-model',
      COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '1000000',
    })
    const timeoutMs = loadScaled(180_000)
    const args = ['--allow-all', '--no-auto-update', '--disable-client-telemetry', `--resume=${sessionId}`, '-p', prompt]
    const r = await run(ctx.bin, args, { cwd: ctx.sandbox.cwd, env, timeoutMs })
    return { exitCode: r.code, output: r.output + (r.timedOut ? `\n[stopped after ${Math.round(timeoutMs / 1000)} s]` : '') }
  },
}
