/**
 * Electron lockdown beyond the window preferences (issue 9 items 3 and 4; Electron's security
 * checklist): every web contents refuses navigation, redirects, `<webview>` and new windows; the
 * session denies every permission request and check, and cancels every request that is not the
 * app's own files. Only types are imported from `electron`, so this runs in plain Node tests with
 * fakes.
 */
import { isAbsolute, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { App, Session, WebContents } from 'electron'

/** Where the app's own pages come from: the dev server, and the folder of the bundled renderer. */
export interface AppUrlOptions {
  devServerUrl?: string
  /**
   * Absolute folders `file:` URLs may come from: the built renderer (`out/renderer`), and the
   * system temp folder where the PDF export writes its page. `file:` URLs outside are refused.
   */
  appRoot?: string | readonly string[]
}

/**
 * True for a URL the app itself loads: its bundled files (`file:` inside `appRoot` when given:
 * issue 16, not every file on the disk), inline data (`data:`, `blob:`), devtools, and the dev
 * server's origin when one is given (electron-vite dev). Anything else — any remote origin, other
 * files, and loopback ports other than the dev server — is refused.
 */
export function isAppUrl(url: string, devServerUrl?: string, appRoot?: string | readonly string[]): boolean {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return false
  }
  if (u.protocol === 'file:') {
    if (!appRoot) return true
    let p: string
    try {
      p = fileURLToPath(u)
    } catch {
      return false
    }
    return (typeof appRoot === 'string' ? [appRoot] : appRoot).some((root) => {
      const r = relative(root, p)
      return r === '' || (!r.startsWith('..') && !isAbsolute(r))
    })
  }
  if (['data:', 'blob:', 'devtools:'].includes(u.protocol)) return true
  if (devServerUrl) {
    try {
      return u.origin === new URL(devServerUrl).origin
    } catch {
      return false
    }
  }
  return false
}

/** Refuse navigation, redirects, `<webview>` and new windows in one web contents. */
export function hardenWebContents(contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>): void {
  contents.on('will-navigate', (event) => event.preventDefault())
  contents.on('will-redirect', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
}

/** Deny permissions and cancel every request that is not the app's own (see {@link isAppUrl}). */
export function hardenSession(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'webRequest'>, devServerUrl?: string, appRoot?: string | readonly string[]): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
  session.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAppUrl(details.url, devServerUrl, appRoot) }))
}

/** Apply {@link hardenWebContents} to every web contents the app ever creates. */
export function hardenApp(app: Pick<App, 'on'>): void {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents))
}
