/**
 * The app's views, as data: the tabs in the toolbar, the palette's "Go to …" commands and the
 * panel App.vue shows all come from {@link VIEWS}. Adding a view is adding its id here, its label
 * in `strings.views`, and its component in `components/views/index.ts` (a `Record<ViewId, …>`:
 * a view without a component does not compile).
 *
 * A view component may expose (with `defineExpose`) the {@link ViewHandle} methods the global
 * keyboard shortcuts call: `/` and Ctrl/Cmd-F call `focusSearch` (a view without one sends them to
 * the Search view's), j/k and the arrows call `move`
 * (↑/↓ only while focus is inside an element marked `data-keynav`, or nowhere).
 */
import { strings } from './strings'

/** The id of a view (its panel's `data-view`, and its tab's `data-testid="tab-<id>"`). */
export type ViewId = 'library' | 'search' | 'usage' | 'timeline' | 'settings'

/** One view. */
export interface ViewDef {
  id: ViewId
  /** The tab's label. */
  label: string
}

/** What a view may expose for the global shortcuts. */
export interface ViewHandle {
  /** Focus the view's search or filter box; false when it has none (now). */
  focusSearch?: () => boolean
  /** Move the selection `delta` items down (negative: up) in the view's list. */
  move?: (delta: number) => void
}

/** Every view, in tab order. */
export const VIEWS: readonly ViewDef[] = (['library', 'search', 'usage', 'timeline', 'settings'] as const).map((id) => ({
  id,
  /** A getter: the label in the language in effect. */
  get label() {
    return strings.views[id]
  },
}))

/** True when `id` names a view. */
export function isViewId(id: unknown): id is ViewId {
  return VIEWS.some((v) => v.id === id)
}
