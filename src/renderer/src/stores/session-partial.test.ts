/**
 * The session store and partial pages (`SessionPage.partial`: read from a prefix of a large file
 * while main reads the rest): a page held already keeps its node objects when it comes again, the
 * header and counts are asked for again one page at a time, less often as it goes on, until a
 * final page comes. The bridge is a fake `window.sepia` envelope.
 */
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PageOptions, SessionPage } from '../../../shared/catalog'
import type { MessageNode, Session } from '../../../shared/ir'
import { PAGE_NODES, useSessionStore } from './session'

const TOTAL = 1000
const header = (title: string): Session => ({ irVersion: 1, id: 's1', agent: 'claude-code', checkpoints: [], nodes: [], source: { format: 'claude-code-jsonl', files: ['/x.jsonl'] }, diagnostics: [], metadata: {}, title })
const nodes = (offset: number): MessageNode[] => Array.from({ length: PAGE_NODES }, (_, i) => ({ nodeId: `n${offset + i}`, role: 'user', content: `m ${offset + i}` }))

describe('session store: partial pages', () => {
  const asked: { offset: number; at: number }[] = []
  let final = false

  beforeEach(() => {
    vi.useFakeTimers()
    setActivePinia(createPinia())
    asked.length = 0
    final = false
    const ok = <T>(value: T) => ({ ok: true as const, value })
    vi.stubGlobal('window', {
      location: { hash: '', pathname: '/', search: '' },
      sepia: {
        getSessionPage: async (_agent: string, _id: string, o: PageOptions = {}) => {
          const offset = o.offset ?? 0
          asked.push({ offset, at: Date.now() })
          const page: SessionPage = { session: header(final ? 'whole' : 'prefix'), nodes: nodes(offset), offset, totalNodes: final ? TOTAL + 1 : TOTAL, stats: { messages: final ? 2 : 1, toolCalls: 0, metaNodes: 0 } }
          return ok(final ? page : { ...page, partial: true })
        },
      },
    })
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('keeps the nodes of a held page and settles the header with a growing delay', async () => {
    const store = useSessionStore()
    const start = Date.now()
    await store.load('claude-code', 's1')
    await store.ensurePage(3)
    const held = store.pages.get(3)!
    const first = store.pages.get(0)!
    expect(store.session?.title).toBe('prefix')
    expect(asked.map((a) => a.offset)).toEqual([0, 300])
    // One settle at a time (not one per partial page): 300 ms, then 600, then 1200.
    await vi.advanceTimersByTimeAsync(300)
    await vi.advanceTimersByTimeAsync(600)
    await vi.advanceTimersByTimeAsync(1200)
    expect(asked.slice(2).map((a) => [a.offset, a.at - start])).toEqual([
      [0, 300],
      [0, 900],
      [0, 2100],
    ])
    expect(store.pages.get(0)).toBe(first)
    final = true
    await vi.advanceTimersByTimeAsync(2400)
    expect(store.session?.title).toBe('whole')
    expect(store.total).toBe(TOTAL + 1)
    expect(store.stats?.messages).toBe(2)
    // The rows keep their node objects: the partial page's nodes were final already.
    expect(store.pages.get(0)).toBe(first)
    expect(store.pages.get(3)).toBe(held)
    const n = asked.length
    await vi.advanceTimersByTimeAsync(20_000)
    expect(asked.length).toBe(n)
  })
})
