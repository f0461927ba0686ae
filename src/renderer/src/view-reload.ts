/**
 * A view that shows numbers read from the library (Timeline, Usage, Settings) reads them again
 * when the library changes (a reload, a live update, another folder): at once when the view is
 * shown, else when it is next shown (kept-alive views are re-activated, not re-mounted). The view's
 * `load` runs on mount too. `onChange` runs first on each change (e.g. to drop a filter that names
 * a home no longer open).
 */
import { onActivated, onMounted, watch } from 'vue'
import type { Library } from '../../shared/api'
import { useLibraryStore } from './stores/library'
import { useUiStore } from './stores/ui'
import type { ViewId } from './views'

export function useLibraryReload(view: ViewId, load: () => Promise<void>, onChange?: (library: Library | null) => void): void {
  const library = useLibraryStore()
  const ui = useUiStore()
  let stale = false
  watch(
    () => library.library,
    (lib) => {
      onChange?.(lib)
      if (ui.view === view) void load()
      else stale = true
    },
  )
  onMounted(() => void load())
  onActivated(() => {
    if (!stale) return
    stale = false
    void load()
  })
}
