/**
 * Gemini CLI 0.61.0 (`@google/gemini-cli`, a Node bundle) against the mock's Gemini API
 * (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, a `generateContent` summary request
 * without tools). From the shared kit (`realstores/lib/agents.sh` "gemini", README "Gemini CLI
 * 0.61.0"): env `GEMINI_API_KEY`, `GOOGLE_GEMINI_BASE_URL=<mock>`, `GEMINI_CLI_TRUST_WORKSPACE=true`;
 * `~/.gemini/settings.json`, written only when missing, selects `gemini-api-key` auth, turns off
 * folder trust, auto-update and its nag, usage statistics and telemetry. Resume:
 * `gemini --resume <id> -p "<prompt>" -o json --yolo -m gemini-2.5-flash`, run in the session's
 * project folder (the CLI looks for the session only in that project's `~/.gemini/tmp/<slug>/chats`).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { baseEnv, loadScaled, run } from '../sandbox'
import type { Driver } from './types'

/** The kit's `~/.gemini/settings.json` (lib/agents.sh). */
export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
}

/** The Gemini CLI target of the resume matrix (see the module comment). */
export const geminiDriver: Driver = {
  agent: 'gemini',
  package: { name: 'gemini', pkg: '@google/gemini-cli', version: process.env.GEMINI_VERSION || '0.61.0', bin: 'gemini' },
  scenario: 'gemini.json',
  async prepareHome(ctx) {
    const settings = join(ctx.sandbox.home, '.gemini', 'settings.json')
    if (existsSync(settings)) return
    mkdirSync(join(ctx.sandbox.home, '.gemini'), { recursive: true })
    writeFileSync(settings, JSON.stringify(GEMINI_SETTINGS, null, 2) + '\n')
  },
  async resume(ctx, sessionId, prompt) {
    const env = baseEnv(ctx.sandbox.home, {
      GEMINI_API_KEY: 'mock-key',
      GOOGLE_GEMINI_BASE_URL: ctx.mock.url,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    })
    const args = ['--resume', sessionId, '-p', prompt, '-o', 'json', '--yolo', '-m', 'gemini-2.5-flash']
    const timeoutMs = loadScaled(180_000)
    const r = await run(ctx.bin, args, { cwd: ctx.sandbox.cwd, env, timeoutMs })
    return { exitCode: r.code, output: r.output + (r.timedOut ? `\n[stopped after ${Math.round(timeoutMs / 1000)} s]` : '') }
  },
}
