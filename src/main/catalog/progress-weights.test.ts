/** Index progress counts a store file shared by many sessions (Cursor's state.vscdb) once, not once per session. */
import { describe, expect, it } from 'vitest'
import type { StoreRef } from '../agents/types'
import { progressWeights } from './refresh'

const ref = (sessionId: string, file: string, size: number): StoreRef => ({ agent: 'cursor', sessionId, files: [file], size, mtimeMs: 0, home: '/h', format: 'cursor' }) as StoreRef

describe('progressWeights', () => {
  it('splits a shared file among its sessions in whole bytes and keeps lone files whole', () => {
    const refs = [ref('a', '/h/state.vscdb', 1000), ref('b', '/h/state.vscdb', 1000), ref('c', '/h/state.vscdb', 1000), ref('d', '/h/x.jsonl', 77)]
    const w = progressWeights(refs)
    expect([...w.values()]).toEqual([334, 333, 333, 77])
    expect([...w.values()].reduce((a, b) => a + b, 0)).toBe(1077)
  })
})
