/**
 * The open session: the fully read {@link Session} of the selected library row, its loading state
 * and the error when it could not be read. Only the newest request wins when the user clicks fast.
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
  let request = 0
  let last: { agent: AgentId; id: string } | null = null

  /** Read a session through the API and show it; a newer call makes an older answer be ignored. */
  async function load(agent: AgentId, id: string): Promise<void> {
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
  }

  return { session, key, loading, error, load, retry, clear }
})
