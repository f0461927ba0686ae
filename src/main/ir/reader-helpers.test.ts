/** Reader helpers of ir/build.ts: `jsonLineObject` (one JSONL line, a warning naming file and line for a bad one, marked `skipped` and told apart by `isSkippedRecord`) and `pushChained`. */
import { describe, expect, it } from 'vitest'
import { isSkippedRecord, jsonLineObject, newSession, pushChained, skipRecord } from './build'

describe('jsonLineObject', () => {
  it('takes an object, passes over a blank line, and warns about a cut or non-object line', () => {
    const s = newSession('pi', 's1', 'pi-jsonl', ['/h/s.jsonl'])
    expect(jsonLineObject(s, '/h/s.jsonl', '{"type":"message","n":1}', 1)).toEqual({ type: 'message', n: 1 })
    expect(jsonLineObject(s, '/h/s.jsonl', '   ', 2)).toBeUndefined()
    expect(jsonLineObject(s, '/h/s.jsonl', '{"type":"mess', 3)).toBeUndefined()
    expect(jsonLineObject(s, '/h/s.jsonl', '[1,2]', 4)).toBeUndefined()
    expect(jsonLineObject(s, '/h/s.jsonl', 'null', 5)).toBeUndefined()
    expect(s.diagnostics.map((d) => [d.line, d.message, d.severity, d.path, d.agent, d.sessionId])).toEqual([
      [3, 'line is not JSON (cut short?); skipped', 'warning', '/h/s.jsonl', 'pi', 's1'],
      [4, 'line is not a JSON object; skipped', 'warning', '/h/s.jsonl', 'pi', 's1'],
      [5, 'line is not a JSON object; skipped', 'warning', '/h/s.jsonl', 'pi', 's1'],
    ])
    // A skipped line is lost though only a warning: its `skipped` field tells it apart (sepia doctor counts it).
    expect(s.diagnostics.map((d) => d.skipped)).toEqual([1, 1, 1])
    expect(s.diagnostics.every(isSkippedRecord)).toBe(true)
    expect(isSkippedRecord({ severity: 'warning', path: '/h/s.jsonl', line: 2, message: 'a branch starts anew' })).toBe(false)
    // The fact is the field, not the words: any reader's own message counts through skipRecord.
    skipRecord(s, { severity: 'warning', path: '/h/s.jsonl', message: '3 message blob(s) are not JSON; skipped' }, 3)
    expect(s.diagnostics.at(-1)).toEqual({ severity: 'warning', path: '/h/s.jsonl', message: '3 message blob(s) are not JSON; skipped', skipped: 3, sessionId: 's1', agent: 'pi' })
    expect(isSkippedRecord(s.diagnostics.at(-1)!)).toBe(true)
  })

  it('pushChained makes each node the child of the one before it', () => {
    const s = newSession('continue', 's2', 'continue-json', ['/h/s.json'])
    const a = pushChained(s, { nodeId: 'a', role: 'user', content: 'hi' })
    pushChained(s, { nodeId: 'b', role: 'assistant', content: 'hello' })
    pushChained(s, { nodeId: 'c', role: 'user', content: 'again' })
    expect(a).toBe(s.nodes[0])
    expect(s.nodes.map((n) => [n.nodeId, n.parentNodeId])).toEqual([['a', undefined], ['b', 'a'], ['c', 'b']])
    expect('parentNodeId' in s.nodes[0]!).toBe(false)
  })
})
