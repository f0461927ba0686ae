/**
 * Gemini CLI sessions people published from their own work (fixtures/public-real/gemini, see its
 * SOURCES.md). Every count is taken from an independent reading of the raw JSON here, never from
 * Sepia: typed prompts (user messages that are not CLI injections), assistant texts (non-empty
 * `gemini` content), tool calls and results paired by id, and usage summed from `tokens`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls, summarize } from '../../ir/build'
import { REPO_ROOT } from '../../../../tests/helpers/golden'
import { readHome } from '../../../../tests/builders/gemini/testing'

const ROOT = join(REPO_ROOT, 'fixtures', 'public-real', 'gemini')

interface RawMessage {
  type: string
  content: unknown
  toolCalls?: { id: string; result?: { functionResponse?: { id?: string } }[] }[]
  tokens?: { input: number; output: number; cached: number; thoughts: number }
}

/** The one chat file of a case and its parsed JSON. */
function rawOf(c: string): { path: string; json: { sessionId: string; startTime: string; lastUpdated: string; messages: RawMessage[] } } {
  const tmp = join(ROOT, c, 'home', '.gemini', 'tmp')
  const [hash] = readdirSync(tmp)
  const chats = join(tmp, hash!, 'chats')
  const [file] = readdirSync(chats)
  const path = join(chats, file!)
  return { path, json: JSON.parse(readFileSync(path, 'utf8')) }
}

/** What the raw file says, read without Sepia. The CLI's own "System: Please continue." retry is not typed. */
function truth(messages: RawMessage[]) {
  const text = (m: RawMessage): string => (typeof m.content === 'string' ? m.content : '')
  const calls = messages.flatMap((m) => m.toolCalls ?? [])
  return {
    prompts: messages.filter((m) => m.type === 'user' && text(m).trim() !== '' && text(m) !== 'System: Please continue.').map(text),
    assistantTexts: messages.filter((m) => m.type === 'gemini' && text(m).trim() !== '').length,
    assistantMessages: messages.filter((m) => m.type === 'gemini').length,
    notices: messages.filter((m) => m.type === 'warning' || m.type === 'info' || m.type === 'error').map(text),
    calls: calls.length,
    paired: calls.filter((c) => (c.result ?? []).some((r) => r.functionResponse?.id === c.id)).length,
    output: messages.reduce((n, m) => n + (m.tokens?.output ?? 0), 0),
    cached: messages.reduce((n, m) => n + (m.tokens?.cached ?? 0), 0),
    input: messages.reduce((n, m) => n + (m.tokens ? m.tokens.input - m.tokens.cached : 0), 0),
    thoughts: messages.reduce((n, m) => n + (m.tokens?.thoughts ?? 0), 0),
  }
}

describe('gemini public-real sessions', () => {
  it('entire-write-file: one typed prompt, the CLI retry is meta, an empty gemini content with a paired write_file, tokens', async () => {
    const { path, json } = rawOf('entire-write-file')
    const t = truth(json.messages)
    const home = await readHome(join(ROOT, 'entire-write-file', 'home'))
    expect(home.sessions).toHaveLength(1)
    const s = home.sessions[0]!
    expect(s.id).toBe(json.sessionId)
    expect(s.source.files[0]).toBe(path)
    expect(s.diagnostics).toEqual([])
    expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual(t.prompts)
    expect(t.prompts).toHaveLength(1)
    // "System: Please continue." is what the CLI sent itself, kept as a meta node.
    expect(s.nodes.filter((n) => n.role === 'user' && n.isMeta).map((n) => n.content)).toEqual(['System: Please continue.'])
    const assistants = s.nodes.filter((n) => n.role === 'assistant')
    expect(assistants).toHaveLength(t.assistantMessages)
    expect(assistants.filter((n) => n.content.trim() !== '')).toHaveLength(t.assistantTexts)
    expect(assistants[0]!.content).toBe('')
    expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
    expect(t).toMatchObject({ calls: 1, paired: 1 })
    const sum = (k: 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'thinkingTokens'): number => assistants.reduce((n, a) => n + (a.usage?.[k] ?? 0), 0)
    expect({ input: sum('inputTokens'), output: sum('outputTokens'), cached: sum('cacheReadTokens'), thoughts: sum('thinkingTokens') }).toEqual({
      input: t.input,
      output: t.output,
      cached: t.cached,
      thoughts: t.thoughts,
    })
    const summary = summarize(s, '/h')
    expect(summary.firstPrompt).toBe(t.prompts[0])
    expect(s.title).toBe(t.prompts[0])
    expect(s.createdAt).toBe(Date.parse(json.startTime))
  })

  it('entire-hook-warning-only: the only message is a CLI warning, an event and not a prompt', async () => {
    const { json } = rawOf('entire-hook-warning-only')
    const t = truth(json.messages)
    const home = await readHome(join(ROOT, 'entire-hook-warning-only', 'home'))
    const s = home.sessions[0]!
    expect(s.id).toBe(json.sessionId)
    expect(s.diagnostics).toEqual([])
    expect(t.prompts).toEqual([])
    expect(s.nodes.filter((n) => n.role === 'user')).toEqual([])
    expect(s.nodes.map((n) => [n.role, n.content, n.isMeta])).toEqual(t.notices.map((c) => ['system', c, true]))
    const summary = summarize(s, '/h')
    expect(summary.messageCount).toBe(0)
    expect(summary.firstPrompt).toBeUndefined()
    expect(s.title).toBeUndefined()
    expect(s.createdAt).toBe(Date.parse(json.startTime))
  })
})
