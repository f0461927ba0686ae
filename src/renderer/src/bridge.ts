/**
 * The renderer's only way to the main process: `window.sepia` (the Electron preload's envelope
 * API) or, when the page is served in a browser by the loopback transport, an HTTP client of the
 * same shape. Both are unwrapped into a {@link SepiaApi} whose methods reject with SepiaError.
 *
 * HTTP protocol (src/main/transport/http.ts): `POST /api/<method>` with JSON `{"args": [...]}`
 * and header `x-sepia-token`; the answer is an `ApiResult` envelope. The token reaches the page
 * in the URL fragment (`#token=...`, never sent to the server in a URL) and is kept in
 * sessionStorage so a reload keeps working.
 */
import { strings } from './strings'
import { API_METHODS, SepiaError, unwrapEnvelopeApi, type ApiResult, type EnvelopeApi, type SepiaApi } from '../../shared/api'

declare global {
  interface Window {
    /** Set by the Electron preload (src/preload/index.ts). */
    sepia?: EnvelopeApi
    /**
     * Optional, from the Electron preload: the path on disk of a dropped file or folder
     * (Electron's `webUtils.getPathForFile`; a sandboxed page has no `File.path`). Absent in a
     * browser, where a dropped item's path is never known.
     */
    sepiaFiles?: { pathForFile(file: File): string }
  }
}

const TOKEN_KEY = 'sepia.token'

function readToken(): string {
  const m = /(?:^#|&)token=([^&]+)/.exec(window.location.hash)
  if (m?.[1]) {
    const token = decodeURIComponent(m[1])
    sessionStorage.setItem(TOKEN_KEY, token)
    // Drop the token from the visible URL; other hash parts (a session route, deep-link.ts) stay.
    const rest = window.location.hash.replace(/^#/, '').split('&').filter((p) => p !== '' && !p.startsWith('token=')).join('&')
    history.replaceState(null, '', window.location.pathname + window.location.search + (rest ? `#${rest}` : ''))
    return token
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? ''
}

/** An envelope client over the loopback server that served this page. */
export function createHttpEnvelope(base = '', token = readToken()): EnvelopeApi {
  const client: Record<string, (...args: unknown[]) => Promise<ApiResult<unknown>>> = {}
  for (const method of API_METHODS) {
    client[method] = async (...args: unknown[]) => {
      let res: Response
      try {
        res = await fetch(`${base}/api/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sepia-token': token },
          body: JSON.stringify({ args }),
        })
      } catch (e) {
        return { ok: false, error: { code: 'INTERNAL', message: strings.states.serverNoAnswer(String(e)) } }
      }
      const body = (await res.json().catch(() => null)) as ApiResult<unknown> | null
      if (!body) return { ok: false, error: new SepiaError({ code: 'INTERNAL', message: strings.states.serverBadAnswer(res.status) }).toJSON() }
      return body
    }
  }
  return client as unknown as EnvelopeApi
}

let api: SepiaApi | undefined

/** The API for this page: the preload's `window.sepia` in Electron, else the HTTP client. */
export function bridge(): SepiaApi {
  api ??= unwrapEnvelopeApi(window.sepia ?? createHttpEnvelope())
  return api
}

/** True when running inside Electron (the preload exposed `window.sepia`). */
export function isElectron(): boolean {
  return window.sepia !== undefined
}

/**
 * The path on disk of a file or folder dropped on the window, when the preload can tell it
 * (`window.sepiaFiles`); null otherwise (browser mode, or an item that is not on disk).
 */
export function droppedPath(file: File): string | null {
  try {
    const path = window.sepiaFiles?.pathForFile(file)
    return typeof path === 'string' && path !== '' ? path : null
  } catch {
    return null
  }
}
