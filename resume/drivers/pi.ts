/**
 * Pi 0.73.1 (`@mariozechner/pi-coding-agent`, Node) against the mock's Anthropic Messages API
 * (streaming). From the run that recorded fixtures/real/pi (`gen/gen-pi.sh`, README "How it ran"):
 * `~/.pi/agent/models.json` names a provider `mock` (`baseUrl` the mock, `api:
 * "anthropic-messages"`, models `mock-model`, `mock-model-2`) and `~/.pi/agent/settings.json` turns
 * off install telemetry and makes it the default; env `PI_OFFLINE=1`, `PI_TELEMETRY=0`. Resume:
 * `pi --offline --provider mock --model mock-model -p --session <id> "<prompt>"`, run in the
 * session's project folder (`--session` matches the id among that project's sessions first).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { baseEnv, loadScaled, run } from '../sandbox'
import type { Driver } from './types'

/** One model of the `mock` provider (the recording run's, prices in USD per million tokens). */
const model = (id: string): Record<string, unknown> => ({
  id,
  name: id,
  reasoning: true,
  input: ['text', 'image'],
  contextWindow: 200000,
  maxTokens: 8192,
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
})

/** The Pi target of the resume matrix (see the module comment). */
export const piDriver: Driver = {
  agent: 'pi',
  package: { name: 'pi', pkg: '@mariozechner/pi-coding-agent', version: process.env.PI_VERSION || '0.73.1', bin: 'pi' },
  scenario: 'pi.json',
  async prepareHome(ctx) {
    const dir = join(ctx.sandbox.home, '.pi', 'agent')
    mkdirSync(dir, { recursive: true })
    const providers = { mock: { baseUrl: ctx.mock.url, api: 'anthropic-messages', apiKey: 'sk-ant-mock', models: [model('mock-model'), model('mock-model-2')] } }
    writeFileSync(join(dir, 'models.json'), JSON.stringify({ providers }, null, 2) + '\n')
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ enableInstallTelemetry: false, defaultProvider: 'mock', defaultModel: 'mock-model' }, null, 2) + '\n')
  },
  async resume(ctx, sessionId, prompt) {
    const env = baseEnv(ctx.sandbox.home, { PI_OFFLINE: '1', PI_TELEMETRY: '0' })
    const timeoutMs = loadScaled(180_000)
    const args = ['--offline', '--provider', 'mock', '--model', 'mock-model', '-p', '--session', sessionId, prompt]
    const r = await run(ctx.bin, args, { cwd: ctx.sandbox.cwd, env, timeoutMs })
    return { exitCode: r.code, output: r.output + (r.timedOut ? `\n[stopped after ${Math.round(timeoutMs / 1000)} s]` : '') }
  },
}
