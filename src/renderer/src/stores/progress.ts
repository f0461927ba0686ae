/**
 * Progress of the catalog refresh (`getIndexStatus`), polled while the library is being read and
 * while a partly read library is shown, so the loading state and the library pane can say how far
 * it got ("412 of 1,030 sessions"). One follower at a time (the library store).
 */
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { IndexStatus } from '../../../shared/catalog'
import { bridge } from '../bridge'

/** Time between two polls, ms. */
export const POLL_MS = 400

/** `done / total` of a status as a fraction 0..1, or undefined when nothing is counted yet. */
export function indexFraction(s: IndexStatus | null | undefined): number | undefined {
  if (!s) return undefined
  if (s.phase === 'search' && s.textTotal > 0) return Math.min(1, s.textDone / s.textTotal)
  if (s.total > 0) return Math.min(1, s.done / s.total)
  return undefined
}

export const useProgressStore = defineStore('progress', () => {
  const status = shallowRef<IndexStatus | null>(null)
  /** True while polling. */
  const active = ref(false)
  let timer: ReturnType<typeof setTimeout> | undefined
  let whenIdle: (() => void) | undefined

  function schedule(ms: number): void {
    clearTimeout(timer)
    timer = setTimeout(() => void poll(), ms)
  }

  async function poll(): Promise<void> {
    try {
      const s = await bridge().getIndexStatus()
      if (active.value) status.value = s
    } catch {
      // A passing failure: keep the last status and try again.
    }
    if (!active.value) return
    if (whenIdle && status.value && !status.value.running) {
      const done = whenIdle
      stop()
      done()
      return
    }
    schedule(POLL_MS)
  }

  /** Poll until {@link stop}; with `onIdle`, stop by itself once the refresh has ended and call it. */
  function start(onIdle?: () => void): void {
    active.value = true
    whenIdle = onIdle
    schedule(onIdle ? POLL_MS : 0)
  }

  /** Stop polling (the last status stays readable). */
  function stop(): void {
    active.value = false
    whenIdle = undefined
    clearTimeout(timer)
    timer = undefined
  }

  return { status, active, start, stop }
})
