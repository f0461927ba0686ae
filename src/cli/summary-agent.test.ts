import { describe, expect, it } from 'vitest'
import { summaryAgent } from './summary-agent'

const bytes = (s: string): Buffer => Buffer.from(s, 'utf8')

describe('summaryAgent', () => {
  it('reads the top-level agent of a summary, as JSON.parse does', () => {
    const cases = [
      { id: '1', agent: 'cline', title: 'x' },
      { title: 'says "agent":"codex" in a title', agent: 'claude-code' },
      { id: 'a\\"agent\\":\\"codex', agent: 'gemini' },
      { files: [{ agent: 'codex' }], hints: { agent: 'pi', nested: [{ agent: 'zed' }] }, agent: 'cursor' },
      { title: 'agent', prompt: 'agent', agent: 'droid' },
      { title: 'ünïcødé 量子 🙂 "agent":"x" \\ \n', agent: 'amp' },
      { id: 'no agent here' },
      { agent: 42 },
      { agent: 'odd\\"id' },
      { agent: 'ünï' },
    ]
    for (const c of cases) {
      const text = JSON.stringify(c)
      expect(summaryAgent(bytes(text)), text).toBe(typeof c.agent === 'string' ? c.agent : undefined)
      // The same with JSON's whitespace (indented) and inside a larger buffer (an offset view).
      const spaced = JSON.stringify(c, null, 2)
      expect(summaryAgent(bytes(spaced)), spaced).toBe(typeof c.agent === 'string' ? c.agent : undefined)
      const big = bytes(`xx${text}yy`).subarray(2, 2 + Buffer.byteLength(text))
      expect(summaryAgent(big)).toBe(typeof c.agent === 'string' ? c.agent : undefined)
    }
  })

  it('a string value "agent" is not the key', () => {
    expect(summaryAgent(bytes('{"title":"agent","agent":"codex"}'))).toBe('codex')
    expect(summaryAgent(bytes('{"tags":["agent"],"agent":"codex"}'))).toBe('codex')
  })
})
