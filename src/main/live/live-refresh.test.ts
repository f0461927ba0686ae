/**
 * LibraryService's live refresh loop: changes that arrive while a refresh runs are not dropped
 * (one more refresh runs when it ends), and many changes during one refresh cost one more, not many.
 */
import { describe, expect, it } from 'vitest'
import { LibraryService } from '../library'
import type { RefreshResult } from '../catalog/refresh'

class Probe extends LibraryService {
  calls = 0
  private release: Array<() => void> = []
  override refresh(): Promise<RefreshResult> {
    this.calls++
    return new Promise((resolve) => this.release.push(() => resolve({} as RefreshResult)))
  }
  /** Let the oldest running refresh finish. */
  finishOne(): void {
    this.release.shift()?.()
  }
  poke(): void {
    ;(this as unknown as { liveRefresh(): void }).liveRefresh()
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('live refresh', () => {
  it('runs one more refresh for changes that arrived during a refresh', async () => {
    const lib = new Probe([], [], { now: () => 0 }, { workers: 0 })
    lib.startLive()
    lib.poke()
    expect(lib.calls).toBe(1)
    lib.poke()
    lib.poke()
    lib.poke()
    expect(lib.calls).toBe(1)
    lib.finishOne()
    await tick()
    expect(lib.calls).toBe(2)
    lib.finishOne()
    await tick()
    expect(lib.calls).toBe(2)
    lib.poke()
    expect(lib.calls).toBe(3)
    lib.finishOne()
    await lib.close()
  })
})
