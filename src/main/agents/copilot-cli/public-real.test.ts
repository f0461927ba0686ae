/**
 * Copilot CLI sessions people published (fixtures/public-real/copilot-cli, see its SOURCES.md).
 * Every count is taken from an independent reading of the raw `events.jsonl` here, never from
 * Sepia: `user.message` events, non-empty `assistant.message` contents, tool starts by
 * `toolCallId`, completes paired with them, hooks, permissions, notifications.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { readHomeOf } from '../../../../tests/builders/testing'
import { copilotCli } from '.'

const ROOT = join(REPO_ROOT, 'fixtures', 'public-real', 'copilot-cli')

interface RawEvent {
  type: string
  data: Record<string, any>
}

/** The one session of a case: its id, events.jsonl path and parsed events. */
function rawOf(c: string): { id: string; path: string; events: RawEvent[] } {
  const dir = join(ROOT, c, 'home', '.copilot', 'session-state')
  const [id] = readdirSync(dir)
  const path = join(dir, id!, 'events.jsonl')
  const events = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as RawEvent)
  return { id: id!, path, events }
}

function truth(events: RawEvent[]) {
  const of = (t: string) => events.filter((e) => e.type === t)
  const starts = new Set(of('tool.execution_start').map((e) => e.data.toolCallId as string))
  const start = of('session.start')[0]!.data
  return {
    prompts: of('user.message').map((e) => e.data.content as string),
    assistantTexts: of('assistant.message').filter((e) => String(e.data.content ?? '').trim() !== '').length,
    assistantMessages: of('assistant.message').length,
    calls: starts.size,
    paired: of('tool.execution_complete').filter((e) => starts.has(e.data.toolCallId)).length,
    failed: of('tool.execution_complete').filter((e) => e.data.success === false).length,
    hooks: of('hook.start').length,
    unendedHooks: of('hook.start').length - of('hook.end').length,
    permissions: of('permission.requested').length + of('permission.completed').length + of('session.permissions_changed').length,
    notifications: of('system.notification').length,
    modelChanges: of('session.model_change').map((e) => e.data.newModel as string),
    cwd: start.context.cwd as string,
    branch: start.context.branch as string,
    sha: start.context.headCommit as string,
  }
}

describe('copilot-cli public-real sessions', () => {
  for (const c of ['agentv-permissions', 'agentv-eval-shutdown']) {
    it(`${c}: prompts, assistant texts, tool calls paired by toolCallId, markers, cwd and git equal the raw events`, async () => {
      const { id, path, events } = rawOf(c)
      const t = truth(events)
      const home = await readHomeOf(copilotCli, join(ROOT, c, 'home'))
      expect(home.sessions).toHaveLength(1)
      const s = home.byId(id)
      expect(s.source.files[0]).toBe(path)
      expect(s.diagnostics).toEqual([])
      expect(s.workingDirectory).toBe(t.cwd)
      expect(s.git).toEqual({ branch: t.branch, sha: t.sha })
      const prompts = s.nodes.filter((n) => n.role === 'user').map((n) => n.content)
      expect(prompts).toEqual(t.prompts)
      const assistants = s.nodes.filter((n) => n.role === 'assistant')
      expect(assistants).toHaveLength(t.assistantMessages)
      expect(assistants.filter((n) => n.content.trim() !== '')).toHaveLength(t.assistantTexts)
      expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(t.failed)
      const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
      for (const call of calls) expect(['completed', 'failed']).toContain(call.status)
      const hookNodes = s.nodes.filter((n) => n.role === 'system' && n.metadata?.copilotType === 'hook.start')
      expect(hookNodes).toHaveLength(t.hooks)
      expect(hookNodes.filter((n) => n.metadata?.ended === false)).toHaveLength(t.unendedHooks)
      expect(s.nodes.filter((n) => n.role === 'system' && String(n.metadata?.copilotType).match(/^(permission\.|session\.permissions_changed)/))).toHaveLength(t.permissions)
      expect(s.nodes.filter((n) => n.event === 'notification')).toHaveLength(t.notifications)
      expect(s.nodes.filter((n) => n.event === 'model-change').map((n) => n.metadata?.newModel)).toEqual(t.modelChanges)
      for (const n of s.nodes) if (n.role === 'system') expect(n.event !== undefined || n.isMeta).toBe(true)
      expectGolden(`copilot-cli/${id}`, s)
    })
  }

  it.each(['agentv-permissions', 'agentv-eval-shutdown'])('%s: output tokens of the assistant messages equal the raw assistant.message outputTokens, de-duplicated by messageId', async (c) => {
    const { id, events } = rawOf(c)
    const byMessage = new Map<string, number>()
    for (const e of events) if (e.type === 'assistant.message' && typeof e.data.outputTokens === 'number') byMessage.set(String(e.data.messageId), e.data.outputTokens as number)
    const s = (await readHomeOf(copilotCli, join(ROOT, c, 'home'))).byId(id)
    const nodes = s.nodes.filter((n) => n.role === 'assistant' && n.usage?.outputTokens !== undefined)
    expect(nodes).toHaveLength(byMessage.size)
    expect(nodes.reduce((t, n) => t + n.usage!.outputTokens!, 0)).toBe([...byMessage.values()].reduce((a, b) => a + b, 0))
  })

  it('agentv-eval-shutdown: session usage from session.shutdown modelMetrics', async () => {
    const { id, events } = rawOf('agentv-eval-shutdown')
    const u = (events.find((e) => e.type === 'session.shutdown')!.data.modelMetrics['gpt-5.4-mini'] as { usage: Record<string, number> }).usage
    const s = (await readHomeOf(copilotCli, join(ROOT, 'agentv-eval-shutdown', 'home'))).byId(id)
    expect(s.usage).toEqual({ inputTokens: u.inputTokens! - u.cacheReadTokens! - u.cacheWriteTokens!, outputTokens: u.outputTokens, cacheReadTokens: u.cacheReadTokens, cacheWriteTokens: u.cacheWriteTokens, thinkingTokens: u.reasoningTokens })
    expect(s.model).toBe('gpt-5.4-mini')
  })

  it('agentv-eval-shutdown: the messages carry the session.shutdown totals, so the usage report counts the input tokens too', async () => {
    const { id, events } = rawOf('agentv-eval-shutdown')
    const u = (events.find((e) => e.type === 'session.shutdown')!.data.modelMetrics['gpt-5.4-mini'] as { usage: Record<string, number> }).usage
    const s = (await readHomeOf(copilotCli, join(ROOT, 'agentv-eval-shutdown', 'home'))).byId(id)
    const sum = (k: 'inputTokens' | 'outputTokens' | 'thinkingTokens') => s.nodes.reduce((t, n) => t + (n.usage?.[k] ?? 0), 0)
    expect(sum('inputTokens')).toBe(u.inputTokens! - u.cacheReadTokens! - u.cacheWriteTokens!)
    expect(sum('outputTokens')).toBe(u.outputTokens)
    expect(sum('thinkingTokens')).toBe(u.reasoningTokens)
  })
})
