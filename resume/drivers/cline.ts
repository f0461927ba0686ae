/**
 * Cline CLI 3.0.65 (`cline`, prebuilt binary, SDK store) against the mock's Chat Completions API.
 * From the shared kit (`realstores/lib/agents.sh`, README "Cline CLI 3.0.65"): the provider is set
 * with `cline auth -p openai-compatible -k <key> -m mock-model -b <mock>/v1` (it writes
 * `~/.cline/data/settings/providers.json`); env `CLINE_NO_AUTO_UPDATE=1`,
 * `CLINE_SESSION_BACKEND_MODE=local`. `cline --id <id>` resumes only in the terminal UI: it is
 * started in a private tmux server, the prompt is typed once the UI shows, and the run ends with
 * Ctrl-C twice after the mock sent the final reply of the `RESUME-CHECK` turn.
 */
import { baseEnv, run, sleep, Tmux } from '../sandbox'
import type { Driver } from './types'

const ENV = { CLINE_NO_AUTO_UPDATE: '1', CLINE_SESSION_BACKEND_MODE: 'local' }

export const clineDriver: Driver = {
  agent: 'cline',
  package: { name: 'cline', pkg: 'cline', version: process.env.CLINE_VERSION || '3.0.65', bin: 'cline' },
  scenario: 'cline.json',
  async prepareHome(ctx) {
    const r = await run(ctx.bin, ['auth', '-p', 'openai-compatible', '-k', 'sk-mock', '-m', 'mock-model', '-b', `${ctx.mock.url}/v1`], {
      cwd: ctx.sandbox.cwd,
      env: baseEnv(ctx.sandbox.home, ENV),
      timeoutMs: 90_000,
    })
    if (r.code !== 0) ctx.log(`cline auth exited with ${r.code}: ${r.output.slice(-400)}`)
  },
  async resume(ctx, sessionId, prompt) {
    const tmux = new Tmux()
    const before = ctx.mock.entries().length
    try {
      tmux.start([ctx.bin, '--id', sessionId], baseEnv(ctx.sandbox.home, { ...ENV, TERM: 'xterm-256color' }), ctx.sandbox.cwd)
      await tmux.waitScreen(/mock-model|Cline|cline/, 30_000)
      // The UI draws its frame first and the restored history a moment later; typing before the
      // history is shown loses the Enter. Wait for a user line of the history (" ❯ <text>"; the input
      // box is "❯ Ask anything..."), then for the screen to settle.
      if (!(await tmux.waitScreen(/^ ❯ \S/m, 30_000))) ctx.log('the restored history did not show within 30 s')
      await waitStable(() => tmux.screen(), 2000, 15_000)
      const screenBefore = tmux.screen()
      const sent = () => ctx.mock.entries().slice(before).some((e) => JSON.stringify(e.body ?? '').includes(prompt))
      await tmux.type(prompt)
      for (let k = 0; k < 3 && !(await waitFor(sent, 10_000)); k++) {
        ctx.log('the prompt was not sent yet; pressing Enter again')
        tmux.keys('Enter')
      }
      const done = await waitFor(() => ctx.mock.entries().slice(before).some((e) => e.picked?.turn === 'RESUME-CHECK' && !String(e.picked?.reply ?? '').includes('tool_use')), 90_000)
      if (!done) ctx.log('no final reply for RESUME-CHECK within 90 s')
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

/** Wait until `read()` returns the same text for `quietMs` (at most `timeoutMs`). */
async function waitStable(read: () => string, quietMs: number, timeoutMs: number): Promise<void> {
  let last = read()
  let since = Date.now()
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(250)) {
    const now = read()
    if (now !== last) {
      last = now
      since = Date.now()
    } else if (Date.now() - since >= quietMs) return
  }
}

async function waitFor(test: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(500)) if (test()) return true
  return false
}
