import { describe, expect, it } from 'vitest'
import { newSession } from './build'
import { clampDepth, MAX_DEPTH } from './depth'

describe('clampDepth', () => {
  it('cuts a 5,000-level argument without overflowing and reports it once', () => {
    const s = newSession('claude-code', 'x', 'claude-code-jsonl', ['/h/x.jsonl'])
    let deep: unknown = 'leaf'
    for (let i = 0; i < 5000; i++) deep = { a: deep }
    s.nodes.push({ nodeId: 'n1', role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'Bash', kind: 'execute', arguments: deep }] })
    expect(clampDepth(s)).toBe(1)
    expect(() => structuredClone(s)).not.toThrow()
    expect(JSON.stringify(s)).toContain(`nested more than ${MAX_DEPTH} levels deep`)
    expect(s.diagnostics).toHaveLength(1)
    expect(s.diagnostics[0]).toMatchObject({ severity: 'warning', path: '/h/x.jsonl' })
  })
  it('leaves ordinary sessions alone', () => {
    const s = newSession('cline', 'y', 'cline-sdk', ['/h/y.json'])
    s.nodes.push({ nodeId: 'n1', role: 'user', content: 'hi', metadata: { a: { b: { c: [1, 2, { d: 3 }] } } } })
    const before = JSON.stringify(s)
    expect(clampDepth(s)).toBe(0)
    expect(JSON.stringify(s)).toBe(before)
  })
})
