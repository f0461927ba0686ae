/**
 * Qwen Code 0.15.10 (`@qwen-code/qwen-code`, a Node bundle) against the mock's Chat Completions API
 * (streaming). From the run that recorded fixtures/real/qwen-code (its `gen.sh` and README):
 * `~/.qwen/settings.json`, written only when missing, selects the `openai` auth type and model
 * `mock-model` and turns off usage statistics, telemetry, auto-update and its nag; env
 * `OPENAI_API_KEY`, `OPENAI_BASE_URL=<mock>/v1`, `OPENAI_MODEL=mock-model`,
 * `QWEN_DISABLE_AUTO_TITLE=1` (no title request). Resume: `qwen --resume <id> -p "<prompt>" --yolo
 * -o json`, run in the session's project folder (the CLI looks for `<id>.jsonl` only in that
 * project's `~/.qwen/projects/<sanitized cwd>/chats`).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { baseEnv, loadScaled, run } from '../sandbox'
import type { Driver } from './types'

/** The recording run's `~/.qwen/settings.json` (fixtures/real/qwen-code/gen.sh). */
export const QWEN_SETTINGS = {
  security: { auth: { selectedType: 'openai' } },
  model: { name: 'mock-model' },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
}

/** The Qwen Code target of the resume matrix (see the module comment). */
export const qwenCodeDriver: Driver = {
  agent: 'qwen-code',
  package: { name: 'qwen-code', pkg: '@qwen-code/qwen-code', version: process.env.QWEN_CODE_VERSION || '0.15.10', bin: 'qwen' },
  scenario: 'qwen-code.json',
  async prepareHome(ctx) {
    const settings = join(ctx.sandbox.home, '.qwen', 'settings.json')
    if (existsSync(settings)) return
    mkdirSync(join(ctx.sandbox.home, '.qwen'), { recursive: true })
    writeFileSync(settings, JSON.stringify(QWEN_SETTINGS, null, 2) + '\n')
  },
  async resume(ctx, sessionId, prompt) {
    const env = baseEnv(ctx.sandbox.home, {
      OPENAI_API_KEY: 'mock-key',
      OPENAI_BASE_URL: `${ctx.mock.url}/v1`,
      OPENAI_MODEL: 'mock-model',
      QWEN_DISABLE_AUTO_TITLE: '1',
    })
    const timeoutMs = loadScaled(180_000)
    const r = await run(ctx.bin, ['--resume', sessionId, '-p', prompt, '--yolo', '-o', 'json'], { cwd: ctx.sandbox.cwd, env, timeoutMs })
    return { exitCode: r.code, output: r.output + (r.timedOut ? `\n[stopped after ${Math.round(timeoutMs / 1000)} s]` : '') }
  },
}
