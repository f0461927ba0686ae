/**
 * The library store: the current {@link Library} (homes, agents, session summaries,
 * diagnostics), its loading and error states, the title filter and the selected session key
 * (`${agent}/${id}`). Every call to the main process goes through `bridge()`.
 *
 * Long reads show progress (`useProgressStore`, polled while `loading`) and can be cut short:
 * `stopWaiting()` shows what the catalog holds so far while the reading goes on in the background,
 * and the library is read again by itself once it has ended.
 *
 * Error handling: a failure while no library is shown becomes `error` (the error state); a failure
 * of a later action (open a folder, reload) leaves the shown library in place and becomes
 * `actionError` (a dismissible alert), or is returned to the caller (the path dialog).
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { AppInfo, Library, SepiaErrorShape } from '../../../shared/api'
import type { AgentId, SessionSummary } from '../../../shared/ir'
import { bridge, isElectron } from '../bridge'
import { toShape } from '../errors'
import { sessionKey } from '../format'
import { buildLibraryTree, hiddenCount } from '../library-tree'
import { useProgressStore } from './progress'
import { useSessionStore } from './session'

const SELECTED_KEY = 'sepia.selected'

function remember(key: string | null): void {
  try {
    if (key) sessionStorage.setItem(SELECTED_KEY, key)
    else sessionStorage.removeItem(SELECTED_KEY)
  } catch {
    // Storage may be unavailable (private mode); selection is then not kept across reloads.
  }
}

function remembered(): string | null {
  try {
    return sessionStorage.getItem(SELECTED_KEY)
  } catch {
    return null
  }
}

export const useLibraryStore = defineStore('library', () => {
  const appInfo = shallowRef<AppInfo | null>(null)
  /** The library shown. Shallow: it is replaced as a whole, never mutated. */
  const library = shallowRef<Library | null>(null)
  /** True while a library is being read to replace the shown one (first load, open folder, demo). */
  const loading = ref(false)
  /** True while `reload()` re-reads the current homes (the shown library stays). */
  const reloading = ref(false)
  /** Why the library could not be read when none is shown. */
  const error = ref<SepiaErrorShape | null>(null)
  /** A later action that failed while a library is shown. */
  const actionError = ref<SepiaErrorShape | null>(null)
  const filter = ref('')
  const selectedKey = ref<string | null>(null)

  /** Also list the sessions the agent hides from its own list (Devin `hidden = 1`). */
  const showHidden = ref(false)
  const tree = computed(() => (library.value ? buildLibraryTree(library.value, filter.value, showHidden.value) : []))
  /** How many listed sessions are hidden by their agent. */
  const hidden = computed(() => (library.value ? hiddenCount(library.value) : 0))
  const isEmpty = computed(() => library.value !== null && library.value.sessions.length === 0)
  const isDemo = computed(() => library.value?.homes.some((h) => h.isDemo) ?? false)
  const summaries = computed(() => {
    const map = new Map<string, SessionSummary>()
    for (const s of library.value?.sessions ?? []) map.set(sessionKey(s.agent, s.id), s)
    return map
  })
  const mode = computed(() => appInfo.value?.mode ?? (isElectron() ? 'electron' : 'browser'))

  /** Show a freshly read library; keep the open session when it is still in it. */
  function show(next: Library): void {
    library.value = next
    error.value = null
    const sessions = useSessionStore()
    const keep = selectedKey.value ?? remembered()
    const stillThere = keep ? next.sessions.find((s) => sessionKey(s.agent, s.id) === keep) : undefined
    if (stillThere) {
      void openSession(stillThere.agent, stillThere.id)
    } else {
      selectedKey.value = null
      remember(null)
      sessions.clear()
    }
  }

  let request = 0

  /**
   * After a library read while the catalog was still being filled (a partial library), follow
   * the refresh and read the library again, quietly, when it ends.
   */
  function followIndex(next: Library): void {
    const progress = useProgressStore()
    if (!next.index?.running) return progress.stop()
    progress.start(() => void reload(true))
  }

  /** Read a library that replaces the shown one. Returns the error, or null on success (or when overtaken). */
  async function replace(read: () => Promise<Library>): Promise<SepiaErrorShape | null> {
    const mine = ++request
    const progress = useProgressStore()
    loading.value = true
    progress.start()
    try {
      const next = await read()
      if (mine !== request) return null
      filter.value = ''
      show(next)
      followIndex(next)
      return null
    } catch (e) {
      if (mine !== request) return null
      progress.stop()
      const err = toShape(e)
      if (!library.value) error.value = err
      return err
    } finally {
      if (mine === request) loading.value = false
    }
  }

  /**
   * Stop waiting for the library being read: show what is read so far. The reading goes on in the
   * background; the library is read again when it has ended.
   */
  async function stopWaiting(): Promise<void> {
    if (!loading.value) return
    await replace(() => bridge().getLibrary({ partial: true }))
  }

  /** First load: app info, then the library of the default homes. */
  async function init(): Promise<void> {
    error.value = null
    bridge()
      .getAppInfo()
      .then((info) => (appInfo.value = info))
      .catch(() => undefined)
    await replace(() => bridge().getLibrary())
  }

  /**
   * Re-read changed files of the current homes; the open session is read again too. `quiet`
   * (after a background refresh ended): no refresh is asked for, and a failure is not shown.
   */
  async function reload(quiet = false): Promise<void> {
    if (!library.value) return void (await init())
    if (!quiet) reloading.value = true
    if (!quiet) actionError.value = null
    const mine = request
    try {
      const next = await bridge().getLibrary(quiet ? undefined : { refresh: true })
      if (mine !== request) return
      show(next)
      followIndex(next)
    } catch (e) {
      if (!quiet && mine === request) actionError.value = toShape(e)
    } finally {
      if (!quiet) reloading.value = false
    }
  }

  /** Replace the homes by one folder. Returns the error (for the path dialog) or null. */
  async function openHome(path: string): Promise<SepiaErrorShape | null> {
    actionError.value = null
    return replace(() => bridge().openHome(path))
  }

  /** Open the built-in demo library. */
  async function openDemo(): Promise<void> {
    actionError.value = null
    const err = await replace(() => bridge().openDemo())
    if (err && library.value) actionError.value = err
  }

  /**
   * Ask for a folder with the system dialog and open it. Resolves `ask` when there is no dialog
   * (browser mode): the caller then asks for a typed path.
   */
  async function chooseFolder(): Promise<'opened' | 'ask' | 'cancelled'> {
    actionError.value = null
    let path: string | null
    try {
      path = await bridge().pickFolder()
    } catch (e) {
      if (mode.value === 'browser') return 'ask'
      actionError.value = toShape(e)
      return 'cancelled'
    }
    if (path === null) return mode.value === 'electron' ? 'cancelled' : 'ask'
    const err = await openHome(path)
    if (err && library.value) actionError.value = err
    return 'opened'
  }

  /** Select a session and read it; with `focusNodeId` (a search hit), scroll to that message and highlight it. */
  async function openSession(agent: AgentId, id: string, focusNodeId?: string): Promise<void> {
    const key = sessionKey(agent, id)
    selectedKey.value = key
    remember(key)
    await useSessionStore().load(agent, id, focusNodeId)
  }

  /** Close the open session (or stop opening it): nothing is selected. */
  function closeSession(): void {
    selectedKey.value = null
    remember(null)
    useSessionStore().clear()
  }

  return {
    appInfo,
    library,
    loading,
    reloading,
    error,
    actionError,
    filter,
    showHidden,
    hidden,
    selectedKey,
    tree,
    isEmpty,
    isDemo,
    summaries,
    mode,
    init,
    reload,
    stopWaiting,
    openHome,
    openDemo,
    chooseFolder,
    openSession,
    closeSession,
  }
})
