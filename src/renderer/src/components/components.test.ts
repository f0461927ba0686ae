/**
 * Components rendered to HTML with Vue's server renderer (no DOM needed): what the user sees for
 * a library and a session, checked through the data-testid hooks the end-to-end tests use too.
 */
import { createPinia, setActivePinia } from 'pinia'
import { createSSRApp, h, ref, type Component } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { describe, expect, it } from 'vitest'
import { TOOLS_EXPAND } from '../keys'
import { useLibraryStore } from '../stores/library'
import { useSessionStore } from '../stores/session'
import { kitchenSink, library, summary } from '../test/fixtures'
import type { MessageNode } from '../../../shared/ir'
import LibraryPane from './LibraryPane.vue'
import MessageItem from './MessageItem.vue'
import SessionView from './SessionView.vue'
import ToolCallCard from './ToolCallCard.vue'
import ToolResult from './ToolResult.vue'

async function render(component: Component, setup: () => void): Promise<string> {
  const pinia = createPinia()
  setActivePinia(pinia)
  setup()
  return renderToString(createSSRApp(component).use(pinia))
}

/** The HTML between the start of the first element with `testid` and the next element with `stopTestid`. */
function section(html: string, testid: string, stopTestid: string): string {
  const start = html.indexOf(`data-testid="${testid}"`)
  const end = html.indexOf(`data-testid="${stopTestid}"`, start + 1)
  return html.slice(start, end < 0 ? undefined : end)
}

describe('LibraryPane', () => {
  it('lists agents, projects and sessions newest first, sub-agents nested with a badge', async () => {
    const html = await render(LibraryPane, () => {
      useLibraryStore().library = library([
        summary('p', { title: 'Parent', workingDirectory: 'C:\\Users\\ana\\proj', createdAt: 2000, model: 'opus', messageCount: 7 }),
        summary('c', { title: 'Child', workingDirectory: 'C:\\Users\\ana\\proj', createdAt: 2500, parentSessionId: 'p' }),
        summary('q', { title: 'Older', createdAt: 1000 }),
        summary('x', { agent: 'cline', title: 'Cline one', createdAt: 10 }),
      ])
      useLibraryStore().selectedKey = 'claude-code/p'
    })
    expect(html).toContain('data-testid="agent-claude-code"')
    expect(html).toContain('data-testid="agent-cline"')
    const ids = [...html.matchAll(/data-testid="session-row" data-session-id="([^"]+)" data-agent="([^"]+)"/g)].map((m) => `${m[2]}/${m[1]}`)
    expect(ids).toEqual(['claude-code/p', 'claude-code/c', 'claude-code/q', 'cline/x'])
    // the child row sits inside the parent's <li>, after a "sub-agent" badge
    const parentItem = section(html, 'session-row" data-session-id="p', 'project')
    expect(parentItem).toContain('data-session-id="c"')
    expect(parentItem.match(/sub-agent<\/span>/g)).toHaveLength(1)
    expect(html).toContain('<span class="name" data-v-')
    expect(html).toMatch(/>proj<\/span>/)
    expect(html).toContain('C:\\Users\\ana\\proj')
    expect(html).toContain('No project')
    expect(html).toContain('7 messages')
    expect(html).toMatch(/data-session-id="p"[^>]*aria-current="true"/)
  })
})

