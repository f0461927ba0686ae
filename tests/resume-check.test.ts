/**
 * The resume harness's own parts that need no agent CLI: the loopback mock model (reply selection,
 * request log) and the check of a logged request against the source session. The harness itself
 * (`npm run resume-matrix`) installs the agents and is not part of `npm test`.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkRequests, compactionRequest, CONTINUE_AUTO_COMPACTED, GEMINI_NO_SESSION, OPENCODE_BAD_DATA_URL, QWEN_NO_SESSION, targetsOwnDoing, undecodableImages } from '../resume/check'
import { cell } from '../resume/report'
import type { CaseResult } from '../resume/run-case'
import { expectationOf } from '../resume/expect'
import { startMock } from '../resume/mock/server'
import { findAppRoot } from '../src/main/context'
import { FIXTURE_SOURCES, readFixtureSessions } from './builders/fixture-sources'
import { prepareForTarget } from '../src/main/convert/prepare'
import { VOCABULARIES } from '../src/main/convert/vocab'
import type { Session } from '../src/shared/ir'

const SCENARIOS = join(findAppRoot(), 'resume/scenarios')
const PROMPT = 'RESUME-CHECK: reply with one line.'

/** The Anthropic request a resumed Claude Code would send for a prepared session, plus the prompt. */
function anthropicBody(s: Session, drop?: (b: Record<string, unknown>) => boolean) {
  const messages: { role: string; content: unknown }[] = []
  for (const n of s.nodes) {
    if (n.role === 'assistant') {
      messages.push({ role: 'assistant', content: [...(n.content ? [{ type: 'text', text: n.content }] : []), ...(n.toolCalls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments }))] })
    } else if (n.role === 'tool') messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: n.toolCallId, content: n.content }] })
    else messages.push({ role: 'user', content: n.content })
  }
  messages.push({ role: 'user', content: PROMPT })
  const kept = messages.filter((m) => !(drop && Array.isArray(m.content) && (m.content as Record<string, unknown>[]).some(drop)))
  return { model: 'claude-opus-5-5', stream: false, messages: kept, tools: [{ name: 'Bash', input_schema: {} }] }
}

describe('resume harness: mock model and request check', () => {
  it('answers RESUME-CHECK from the scenario and the check passes only with every prior turn', async () => {
    const source = (await readFixtureSessions(FIXTURE_SOURCES.find((x) => x.label === 'cline')!)).find((x) => x.id === '1796022183774_v75nv')!
    const prepared = prepareForTarget(source, { agent: 'claude-code', displayName: 'Claude Code', providerFamily: 'anthropic', vocabulary: VOCABULARIES['claude-code']! }, { textOnly: false }).session
    const mock = await startMock({ scenarioFile: join(SCENARIOS, 'claude-code.json') })
    try {
      const post = async (body: unknown) => (await fetch(`${mock.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body: JSON.stringify(body) })).json()
      const reply = (await post(anthropicBody(prepared))) as { content: { text: string }[] }
      expect(reply.content[0]!.text).toBe('RESUME-CHECK reply: the earlier conversation was received.')
      const exp = expectationOf(source)
      expect(exp.toolCalls).toBe(4)
      expect(exp.items.filter((i) => i.kind === 'tool')).toHaveLength(4)
      const pass = checkRequests(mock.entries(), exp, PROMPT, false)
      expect(pass.line).toBe('PASS: request #1 carried all prior turns (2/2 user, 5/5 assistant, 4/4 tool, 4 tool-call blocks for 4 calls)')
      expect(mock.entries()[0]).toMatchObject({ api: 'anthropic.messages', headers: { 'x-api-key': '<present>' }, picked: { turn: 'RESUME-CHECK', step: 0, reply: 'text' } })

      // A request that lost the first command's result fails, naming it.
      const lost = await startMock({ scenarioFile: join(SCENARIOS, 'claude-code.json') })
      try {
        await fetch(`${lost.url}/v1/messages`, { method: 'POST', body: JSON.stringify(anthropicBody(prepared, (b) => b.type === 'tool_result' && String(b.content).startsWith('total 28'))) })
        const fail = checkRequests(lost.entries(), exp, PROMPT, false)
        expect(fail.ok).toBe(false)
        expect(fail.missing.some((m) => m.startsWith("missing tool") && m.includes("'total 28"))).toBe(true)
      } finally {
        await lost.stop()
      }
    } finally {
      await mock.stop()
    }
  })

  it('speaks Chat Completions for Cline and reports a request without the prompt', async () => {
    const mock = await startMock({ scenarioFile: join(SCENARIOS, 'cline.json') })
    try {
      const res = await fetch(`${mock.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'mock-model', messages: [{ role: 'user', content: 'Summarize' }] }) })
      expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('Mock session title')
      expect(checkRequests(mock.entries(), { items: [], toolCalls: 0 }, PROMPT, false).line).toMatch(/^FAIL: the agent sent no model request carrying the resume prompt/)
      expect((await fetch(`${mock.url}/v1/unknown`, { method: 'POST' })).status).toBe(404)
    } finally {
      await mock.stop()
    }
  })
})

