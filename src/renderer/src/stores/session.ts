/**
 * The open session: its header (the {@link Session} without nodes, from `getSessionPage`), its
 * whole-session counts, and its nodes in pages fetched on demand (issue 15: the renderer never
 * holds a whole large session; `pages` keeps the pages near the view, `keepPages` drops the rest).
 * When `session.nodes` is not empty (the revealed, unmasked copy) the nodes come from it instead.
 * Its loading state and the error when it could not be read. Only the newest request wins.
 *
 * `focusNodeId` names the message the transcript scrolls to and highlights (a search hit);
 * `focusSeq` counts focus requests, so asking again for the same message scrolls again.
 */
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { SepiaErrorShape } from '../../../shared/api'
import type { SessionPage, SessionStats } from '../../../shared/catalog'
import type { AgentId, MessageNode, Session } from '../../../shared/ir'
import { bridge } from '../bridge'
import { toShape } from '../errors'
import { sessionKey } from '../format'

/** Nodes per page fetched from main. */
export const PAGE_NODES = 100

export const useSessionStore = defineStore('session', () => {
  /** The session shown, or null. Shallow: a session can hold thousands of nodes and is never mutated. */
  const session = shallowRef<Session | null>(null)
  /** `${agent}/${id}` of the session being shown or loaded. */
  const key = ref<string | null>(null)
  const loading = ref(false)
  const error = ref<SepiaErrorShape | null>(null)
  /** The message to scroll to and highlight, or null. */
  const focusNodeId = ref<string | null>(null)
  /** Incremented by every focus request. */
  const focusSeq = ref(0)
  /** Index in the session's nodes of `focusNodeId`, when known. */
  const focusIndex = ref<number | null>(null)
  /** Nodes in the whole session. */
  const total = ref(0)
  /** Whole-session counts (messages, tool calls, injected nodes, usage). */
  const stats = shallowRef<SessionStats | null>(null)
  /** Fetched pages by page number (`PAGE_NODES` nodes each). Replaced, never mutated. */
  const pages = shallowRef<ReadonlyMap<number, readonly MessageNode[]>>(new Map())
  /** Pages on their way, with the time asked (ms since epoch); one older than 4 s may be asked again. */
  const pending = new Map<number, number>()
  /** Bumped by every load and refresh: answers for an older generation are dropped. */
  let generation = 0
  /** The generation whose header and counts are being asked for again (`settle`), or -1. */
  let settling = -1
  let request = 0
  let last: { agent: AgentId; id: string } | null = null

  /**
   * Read a session through the API and show it; a newer call makes an older answer be ignored.
   * With `focus` (a node id) the transcript scrolls to that message; when the session is already
   * shown it is not read again. Without it, another session drops the focus; the same one keeps it.
   */
  async function load(agent: AgentId, id: string, focus?: string): Promise<void> {
    if (focus !== undefined) {
      focusNodeId.value = focus
      focusSeq.value++
    } else if (key.value !== sessionKey(agent, id)) {
      // Another session: no focus. The same one read again (a library reload) keeps its highlight.
      focusNodeId.value = null
    }
    const shown = session.value
    if (focus !== undefined && !loading.value && !error.value && shown && sessionKey(shown.agent, shown.id) === sessionKey(agent, id) && key.value === sessionKey(agent, id)) {
      // Already shown: fetch the page that holds the node to learn where it is.
      focusIndex.value = null
      const whole = shown.nodes.findIndex((n) => n.nodeId === focus)
      if (whole >= 0) {
        focusIndex.value = whole
        return
      }
      try {
        const page = await bridge().getSessionPage(agent, id, { limit: PAGE_NODES, nodeId: focus })
        if (session.value !== shown) return
        show(page, false)
        const at = page.nodes.findIndex((n) => n.nodeId === focus)
        if (at >= 0) focusIndex.value = page.offset + at
      } catch {
        // The session stays as shown, without the focus.
      }
      return
    }
    const mine = ++request
    last = { agent, id }
    key.value = sessionKey(agent, id)
    loading.value = true
    error.value = null
    try {
      const page = await bridge().getSessionPage(agent, id, { limit: PAGE_NODES, ...(focus !== undefined ? { nodeId: focus } : {}) })
      if (mine !== request) return
      show(page, true)
      const at = focus !== undefined ? page.nodes.findIndex((n) => n.nodeId === focus) : -1
      focusIndex.value = at >= 0 ? page.offset + at : null
    } catch (e) {
      if (mine !== request) return
      session.value = null
      error.value = toShape(e)
    } finally {
      if (mine === request) loading.value = false
    }
  }

  /**
   * Read the shown session again after it changed on disk (live updates), quietly: no loading
   * state, the focus kept, and a failure leaves the shown session in place.
   */
  async function refresh(): Promise<void> {
    const shown = session.value
    if (!shown || loading.value || key.value !== sessionKey(shown.agent, shown.id)) return
    const mine = ++request
    try {
      const keep = [...pages.value.keys()]
      const first = await bridge().getSessionPage(shown.agent, shown.id, { offset: (keep[0] ?? 0) * PAGE_NODES, limit: PAGE_NODES })
      if (mine !== request) return
      show(first, true)
      for (const p of keep.slice(1)) void ensurePage(p)
    } catch {
      // The session may be half written or gone; the next change tries again.
    }
  }

  /**
   * Take a page's header, counts and nodes; `fresh` drops the pages held before. A page held
   * already keeps its node objects (a page's nodes are final even when it is `partial`, see
   * `SessionPage.partial`), so the rows that show them are not rendered again.
   */
  function show(page: SessionPage, fresh: boolean, tries = 0): void {
    if (fresh) {
      generation++
      pending.clear()
    }
    session.value = page.session
    total.value = page.totalNodes
    if (page.stats) stats.value = page.stats
    const p = Math.floor(page.offset / PAGE_NODES)
    if (fresh || !pages.value.has(p)) {
      const next = new Map(fresh ? [] : pages.value)
      next.set(p, page.nodes)
      pages.value = next
    }
    // Read while main reads the rest of a big file: ask again for the final header and counts, one
    // page at a time, less often the longer it takes (300 ms, then up to every 5 s).
    if (page.partial && settling !== generation) {
      settling = generation
      const gen = generation
      setTimeout(() => void settle(page.offset, gen, tries), Math.min(300 * 2 ** tries, 5000))
    }
  }

  async function settle(offset: number, gen: number, tries: number): Promise<void> {
    const s = session.value
    if (settling === gen) settling = -1
    if (!s || gen !== generation) return
    try {
      const page = await bridge().getSessionPage(s.agent, s.id, { offset, limit: PAGE_NODES })
      if (gen === generation && session.value?.id === s.id) show(page, false, tries + 1)
    } catch {
      // The next view change asks again.
    }
  }

  /** The node at `index` of the session, or undefined while its page is not fetched. */
  function nodeAt(index: number): MessageNode | undefined {
    const whole = session.value?.nodes
    if (whole && whole.length) return whole[index]
    return pages.value.get(Math.floor(index / PAGE_NODES))?.[index % PAGE_NODES]
  }

  /** Fetch page `p` unless held or on its way. */
  async function ensurePage(p: number): Promise<void> {
    const s = session.value
    if (!s || s.nodes.length || p < 0 || p * PAGE_NODES >= total.value || pages.value.has(p)) return
    if (Date.now() - (pending.get(p) ?? 0) < 4000) return
    const gen = generation
    pending.set(p, Date.now())
    try {
      const page = await bridge().getSessionPage(s.agent, s.id, { offset: p * PAGE_NODES, limit: PAGE_NODES })
      if (gen === generation && session.value?.id === s.id) show(page, false)
    } catch {
      // Shown as loading; the next scroll asks again.
    } finally {
      if (gen === generation) pending.delete(p)
    }
  }

  /** Drop the pages outside `[first, last]` (pages near the view), so memory follows what is shown. */
  function keepPages(first: number, last: number): void {
    const held = [...pages.value.keys()]
    if (held.every((p) => p >= first && p <= last)) return
    pages.value = new Map([...pages.value].filter(([p]) => p >= first && p <= last))
  }

  /** Read the last requested session again (after an error). */
  async function retry(): Promise<void> {
    if (last) await load(last.agent, last.id)
  }

  /** Show nothing (after the library changed under the open session). */
  function clear(): void {
    request++
    last = null
    session.value = null
    key.value = null
    loading.value = false
    error.value = null
    focusNodeId.value = null
    focusIndex.value = null
    total.value = 0
    stats.value = null
    pages.value = new Map()
    generation++
  }

  /** Scroll to node `index` of the open session (find in session, a hit of another view). */
  function focusAt(index: number, nodeId: string): void {
    focusNodeId.value = nodeId
    focusIndex.value = index
    focusSeq.value++
  }

  return { session, key, loading, error, focusNodeId, focusSeq, focusIndex, total, stats, pages, load, refresh, retry, clear, nodeAt, ensurePage, keepPages, focusAt }
})
