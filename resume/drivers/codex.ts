/**
 * Codex CLI 0.171.0 (`@openai/codex`, musl binary) against the mock's OpenAI Responses API. From
 * the shared kit (`realstores/lib/agents.sh` "check" mode, README "Codex CLI 0.171.0"): the
 * provider is given as `-c` overrides so the home's `config.toml` is not touched — model
 * `gpt-5.5` (the classic tool set: `exec_command`, `apply_patch`...), provider `mock` with
 * `base_url`, `wire_api = "responses"` (`"chat"` is refused), `env_key = "MOCK_API_KEY"` and no
 * retries; env `MOCK_API_KEY`. `TMPDIR` stays outside `CODEX_HOME` (`baseEnv` puts it in
 * `<home>/tmp`), or Codex refuses to create its helper links. Resume: `codex exec --json
 * --dangerously-bypass-approvals-and-sandbox resume <id> "<prompt>"`, run in the project folder.
 */
import { baseEnv, run } from '../sandbox'
import type { Driver } from './types'

/** The `-c` overrides of `agents.sh` (check mode) for a mock at `url`. */
export function codexOverrides(url: string): string[] {
  const provider = `model_providers.mock={name="mock",base_url="${url}/v1",wire_api="responses",env_key="MOCK_API_KEY",request_max_retries=0,stream_max_retries=0}`
  return ['-c', 'model="gpt-5.5"', '-c', 'model_provider="mock"', '-c', 'check_for_update_on_startup=false', '-c', 'analytics.enabled=false', '-c', provider]
}

/** The Codex CLI target of the resume matrix. */
export const codexDriver: Driver = {
  agent: 'codex',
  package: { name: 'codex', pkg: '@openai/codex', version: process.env.CODEX_VERSION || '0.171.0', bin: 'codex' },
  scenario: 'codex.json',
  async prepareHome() {
    // Nothing to set up: the provider comes from `-c` overrides and the environment.
  },
  async resume(ctx, sessionId, prompt) {
    const env = baseEnv(ctx.sandbox.home, { MOCK_API_KEY: 'sk-mock' })
    const args = [...codexOverrides(ctx.mock.url), 'exec', '--json', '--dangerously-bypass-approvals-and-sandbox', 'resume', sessionId, prompt]
    const r = await run(ctx.bin, args, { cwd: ctx.sandbox.cwd, env, timeoutMs: 180_000 })
    return { exitCode: r.code, output: r.output + (r.timedOut ? '\n[stopped after 180 s]' : '') }
  },
}
