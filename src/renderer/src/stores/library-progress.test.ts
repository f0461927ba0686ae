/**
 * The library store's long read: progress is polled while it runs, "stop waiting" shows the
 * partial library (a late answer of the slow read is ignored), and once the background reading
 * ends the library is read again by itself. The bridge is a fake `window.sepia` envelope.
 */
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Library } from '../../../shared/api'
import type { IndexStatus } from '../../../shared/catalog'
import { library, summary } from '../test/fixtures'
import { useLibraryStore } from './library'
import { POLL_MS, indexFraction, useProgressStore } from './progress'

const status = (over: Partial<IndexStatus>): IndexStatus => ({ phase: 'read', running: true, done: 1, total: 4, bytesDone: 0, bytesTotal: 0, textDone: 0, textTotal: 0, ...over })
const withSessions = (ids: string[], index?: IndexStatus): Library => ({ ...library(ids.map((id) => summary(id))), ...(index ? { index } : {}) })

describe('library store: progress and stop waiting', () => {
  let current = status({})
  const calls: unknown[] = []
  let releaseSlow: (lib: Library) => void = () => undefined

  beforeEach(() => {
    vi.useFakeTimers()
    setActivePinia(createPinia())
    calls.length = 0
    current = status({})
    const ok = <T>(value: T) => ({ ok: true as const, value })
    vi.stubGlobal('window', {
      location: { hash: '', pathname: '/', search: '' },
      sepia: {
        getAppInfo: async () => ok({ name: 'Sepia', version: '0.1.0', mode: 'electron', irVersion: 1, platform: 'linux' }),
        getIndexStatus: async () => ok(current),
        getLibrary: async (options?: { partial?: boolean }) => {
          calls.push(options ?? null)
          if (calls.length === 1) return new Promise((resolve) => (releaseSlow = (lib) => resolve(ok(lib))))
          return ok(options?.partial ? withSessions(['a'], status({})) : withSessions(['a', 'b', 'c', 'd']))
        },
      },
    })
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('polls progress while reading, shows the partial library, then the full one when reading ends', async () => {
    const store = useLibraryStore()
    const progress = useProgressStore()
    void store.init()
    await vi.advanceTimersByTimeAsync(0)
    expect(store.loading).toBe(true)
    expect(progress.active).toBe(true)
    expect(progress.status).toEqual(current)
    expect(indexFraction(progress.status)).toBe(0.25)

    await store.stopWaiting()
    expect(store.loading).toBe(false)
    expect(store.library?.sessions.map((s) => s.id)).toEqual(['a'])
    expect(progress.active).toBe(true) // following the background reading

    releaseSlow(withSessions(['stale'])) // the slow read answers late: ignored
    await vi.advanceTimersByTimeAsync(0)
    expect(store.library?.sessions.map((s) => s.id)).toEqual(['a'])

    current = status({ phase: 'search', done: 4, textDone: 5, textTotal: 10 })
    await vi.advanceTimersByTimeAsync(POLL_MS)
    expect(indexFraction(progress.status)).toBe(0.5)
    current = status({ phase: 'idle', running: false, done: 4 })
    await vi.advanceTimersByTimeAsync(POLL_MS)
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toEqual([null, { partial: true }, null])
    expect(store.library?.sessions.map((s) => s.id)).toEqual(['a', 'b', 'c', 'd'])
    expect(progress.active).toBe(false)
  })

  it('indexFraction: sessions while reading, messages while indexing, undefined before counting', () => {
    expect(indexFraction(null)).toBeUndefined()
    expect(indexFraction(status({ total: 0 }))).toBeUndefined()
    expect(indexFraction(status({ done: 3, total: 12 }))).toBe(0.25)
    expect(indexFraction(status({ phase: 'search', textDone: 9, textTotal: 10 }))).toBe(0.9)
  })
})