describe('a target that compacts the conversation itself', () => {
  // The shape Cline 3.0.65 logged for a 281-message public-real session (kept sandbox of the
  // matrix run): a Chat Completions request whose user text is its own summarizer prompt.
  const compaction = {
    seq: 1,
    api: 'openai.chat',
    body: { model: 'mock-model', messages: [{ role: 'system', content: 'Summarize the provided coding session into a concise continuation note with detailed next steps.' }, { role: 'user', content: 'Summarize this session for continuation. Be concise and factual.\n\n## Goal' }] },
  }
  const plain = { seq: 2, api: 'openai.chat', body: { messages: [{ role: 'user', content: 'Context summary: ...' }, { role: 'user', content: PROMPT }] } }

  it('finds the compaction request and names the agent', () => {
    expect(compactionRequest([compaction, plain])).toEqual({ seq: 1, agent: 'cline' })
    expect(compactionRequest([plain])).toBeUndefined()
  })

  it('counts such cases apart in the matrix cell, and a real failure still fails the cell', () => {
    const base = { source: 's', target: 'cline', verdict: '', missing: [], verified: true, differences: [], warnings: [], seconds: 1 }
    const rs: CaseResult[] = [
      { ...base, sessionId: 'a', ok: true },
      { ...base, sessionId: 'b', ok: false, cannot: 'the target compacted the conversation itself' },
    ]
    expect(cell(rs, 's', 'cline')).toBe('PASS 1/2, 1 compacted by the target')
    expect(cell([...rs, { ...base, sessionId: 'c', ok: false }], 's', 'cline')).toBe('FAIL 1/3, 1 compacted by the target')
  })
})

