/**
 * The real store GitHub Copilot CLI 1.0.102 wrote offline (fixtures/real/copilot-cli, its README).
 * Every count is taken from an independent reading of the raw `events.jsonl` here, never from
 * Sepia: `user.message` events, `assistant.message` events and their `reasoningText`, tool
 * completes paired with the requests, failures (`success: false`), `session.usage_record` usage.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { readHomeOf } from '../../../../tests/builders/testing'
import { copilotCli } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'real', 'copilot-cli', 'home')
const STATE = join(HOME, '.copilot', 'session-state')

interface RawEvent {
  type: string
  data: Record<string, any>
}

const raw = (id: string): RawEvent[] =>
  readFileSync(join(STATE, id, 'events.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as RawEvent)

const ids = readdirSync(STATE, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)

describe('copilot-cli real store (CLI 1.0.102, offline BYOK)', () => {
  it('lists both sessions, in the project the CLI ran in', async () => {
    const home = await readHomeOf(copilotCli, HOME)
    expect(home.sessions.map((s) => s.id).sort()).toEqual([...ids].sort())
    for (const s of home.sessions) expect(s.workingDirectory).toBe('/home/pat/src/notes-cli')
  })

  for (const id of ids) {
    it(`${id.slice(0, 8)}: prompts, assistant messages, thinking, calls, failures and usage equal the raw events`, async () => {
      const events = raw(id)
      const of = (t: string) => events.filter((e) => e.type === t)
      const requests = of('assistant.message').flatMap((e) => (e.data.toolRequests ?? []) as { toolCallId: string }[])
      const requested = new Set(requests.map((r) => r.toolCallId))
      const s = (await readHomeOf(copilotCli, HOME)).byId(id)
      expect(s.diagnostics).toEqual([])
      expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(of('user.message').map((e) => e.data.content))
      const assistants = s.nodes.filter((n) => n.role === 'assistant')
      expect(assistants.map((n) => n.content)).toEqual(of('assistant.message').map((e) => e.data.content))
      expect(assistants.map((n) => n.thinking)).toEqual(of('assistant.message').map((e) => e.data.reasoningText))
      expect(countPairedToolCalls(s)).toEqual({ calls: requests.length, paired: of('tool.execution_complete').filter((e) => requested.has(e.data.toolCallId)).length })
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError).length).toBe(of('tool.execution_complete').filter((e) => e.data.success === false).length)
      // One usage record before each assistant message: output tokens summed over the records.
      const recorded = of('session.usage_record').reduce((t, e) => t + (e.data.usage.outputTokens as number), 0)
      expect(assistants.reduce((t, n) => t + (n.usage?.outputTokens ?? 0), 0)).toBe(recorded)
      expect(s.nodes.some((n) => n.event === 'unknown-event')).toBe(false)
      expectGolden(`copilot-cli/real-${id}`, s)
    })
  }

  it('the [edit] session holds the resumed turn after its session.resume, a failed view and the exit-code-2 command', async () => {
    const id = ids.find((i) => raw(i).some((e) => e.type === 'session.resume'))!
    const s = (await readHomeOf(copilotCli, HOME)).byId(id)
    const users = s.nodes.filter((n) => n.role === 'user').map((n) => n.content)
    expect(users).toHaveLength(2)
    expect(users[1]).toMatch(/^\[resume\]/)
    const failed = s.nodes.filter((n) => n.role === 'tool' && n.isError)
    expect(failed.map((n) => n.content)).toEqual(['Path does not exist'])
    expect(s.nodes.some((n) => n.role === 'tool' && n.content.includes('completed with exit code 2'))).toBe(true)
  })
})
