/**
 * `sepia list --home <fixture home>` shows the public real Copilot CLI sessions; the ids are the
 * `session.start.data.sessionId` of each raw `events.jsonl` (read here without Sepia).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { main } from '../../../cli/index'
import { sink } from '../../../../tests/helpers/cli-run'
import { REPO_ROOT } from '../../../../tests/helpers/golden'

const ROOT = join(REPO_ROOT, 'fixtures', 'public-real', 'copilot-cli')

it('sepia list shows every Copilot CLI fixture session', async () => {
  for (const c of ['agentv-permissions', 'agentv-eval-shutdown']) {
    const home = join(ROOT, c, 'home')
    const dir = join(home, '.copilot', 'session-state')
    const [folder] = readdirSync(dir)
    const first = JSON.parse(readFileSync(join(dir, folder!, 'events.jsonl'), 'utf8').split('\n')[0]!) as { type: string; data: { sessionId: string } }
    expect(first.type).toBe('session.start')
    const out = sink()
    const err = sink()
    const code = await main(['list', '--home', home, '--json'], out as unknown as NodeJS.WritableStream, err as unknown as NodeJS.WritableStream)
    expect(code, err.text).toBe(0)
    const data = JSON.parse(out.text) as { sessions: { id: string; agent: string }[] }
    expect(data.sessions.map((s) => `${s.agent}/${s.id}`)).toEqual([`copilot-cli/${first.data.sessionId}`])
    const text = sink()
    expect(await main(['list', '--home', home], text as unknown as NodeJS.WritableStream, sink() as unknown as NodeJS.WritableStream)).toBe(0)
    expect(text.text).toContain(`copilot-cli (1)`)
    expect(text.text).toContain(first.data.sessionId)
  }
})
