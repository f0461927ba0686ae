/**
 * Revealing the open session's secrets (issue 9): main masks every session it sends
 * (`Session.maskedSecrets` counts the masked values); `reveal()` asks for the one session unmasked
 * (`revealSecrets`) and shows it in place of the masked copy, and turns off the renderer's own
 * masking (`secretsRevealed` in secrets.ts). As soon as another session is opened, the revealed
 * copy is dropped and masking is back on; when the same session is read again while it stays
 * open (a reload, the library's background refresh), the fresh copy is revealed too. `hide()`
 * puts the masked copy back at once.
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { SepiaErrorShape } from '../../../shared/api'
import type { Session } from '../../../shared/ir'
import { bridge } from '../bridge'
import { toShape } from '../errors'
import { sessionKey } from '../format'
import { secretsRevealed } from '../secrets'
import { useSessionStore } from './session'

export const useRevealStore = defineStore('reveal', () => {
  const sessions = useSessionStore()
  /** The unmasked session being shown, or null. */
  const revealed = shallowRef<Session | null>(null)
  /** The masked copy it replaced (put back by `hide`). */
  let masked: Session | null = null
  const busy = ref(false)
  const error = ref<SepiaErrorShape | null>(null)
  /** True while the shown session is the revealed one. */
  const active = computed(() => revealed.value !== null && sessions.session === revealed.value)

  function forget(): void {
    // Main converts a revealed session unmasked: tell it the reveal is over.
    const was = revealed.value
    if (was) void bridge().hideSecrets(was.agent, was.id).catch(() => undefined)
    revealed.value = null
    masked = null
    secretsRevealed.value = false
  }

  // Another session opened: re-mask. The same session read again (a reload, or the library's
  // background refresh): it stays open, so it is revealed again.
  watch(
    () => sessions.session,
    (s) => {
      const was = revealed.value
      if (!was || s === was) return
      error.value = null
      if (s && s.agent === was.agent && s.id === was.id && sessions.key === sessionKey(s.agent, s.id)) void again(s)
      else forget()
    },
  )
  watch(
    () => sessions.key,
    (k) => {
      if (revealed.value && k !== sessionKey(revealed.value.agent, revealed.value.id)) forget()
    },
  )

  /** The shown session was replaced by a fresh masked copy of itself: reveal that one too. */
  async function again(s: Session): Promise<void> {
    masked = s
    try {
      const open = await bridge().revealSecrets(s.agent, s.id)
      if (sessions.session !== s) return
      revealed.value = open
      sessions.session = open
    } catch (e) {
      forget()
      if (sessions.session === s) error.value = toShape(e)
    }
  }

  /** Ask main for the open session unmasked and show it. */
  async function reveal(): Promise<void> {
    const s = sessions.session
    if (!s || busy.value) return
    busy.value = true
    error.value = null
    try {
      const open = await bridge().revealSecrets(s.agent, s.id)
      if (sessions.session !== s) return
      masked = s
      revealed.value = open
      secretsRevealed.value = true
      sessions.session = open
    } catch (e) {
      if (sessions.session === s) error.value = toShape(e)
    } finally {
      busy.value = false
    }
  }

  /** Show the masked copy again. */
  function hide(): void {
    if (!active.value) return
    const back = masked
    forget()
    if (back) sessions.session = back
  }

  return { revealed, busy, error, active, reveal, hide }
})
