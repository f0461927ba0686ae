/**
 * The window's hash routes (issue 17): `#/session/<agent>/<id>` opens that session — the target
 * of a deep link `sepia://session/<agent>/<id>` (the Electron app loads its page with that hash,
 * src/main/deep-links.ts), and the same link in browser mode
 * (`http://127.0.0.1:PORT/#/session/<agent>/<id>`, also after the token:
 * `#token=…&/session/…`). In Electron only, `#open=<encoded path>` opens a file the OS asked Sepia
 * to open (a file association), like a dropped one. A route is handled once, then removed from
 * the address (other hash parts, such as the token, stay), so the same link works again.
 * The rules for a session link live in src/shared/deep-link.ts.
 */
import { onBeforeUnmount, onMounted } from 'vue'
import { parseSessionRoute, type SessionLink } from '../../shared/deep-link'

/** What a hash asks for. */
export type HashRoute = { kind: 'session'; link: SessionLink } | { kind: 'open'; path: string }

const isRoutePart = (part: string): boolean => part.startsWith('/session/') || part.startsWith('open=')

/** The route in `hash` (`electron`: whether `open=` is honoured), or undefined. */
export function routeFromHash(hash: string, electron: boolean): HashRoute | undefined {
  const link = parseSessionRoute(hash)
  if (link) return { kind: 'session', link }
  if (!electron) return undefined
  for (const part of hash.replace(/^#/, '').split('&')) {
    if (!part.startsWith('open=')) continue
    try {
      const path = decodeURIComponent(part.slice(5))
      if (path !== '') return { kind: 'open', path }
    } catch {
      // not a valid encoding: nothing to open
    }
  }
  return undefined
}

/** `hash` without the parts `drop` matches (`#a&b` form kept; '' when nothing is left). */
export function withoutHashParts(hash: string, drop: (part: string) => boolean): string {
  const kept = hash.replace(/^#/, '').split('&').filter((p) => p !== '' && !drop(p))
  return kept.length ? `#${kept.join('&')}` : ''
}

/** Handle the address's route now and on every hash change while the component is mounted. */
export function useHashRoutes(handle: (route: HashRoute) => void, electron: () => boolean): void {
  function check(): void {
    const route = routeFromHash(window.location.hash, electron())
    const rest = withoutHashParts(window.location.hash, isRoutePart)
    if (rest !== window.location.hash) history.replaceState(null, '', window.location.pathname + window.location.search + rest)
    if (route) handle(route)
  }
  onMounted(() => {
    window.addEventListener('hashchange', check)
    check()
  })
  onBeforeUnmount(() => window.removeEventListener('hashchange', check))
}
