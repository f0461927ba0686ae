/**
 * Live updates: polls `getChanges(token)` every {@link LIVE_MS} while the window is visible (the
 * first call starts the main process watching the stores) and folds the changes into the shown
 * library in place (`live.ts`), so sessions being written show up without a reload. When the
 * open session changed, it is read again quietly (the reader keeps their place). Also keeps the
 * last {@link IndexStatus} the changes carried, for the toolbar's progress bar and the search view.
 */
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { IndexStatus } from '../../../shared/catalog'
import { bridge } from '../bridge'
import { applyChanges, touches } from '../live'
import { useLibraryStore } from './library'
import { useSessionStore } from './session'

/** Time between two polls while the window is visible, ms. */
export const LIVE_MS = 2000
/** Time between two polls while an index refresh runs (the progress bar moves), ms. */
export const LIVE_BUSY_MS = 700

export const useLiveStore = defineStore('live', () => {
  /** The index status of the last answer. */
  const index = shallowRef<IndexStatus | null>(null)
  /** Sessions added, changed or removed since polling started (for tests and a future badge). */
  const applied = ref(0)
  let token: string | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let started = false
  let busy = false

  function schedule(ms: number): void {
    clearTimeout(timer)
    timer = setTimeout(() => void tick(), ms)
  }

  async function tick(): Promise<void> {
    if (document.visibilityState !== 'visible') return // resumed by visibilitychange
    if (busy) return
    // Start once a library is shown: the main process watches the folders of the sessions it
    // knows when the first call comes, so calling before the first read would watch too few.
    const shown = useLibraryStore()
    if (!shown.library || shown.loading) {
      if (started) schedule(LIVE_MS)
      return
    }
    busy = true
    let next = LIVE_MS
    try {
      const changes = await bridge().getChanges(token)
      token = changes.token
      index.value = changes.index
      if (changes.index.running) next = LIVE_BUSY_MS
      const count = changes.changedSessions.length + changes.removedSessions.length
      if (count > 0) {
        applied.value += count
        const library = useLibraryStore()
        // A library being replaced (open folder, first read) will hold these changes already.
        if (library.library && !library.loading) {
          const updated = applyChanges(library.library, changes)
          if (updated === null) void library.reload(true)
          else library.library = updated
          const session = useSessionStore()
          if (session.key && touches(changes, session.key)) void session.refresh()
        }
      }
    } catch {
      // The main process may be busy or restarting: try again at the next tick.
    } finally {
      busy = false
    }
    if (started) schedule(next)
  }

  function onVisibility(): void {
    if (started && document.visibilityState === 'visible') schedule(0)
  }

  /** Start polling (once; later calls do nothing). */
  function start(): void {
    if (started) return
    started = true
    document.addEventListener('visibilitychange', onVisibility)
    schedule(0)
  }

  /** Stop polling. */
  function stop(): void {
    started = false
    clearTimeout(timer)
    document.removeEventListener('visibilitychange', onVisibility)
  }

  return { index, applied, start, stop }
})
