/**
 * The session view's "scroll to this message": when the session store asks for a focus
 * (`focusNodeId`, `focusSeq`: a search hit was opened), make sure the row is rendered (the view
 * renders long transcripts in chunks), show injected messages when the hit is one, scroll the row
 * to the middle of the view and report its id for highlighting. Each request scrolls once: a later
 * live refresh of the same session keeps the reader's scroll position.
 */
import { computed, nextTick, watch, type ComputedRef, type Ref } from 'vue'
import type { MessageNode } from '../../shared/ir'
import { findFocusRow } from './focus'
import { useSessionStore } from './stores/session'
import type { Transcript } from './transcript'

/** What the session view hands over. */
export interface TranscriptFocusOptions {
  /** The scrolling element that holds the rows (`[data-node-id]`). */
  root: Ref<HTMLElement | null>
  transcript: ComputedRef<Transcript | null>
  /** The shown session's nodes. */
  nodes: () => readonly MessageNode[] | undefined
  /** How many rows are rendered (raised to reach the focused row). */
  limit: Ref<number>
  showMeta: Ref<boolean>
}

/** Rows rendered past the focused one, so the view below it is filled at once. */
const MARGIN_ROWS = 30

/** Wire the focus; returns the `data-node-id` of the row to highlight (or null). */
export function useTranscriptFocus(o: TranscriptFocusOptions): ComputedRef<string | null> {
  const store = useSessionStore()
  let handled = -1

  const target = computed(() => {
    const t = o.transcript.value
    const nodes = o.nodes()
    if (!t || !nodes || !store.focusNodeId) return null
    return findFocusRow(t.items, nodes, store.focusNodeId, o.showMeta.value)
  })

  function scrollTo(rowNodeId: string): void {
    const find = (): HTMLElement | null | undefined => o.root.value?.querySelector<HTMLElement>(`[data-node-id="${CSS.escape(rowNodeId)}"]`)
    find()?.scrollIntoView({ block: 'center' })
    // Rows above it may still change height as they are laid out for the first time
    // (content-visibility): scroll again once they have settled.
    requestAnimationFrame(() => requestAnimationFrame(() => find()?.scrollIntoView({ block: 'center' })))
  }

  watch(
    [() => store.focusSeq, target],
    async () => {
      const t = target.value
      if (store.focusSeq === handled || !t) return
      if (t.kind === 'hidden-meta') {
        o.showMeta.value = true
        return
      }
      handled = store.focusSeq
      if (o.limit.value <= t.index + MARGIN_ROWS) o.limit.value = t.index + MARGIN_ROWS
      await nextTick()
      scrollTo(t.rowNodeId)
    },
    { immediate: true, flush: 'post' },
  )

  return computed(() => (target.value?.kind === 'row' ? target.value.rowNodeId : null))
}