describe('what a target leaves out itself (targetsOwnDoing)', () => {
  // The shapes Gemini CLI 0.61.0 logged for public-real sessions (kept sandboxes of the matrix run).
  const exp = {
    items: [
      { kind: 'user' as const, text: '/specify', where: 'user L3' },
      { kind: 'assistant' as const, text: 'Done.', where: 'assistant L4' },
      { kind: 'tool' as const, text: 'package session', where: 'tool L5' },
    ],
    toolCalls: 1,
  }
  const request = (parts: { user?: string; output: string }) => ({
    seq: 1,
    api: 'gemini',
    body: {
      contents: [
        ...(parts.user ? [{ role: 'user', parts: [{ text: parts.user }] }] : []),
        { role: 'model', parts: [{ text: 'Done.' }, { functionCall: { id: 'c1', name: 'read_file', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: parts.output } } }] },
        { role: 'user', parts: [{ text: PROMPT }] },
      ],
      tools: [{ functionDeclarations: [] }],
    },
  })

  it('explains a skipped "/" message and a masked tool output, and nothing else', () => {
    const log = [request({ output: '<tool_output_masked>\n{"output":"pack…"}\nOutput too large. Full output available at: /h/.gemini/tmp/p/tool-outputs/x.txt\n</tool_output_masked>' })]
    const verdict = checkRequests(log, exp, PROMPT, false)
    expect(verdict.ok).toBe(false)
    expect(verdict.missingItems?.map((i) => i.kind)).toEqual(['user', 'tool'])
    const why = targetsOwnDoing('gemini', log, exp, verdict, '')
    expect(why).toMatch(/beginning with "\/" or "\?"/)
    expect(why).toMatch(/ToolOutputMaskingService.*1 such marker\(s\) for 1 missing tool result/)
    // The same loss in another target, or an assistant text lost too, is not explained.
    expect(targetsOwnDoing('opencode', log, exp, verdict, '')).toBeUndefined()
    const lostText = [{ ...log[0]!, body: { ...log[0]!.body, contents: log[0]!.body.contents.filter((c) => c.role !== 'model') } }]
    expect(targetsOwnDoing('gemini', lostText, exp, checkRequests(lostText, exp, PROMPT, false), '')).toBeUndefined()
  })

  it('does not explain a tool output lost without the marker', () => {
    const log = [request({ user: '/specify', output: 'something else' })]
    const verdict = checkRequests(log, exp, PROMPT, false)
    expect(verdict.missingItems?.map((i) => i.kind)).toEqual(['tool'])
    expect(targetsOwnDoing('gemini', log, exp, verdict, '')).toBeUndefined()
  })

  it('explains no request only for a source without turns that Gemini CLI refused', () => {
    const none = checkRequests([], { items: [], toolCalls: 0 }, PROMPT, false)
    expect(targetsOwnDoing('gemini', [], { items: [], toolCalls: 0 }, none, `Error resuming session: ${GEMINI_NO_SESSION}`)).toMatch(/no conversation turn/)
    expect(targetsOwnDoing('gemini', [], exp, checkRequests([], exp, PROMPT, false), GEMINI_NO_SESSION)).toBeUndefined()
    expect(targetsOwnDoing('qwen-code', [], { items: [], toolCalls: 0 }, none, `${QWEN_NO_SESSION} 5819a167. Run \`qwen --resume\` without an ID to choose from existing sessions.`)).toMatch(/no conversation turn/)
    expect(targetsOwnDoing('qwen-code', [], exp, checkRequests([], exp, PROMPT, false), QWEN_NO_SESSION)).toBeUndefined()
    expect(targetsOwnDoing('gemini', [], { items: [], toolCalls: 0 }, none, 'crashed')).toBeUndefined()
  })

  it('explains a Continue CLI resume only when its log says it compacted the history', () => {
    // The shape of the public-real sessions over 200,000 tokens (kept sandboxes of the matrix run):
    // the request after the prompt holds the system message, the summary and the prompt.
    const log = [{ seq: 2, api: 'openai.chat', body: { messages: [{ role: 'system', content: 'You are an agent in the Continue CLI.' }, { role: 'assistant', content: 'Hello from the mock.' }, { role: 'user', content: PROMPT }] } }]
    const verdict = checkRequests(log, exp, PROMPT, false)
    expect(verdict.ok).toBe(false)
    const line = `[cn.log] 2026-12-02 16:08:32.714 [9bcf5262] [info]: ${CONTINUE_AUTO_COMPACTED} in headless mode`
    expect(targetsOwnDoing('continue', log, exp, verdict, `RESUME-CHECK reply\n${line}`)).toMatch(/compacted the conversation itself/)
    expect(targetsOwnDoing('continue', log, exp, verdict, 'RESUME-CHECK reply')).toBeUndefined()
    expect(targetsOwnDoing('qwen-code', log, exp, verdict, line)).toBeUndefined()
  })

  it('explains no request from OpenCode only when the source holds an image that does not decode', () => {
    // The public-real Codex session 019ddeed: a PNG whose published payload has runs replaced by "REDACTED".
    const node = (data: string) => ({ nodeId: 'u1', role: 'user', content: '', blocks: [{ type: 'image', mediaType: 'image/png', data }] })
    const session = (data: string) => ({ id: 's', agent: 'codex', nodes: [node(data)] }) as unknown as Session
    expect(undecodableImages(session('iVBORw0KGgo='))).toBe(0)
    expect(undecodableImages(session('iVBORw0KGgoREDACTED/REDACTED/'))).toBe(1)
    const none = checkRequests([], { items: [], toolCalls: 0 }, PROMPT, false)
    const out = `{"type":"error","error":{"data":{"message":"Failed to download data:image/png;base64,...: Error: ${OPENCODE_BAD_DATA_URL}"}}}`
    expect(targetsOwnDoing('opencode', [], { items: [], toolCalls: 0 }, none, out, { undecodableImages: 1 })).toMatch(/do not decode as base64/)
    expect(targetsOwnDoing('opencode', [], { items: [], toolCalls: 0 }, none, out, { undecodableImages: 0 })).toBeUndefined()
    expect(targetsOwnDoing('opencode', [], { items: [], toolCalls: 0 }, none, 'timed out', { undecodableImages: 1 })).toBeUndefined()
  })

  it('labels the cell apart from compaction', () => {
    const base = { source: 's', target: 'gemini', verdict: '', missing: [], verified: true, differences: [], warnings: [], seconds: 1 }
    const rs: CaseResult[] = [
      { ...base, sessionId: 'a', ok: true },
      { ...base, sessionId: 'b', ok: false, cannot: 'Gemini CLI masks bulky tool outputs itself' },
    ]
    expect(cell(rs, 's', 'gemini')).toBe("PASS 1/2, 1 cannot pass (the target's own doing)")
  })
})
