/** The component of every view (see `views.ts`). A `Record`: a view without a component does not compile. */
import type { Component } from 'vue'
import type { ViewId } from '../../views'
import LibraryView from './LibraryView.vue'
import SearchView from './SearchView.vue'
import SettingsView from './SettingsView.vue'
import TimelineView from './TimelineView.vue'
import UsageView from './UsageView.vue'

/** View id → its component. */
export const VIEW_COMPONENTS: Record<ViewId, Component> = {
  library: LibraryView,
  search: SearchView,
  usage: UsageView,
  timeline: TimelineView,
  settings: SettingsView,
}
