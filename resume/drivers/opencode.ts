/**
 * OpenCode 1.18.33 (`opencode-ai`, native binary) against the mock's Chat Completions API; Kilo Code
 * CLI 7.7.7 (`@kilocode/cli`, its fork) is the same driver with other names (`kilo.ts`). From the
 * shared kit (`realstores/lib/agents.sh` "check" mode, README "OpenCode 1.18.33 and Kilo Code CLI
 * 7.7.7"): the config goes in `OPENCODE_CONFIG_CONTENT` / `KILO_CONFIG_CONTENT` (a custom provider
 * `mock`, npm `@ai-sdk/openai-compatible`, `options.baseURL` = the mock, `models.mock-model`,
 * `model`/`small_model` `mock/mock-model`), env `<P>_DISABLE_AUTOUPDATE`, `_DISABLE_MODELS_FETCH`,
 * `_DISABLE_SHARE`, `_DISABLE_LSP_DOWNLOAD` = 1, and for Kilo `KILO_NO_DAEMON=1
 * KILO_TELEMETRY_LEVEL=off KILO_DISABLE_SESSION_INGEST=1 KILO_DISABLE_PRESENCE=1`. Resume:
 * `<cli> run --format json -s <id> "<prompt>"`, run in the session's project folder. Before the
 * session is written the same config is also put in `~/.config/<cli>/<cli>.json` (the kit's "gen"
 * mode, where a user keeps it): the writer takes the home's model from there.
 *
 * On start the CLI runs npm in `<xdg config>/<cli>` for its plugin packages (seen here: registry
 * requests in `~/.npm`; no `@ai-sdk/openai-compatible` folder appeared in the sandbox, the CLI has
 * that provider built in): `npm_config_cache` points every sandbox at one npm cache in the harness
 * cache (`<cache>/<cli>-<version>/npm-cache`), so each case does not download it again.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { baseEnv, cacheRoot, loadScaled, run } from '../sandbox'
import type { Driver } from './types'

/** What tells the two CLIs apart. */
export interface FamilyDriverOptions {
  agent: 'opencode' | 'kilo-code'
  /** Folder and binary name, config and variable prefix: `opencode` / `OPENCODE`, `kilo` / `KILO`. */
  cli: 'opencode' | 'kilo'
  pkg: string
  version: string
  /** Extra environment (Kilo's daemon, telemetry, ingest and presence switches). */
  env: Record<string, string>
}

/** The config of `agents.sh` for a mock at `url`. */
export function familyConfig(url: string): string {
  return JSON.stringify({
    autoupdate: false,
    share: 'disabled',
    model: 'mock/mock-model',
    small_model: 'mock/mock-model',
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock',
        options: { baseURL: `${url}/v1`, apiKey: 'sk-mock' },
        models: { 'mock-model': { name: 'Mock Model', tool_call: true, reasoning: true, limit: { context: 128000, output: 8192 } } },
      },
    },
  })
}

/** A driver for one member of the OpenCode family. */
export function familyDriver(o: FamilyDriverOptions): Driver {
  const P = o.cli.toUpperCase()
  return {
    agent: o.agent,
    package: { name: o.cli, pkg: o.pkg, version: o.version, bin: o.cli },
    scenario: `${o.cli}.json`,
    async prepareHome(ctx) {
      // As a user's home has it (agents.sh "gen" mode): Sepia's writer names this model on the
      // converted user messages, without which the terminal UI shows no earlier turn.
      mkdirSync(join(ctx.sandbox.home, '.config', o.cli), { recursive: true })
      writeFileSync(join(ctx.sandbox.home, '.config', o.cli, `${o.cli}.json`), familyConfig(ctx.mock.url) + '\n')
    },
    async resume(ctx, sessionId, prompt) {
      const env = baseEnv(ctx.sandbox.home, {
        [`${P}_CONFIG_CONTENT`]: familyConfig(ctx.mock.url),
        [`${P}_DISABLE_AUTOUPDATE`]: '1',
        [`${P}_DISABLE_MODELS_FETCH`]: '1',
        [`${P}_DISABLE_SHARE`]: '1',
        [`${P}_DISABLE_LSP_DOWNLOAD`]: '1',
        npm_config_cache: join(cacheRoot(), `${o.cli}-${o.version}`, 'npm-cache'),
        ...o.env,
      })
      // 240 s on an idle machine, more under load (loadScaled).
      const timeoutMs = loadScaled(240_000)
      const r = await run(ctx.bin, ['run', '--format', 'json', '-s', sessionId, prompt], { cwd: ctx.sandbox.cwd, env, timeoutMs })
      return { exitCode: r.code, output: r.output + (r.timedOut ? `\n[stopped after ${Math.round(timeoutMs / 1000)} s]` : '') }
    },
  }
}

/** OpenCode 1.18.33. */
export const opencodeDriver: Driver = familyDriver({
  agent: 'opencode',
  cli: 'opencode',
  pkg: 'opencode-ai',
  version: process.env.OPENCODE_VERSION || '1.18.33',
  env: {},
})
