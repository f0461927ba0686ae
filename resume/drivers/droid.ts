/**
 * Factory Droid 0.225.2 (`@factory/cli-linux-x64`, a Bun single-file binary; the `@factory/cli`
 * launcher's 0.225.1 platform package is not in the registry) against the mock's Chat Completions
 * API (streaming). From the run that recorded fixtures/real/droid (`gen/gen-droid.sh`, README):
 * `~/.factory/settings.json` `customModels: [{model: "mock-model", baseUrl: <mock>/v1, apiKey,
 * provider: "generic-chat-completion-api"}]`, `cloudSessionSync: false`, `enableTelemetry: false`;
 * env `DO_NOT_TRACK=1`. Resume: `droid exec --session-id` fetches the session from api.factory.ai
 * first (also in Airgap Mode), so only the terminal UI resumes offline: `droid --resume <id>` with
 * `FACTORY_AIRGAP_ENABLED=true` (the binary's Airgap Mode: no Factory login, org settings, feature
 * flags, telemetry or update checks; without it the UI shows "Please login with your Factory
 * account to continue."), in a private tmux server, in the session's project folder. The UI asks
 * "Trust this folder?" on a new folder (Enter takes "Trust this folder"); the prompt is typed once
 * the restored history shows, and the run ends with Ctrl-C twice after the `RESUME-CHECK` reply.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { baseEnv, sleep, Tmux } from '../sandbox'
import type { Driver } from './types'

/** Wait until `test()` holds (at most `timeoutMs`). */
async function waitFor(test: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(500)) if (test()) return true
  return false
}

/** The Droid target of the resume matrix (see the module comment). */
export const droidDriver: Driver = {
  agent: 'droid',
  // The platform package declares no `bin`: the path is relative to `node_modules/.bin/`.
  package: { name: 'droid', pkg: '@factory/cli-linux-x64', version: process.env.DROID_VERSION || '0.225.2', bin: '../@factory/cli-linux-x64/bin/droid' },
  scenario: 'droid.json',
  async prepareHome(ctx) {
    const dir = join(ctx.sandbox.home, '.factory')
    mkdirSync(dir, { recursive: true })
    const customModels = [{ model: 'mock-model', displayName: 'Mock', baseUrl: `${ctx.mock.url}/v1`, apiKey: 'sk-mock', provider: 'generic-chat-completion-api', maxOutputTokens: 4096 }]
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ customModels, cloudSessionSync: false, enableTelemetry: false }, null, 2) + '\n')
  },
  async resume(ctx, sessionId, prompt) {
    const tmux = new Tmux()
    const before = ctx.mock.entries().length
    try {
      tmux.start([ctx.bin, '--resume', sessionId], baseEnv(ctx.sandbox.home, { DO_NOT_TRACK: '1', FACTORY_AIRGAP_ENABLED: 'true', TERM: 'xterm-256color' }), ctx.sandbox.cwd)
      // Either the folder-trust question or the input box (its "? for help" status line).
      await tmux.waitScreen(/Trust this folder\?|\? for help/, 60_000)
      if (/Trust this folder\?/.test(tmux.screen())) {
        tmux.keys('Enter')
        await tmux.waitScreen(/\? for help/, 30_000)
      }
      await sleep(2000)
      const screenBefore = tmux.screen()
      const sent = () => ctx.mock.entries().slice(before).some((e) => JSON.stringify(e.body ?? '').includes(prompt))
      await tmux.type(prompt)
      for (let k = 0; k < 3 && !(await waitFor(sent, 10_000)); k++) {
        ctx.log('the prompt was not sent yet; pressing Enter again')
        tmux.keys('Enter')
      }
      const done = await waitFor(() => ctx.mock.entries().slice(before).some((e) => e.picked?.turn === 'RESUME-CHECK'), 90_000)
      if (!done) ctx.log('no reply for RESUME-CHECK within 90 s')
      await sleep(3000)
      const screenAfter = tmux.screen()
      tmux.keys('C-c')
      await sleep(1000)
      tmux.keys('C-c')
      await sleep(2000)
      return { output: `--- screen before typing ---\n${screenBefore}\n--- screen after the reply ---\n${screenAfter}` }
    } finally {
      tmux.stop()
    }
  },
}
