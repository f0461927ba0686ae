import { describe, expect, it } from 'vitest'
import { newSession } from './build'
import type { Session } from '../../shared/ir'
import { clampDepth, clampDepthSliced, MAX_DEPTH } from './depth'
import { countTurns } from '../../../tests/helpers/turns'

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
  it('in slices, makes the same cuts and lets other callbacks run between them', async () => {
    const make = (): Session => {
      const s = newSession('claude-code', 'z', 'claude-code-jsonl', ['/h/z.jsonl'])
      for (let n = 0; n < 3000; n++) {
        let deep: unknown = `leaf ${n}`
        for (let i = 0; i < (n % 50 === 0 ? 200 : 3); i++) deep = { a: deep, i }
        s.nodes.push({ nodeId: `n${n}`, role: 'assistant', content: '', toolCalls: [{ id: `c${n}`, name: 'Bash', kind: 'execute', arguments: deep }] })
      }
      return s
    }
    const a = make()
    const b = make()
    const turns = countTurns()
    const cut = await clampDepthSliced(a, 0)
    const taken = turns.stop()
    expect(cut).toBe(60)
    expect(clampDepth(b)).toBe(cut)
    expect(a).toEqual(b)
    expect(taken).toBeGreaterThan(1)
  })
})
