/**
 * The open session: the fully read {@link Session} of the selected library row, its loading state
 * and the error when it could not be read. Only the newest request wins when the user clicks fast.
 *
 * `focusNodeId` names the message the transcript scrolls to and highlights (a search hit);
 * `focusSeq` counts focus requests, so asking again for the same message scrolls again.
 */
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { SepiaErrorShape } from '../../../shared/api'
import type { AgentId, Session } from '../../../shared/ir'
import { bridge } from '../bridge'
import { toShape } from '../errors'
import { sessionKey } from '../format'

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
    if (focus !== undefined && !loading.value && !error.value && shown && sessionKey(shown.agent, shown.id) === sessionKey(agent, id) && key.value === sessionKey(agent, id)) return
    const mine = ++request
    last = { agent, id }
    key.value = sessionKey(agent, id)
    loading.value = true
    error.value = null
    try {
      const s = await bridge().getSession(agent, id)
      if (mine !== request) return
      session.value = s
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
      const s = await bridge().getSession(shown.agent, shown.id)
      if (mine === request) session.value = s
    } catch {
      // The session may be half written or gone; the next change tries again.
    }
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
  }

  return { session, key, loading, error, focusNodeId, focusSeq, load, refresh, retry, clear }
})