describe('SessionView', () => {
  const html = render(SessionView, () => {
    const s = kitchenSink()
    useLibraryStore().library = library([summary('s1', { title: s.title })])
    useSessionStore().session = s
    useSessionStore().key = 'claude-code/s1'
  })

  it('shows the header facts, usage and the session diagnostics', async () => {
    const h = await html
    expect(h).toContain('Fix the parser')
    expect(h).toContain('C:\\Users\\ana\\src\\ledger')
    expect(h).toMatch(/data-testid="session-message-count"[^>]*>4</)
    expect(h).toMatch(/data-testid="session-usage"[^>]*>1,200 in · 80 out · \$0\.0123</)
    expect(h).toContain('/h/.claude/projects/x/s1.jsonl:7')
    expect(h).toContain('line is not valid JSON; skipped')
  })

  it('a Gemini session counts thoughts as output in the header, as the usage view does', async () => {
    const g = await render(SessionView, () => {
      // Gemini CLI records `thoughts` beside `output` (the reader keeps them in thinkingTokens).
      const s = { ...kitchenSink(), agent: 'gemini' as const, usage: { inputTokens: 1200, outputTokens: 80, thinkingTokens: 45 } }
      useLibraryStore().library = library([summary('s1', { agent: 'gemini', title: s.title })])
      useSessionStore().session = s
      useSessionStore().key = 'gemini/s1'
    })
    expect(g).toMatch(/data-testid="session-usage"[^>]*>1,200 in · 125 out · 45 thinking</)
  })

  it('a Crush session says its tokens are unknown, with the last request’s counts', async () => {
    const c = await render(SessionView, () => {
      const s = { ...kitchenSink(), agent: 'crush' as const, usage: { cost: 3.2 }, metadata: { lastRequestTokens: { promptTokens: 127170, completionTokens: 64 } } }
      useLibraryStore().library = library([summary('s1', { agent: 'crush', title: s.title })])
      useSessionStore().session = s
      useSessionStore().key = 'crush/s1'
    })
    expect(c).toMatch(/data-testid="session-usage"[^>]*>\$3\.20 · tokens unknown \(only the last request: 127\.2K in, 64 out\)</)
  })

  it('renders messages by role, hides injected text behind the toggle, escapes HTML', async () => {
    const h = await html
    const roles = [...h.matchAll(/data-testid="message" data-role="(\w+)"/g)].map((m) => m[1])
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(h).toContain('Show system/injected messages (1)')
    expect(h).not.toContain('system-reminder')
    expect(h).toContain('&lt;script&gt;')
    expect(h).not.toContain('<script>alert')
    expect(h).toContain('data-testid="event" data-event="compaction"')
  })

  it('puts each result inside its tool card, collapsed, with status and summary', async () => {
    const h = await html
    expect(h.match(/data-testid="tool-call"/g)).toHaveLength(3)
    // Folded cards render their results on first opening only (issue 15): the orphan r9 alone.
    expect(h.match(/data-testid="tool-result"/g)).toHaveLength(1)
    const bash = section(h, 'tool-call" data-tool-name="Bash', 'tool-call')
    expect(bash).toContain('npm test')
    expect(bash).toContain('FAIL parser.test.ts') // the folded card's one-line preview
    expect(bash).not.toContain('data-testid="tool-result"')
    expect(bash).toMatch(/data-testid="tool-status"[^>]*>failed</)
    const task = section(h, 'tool-call" data-tool-name="Task', 'message')
    expect(task).toContain('data-testid="subagent-link" data-session-id="s2"')
    expect(h).not.toMatch(/<details[^>]*open[^>]*data-testid="tool-call"/)
  })

  it('shows the results inside the cards once they are opened ("Expand all")', async () => {
    const s = kitchenSink()
    const calls = s.nodes.flatMap((n) => n.toolCalls ?? [])
    const card = async (id: string): Promise<string> => {
      const result = s.nodes.find((n) => n.role === 'tool' && n.toolCallId === id)
      const app = createSSRApp({ render: () => h(ToolCallCard, { call: calls.find((c) => c.id === id)!, result, agent: 'claude-code' }) })
      app.use(createPinia()).provide(TOOLS_EXPAND, ref({ open: true, version: 1 }))
      return renderToString(app)
    }
    const bash = await card('t1')
    expect(bash).toContain('data-testid="tool-result" data-error="true"')
    expect(bash).toContain('FAIL parser.test.ts')
    expect(bash).toContain('Show all 101 lines')
    expect(bash).not.toContain('line 99')
    expect(await card('t2')).toContain('data-testid="tool-result"')
    expect(await card('t3')).toContain('No result was recorded for this call.')
  })

  it('collapses thinking under a "Thinking" label', async () => {
    const h = await html
    expect(h).toMatch(/<details class="thinking"[^>]*data-testid="thinking"/)
    expect(h).not.toMatch(/<details[^>]*open[^>]*data-testid="thinking"/)
    expect(h).toContain('Thinking')
    // rendered on first opening only
    expect(h).not.toContain('The parser fails on empty lines.')
  })
})

describe('MessageItem', () => {
  it("shows an assistant message's parts in the store's order (partOrder), e.g. Claude Code's [text, tool_use, text]", async () => {
    const node: MessageNode = {
      nodeId: 'a1',
      role: 'assistant',
      content: 'First I look.\n\nThen I answer.',
      blocks: [
        { type: 'text', text: 'First I look.' },
        { type: 'text', text: 'Then I answer.' },
      ],
      toolCalls: [{ id: 'call-1', name: 'Bash', arguments: { command: 'ls' }, kind: 'execute' }],
      partOrder: [
        { part: 'block', index: 0 },
        { part: 'tool-call', id: 'call-1' },
        { part: 'block', index: 1 },
      ],
    } as MessageNode
    const html = await render(
      { render: () => h(MessageItem, { node, continued: false, results: new Map(), agent: 'claude-code' }) },
      () => undefined,
    )
    const first = html.indexOf('First I look.')
    const card = html.indexOf('data-testid="tool-call"')
    const then = html.indexOf('Then I answer.')
    expect(first).toBeGreaterThan(-1)
    expect(card).toBeGreaterThan(first)
    expect(then).toBeGreaterThan(card)
    // Without partOrder: text first, then the calls (the usual order).
    const plain = await render({ render: () => h(MessageItem, { node: { ...node, partOrder: undefined }, continued: false, results: new Map(), agent: 'claude-code' }) }, () => undefined)
    expect(plain.indexOf('Then I answer.')).toBeLessThan(plain.indexOf('data-testid="tool-call"'))
  })
})

describe('ToolResult', () => {
  it("shows command output without the terminal's escape codes (public-real Claude Code omp-images: colours in a Bash result)", async () => {
    const result = { nodeId: 'r1', role: 'tool', toolCallId: 'c1', content: '\x1b[1m\x1b[32mPASS\x1b[39m\x1b[22m src/a.test.ts\n\x1b]8;;https://x\x07link\x1b]8;;\x07' } as MessageNode
    const html = await render({ render: () => h(ToolResult, { node: result }) }, () => undefined)
    expect(html).toContain('PASS')
    expect(html).toContain('src/a.test.ts')
    expect(html).not.toContain('\x1b')
    expect(html).not.toContain('[32m')
    const card = await render({ render: () => h(ToolCallCard, { call: { id: 'c1', name: 'Bash', arguments: { command: 'npm test' }, kind: 'execute' }, result, agent: 'claude-code' }) }, () => undefined)
    expect(card).toContain('PASS')
    expect(card).not.toContain('\x1b')
  })
})
