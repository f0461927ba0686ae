/**
 * Issue 9 item 4: the Electron window's lockdown, checked without the Electron binary: the entry
 * (`src/main/index.ts`) runs against a fake `electron` module that records what it is asked to do.
 * Where the app is built, the bundles are inspected too (no remote module, preload exposes only
 * the SepiaApi methods).
 */
import { pathToFileURL } from 'node:url'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { API_METHODS } from '../src/shared/api'
import { findAppRoot } from '../src/main/context'
import { isAppUrl } from '../src/main/window-security'

type Handler = (...args: unknown[]) => unknown

const rec = vi.hoisted(() => ({
  windows: [] as { options: Record<string, unknown>; events: Map<string, Handler>; openHandler?: Handler; loaded?: string; loads: { path: string; hash?: string }[] }[],
  protocols: [] as string[],
  appEvents: new Map<string, Handler>(),
  ipc: [] as string[],
  session: { permission: undefined as Handler | undefined, check: undefined as Handler | undefined, beforeRequest: undefined as Handler | undefined },
}))

vi.mock('electron', () => {
  class BrowserWindow {
    static getAllWindows = () => rec.windows
    webContents: { on: (e: string, f: Handler) => void; setWindowOpenHandler: (f: Handler) => void }
    constructor(options: Record<string, unknown>) {
      const w: (typeof rec.windows)[number] = { options, events: new Map(), loads: [] }
      rec.windows.push(w)
      this.webContents = { on: (e, f) => void w.events.set(e, f), setWindowOpenHandler: (f) => void (w.openHandler = f) }
      this.loadFile = async (p: string, o?: { hash?: string }) => {
        w.loaded = p
        w.loads.push({ path: p, ...(o?.hash ? { hash: o.hash } : {}) })
      }
    }
    loadFile: (p: string, o?: { hash?: string }) => Promise<void>
    once() {}
    on() {}
    show() {}
    isMinimized() {
      return false
    }
    restore() {}
    focus() {}
  }
  return {
    app: {
      whenReady: () => Promise.resolve(),
      isPackaged: false,
      on: (e: string, f: Handler) => void rec.appEvents.set(e, f),
      quit() {},
      requestSingleInstanceLock: () => true,
      setAsDefaultProtocolClient: (scheme: string) => void rec.protocols.push(scheme),
    },
    BrowserWindow,
    dialog: { showOpenDialog: async () => ({ canceled: true, filePaths: [] }) },
    ipcMain: { handle: (channel: string) => void rec.ipc.push(channel), removeHandler() {} },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (f: Handler) => void (rec.session.permission = f),
        setPermissionCheckHandler: (f: Handler) => void (rec.session.check = f),
        webRequest: { onBeforeRequest: (f: Handler) => void (rec.session.beforeRequest = f) },
      },
    },
  }
})

const ROOT = findAppRoot()

describe('Electron entry, with a fake electron module', async () => {
  await import('../src/main/index')
  await vi.waitFor(() => expect(rec.windows.length).toBe(1))
  const win = rec.windows[0]!

  it('creates the window with isolation and sandbox on, node off, no webview, the preload only', () => {
    const prefs = win.options.webPreferences as Record<string, unknown>
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false, nodeIntegrationInSubFrames: false, webviewTag: false, webSecurity: true, allowRunningInsecureContent: false })
    expect('enableRemoteModule' in prefs).toBe(false)
    expect(String(prefs.preload)).toMatch(/[\\/]preload[\\/]index\.cjs$/)
    expect(win.loaded).toMatch(/[\\/]renderer[\\/]index\.html$/)
  })

  it('refuses navigation and new windows in the window and in every web contents created later', () => {
    const nav = { preventDefault: vi.fn() }
    win.events.get('will-navigate')!(nav, 'https://evil.example/')
    expect(nav.preventDefault).toHaveBeenCalled()
    expect(win.openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' })

    const events = new Map<string, Handler>()
    let open: Handler | undefined
    rec.appEvents.get('web-contents-created')!({}, { on: (e: string, f: Handler) => events.set(e, f), setWindowOpenHandler: (f: Handler) => (open = f) })
    for (const e of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const ev = { preventDefault: vi.fn() }
      events.get(e)!(ev)
      expect(ev.preventDefault, e).toHaveBeenCalled()
    }
    expect(open!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' })
  })

  it('denies every permission and cancels every request that is not the app’s own files', () => {
    const cb = vi.fn()
    rec.session.permission!({}, 'media', cb)
    expect(cb).toHaveBeenCalledWith(false)
    expect(rec.session.check!({}, 'clipboard-read')).toBe(false)
    const verdict = (url: string) => {
      let out: unknown
      rec.session.beforeRequest!({ url }, (r: unknown) => (out = r))
      return out
    }
    // file: only from the window's own renderer folder (issue 16), not any file on the disk.
    expect(verdict(pathToFileURL(String(win.loaded)).href)).toEqual({ cancel: false })
    expect(verdict('file:///home/someone/.ssh/id_rsa')).toEqual({ cancel: true })
    expect(verdict('data:image/png;base64,AAAA')).toEqual({ cancel: false })
    expect(verdict('https://fonts.googleapis.com/css')).toEqual({ cancel: true })
    expect(verdict('http://127.0.0.1:8080/')).toEqual({ cancel: true })
    expect(verdict('ws://example.com/')).toEqual({ cancel: true })
  })

  it('registers sepia: and shows deep links and opened files in the window as hash routes (issue 17)', () => {
    expect(rec.protocols).toEqual(['sepia'])
    const before = win.loads.length
    const ev = { preventDefault: vi.fn() }
    rec.appEvents.get('open-url')!(ev, 'sepia://session/cline/1796022183774_v75nv')
    expect(ev.preventDefault).toHaveBeenCalled()
    rec.appEvents.get('open-url')!(ev, 'sepia://session/cline/..%2F..%2Fetc') // refused: nothing loads
    rec.appEvents.get('second-instance')!({}, ['C:\\Sepia\\Sepia.exe', '--flag', 'sepia://session/codex/abc'])
    rec.appEvents.get('open-file')!(ev, '/home/ana/sepia-review.zip')
    expect(win.loads.slice(before).map((l) => l.hash)).toEqual(['/session/cline/1796022183774_v75nv', '/session/codex/abc', 'open=%2Fhome%2Fana%2Fsepia-review.zip'])
    expect(win.loads.every((l) => /[\\/]renderer[\\/]index\.html$/.test(l.path))).toBe(true)
  })

  it('registers one IPC handler per SepiaApi method and nothing else', () => {
    expect([...rec.ipc].sort()).toEqual(API_METHODS.map((m) => `sepia:${m}`).sort())
  })
})

describe('isAppUrl', () => {
  it('allows the dev server origin only when one is given', () => {
    expect(isAppUrl('http://localhost:5173/src/main.ts', 'http://localhost:5173')).toBe(true)
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false)
    expect(isAppUrl('not a url')).toBe(false)
  })
})

const built = existsSync(join(ROOT, 'out/main/index.js')) && existsSync(join(ROOT, 'out/preload/index.cjs'))
describe.skipIf(!built)('built bundles (where Electron is not present)', () => {
  it('have no remote module and a preload that exposes only window.sepia and window.sepiaFiles', () => {
    const main = readFileSync(join(ROOT, 'out/main/index.js'), 'utf8')
    const preload = readFileSync(join(ROOT, 'out/preload/index.cjs'), 'utf8')
    for (const text of [main, preload]) {
      expect(text).not.toContain('@electron/remote')
      expect(text).not.toMatch(/enableRemoteModule:\s*true/)
    }
    // window.sepia and window.sepiaFiles (one method, for drag and drop: tests/preload.test.ts).
    expect(preload.match(/exposeInMainWorld\(/g)?.length).toBeLessThanOrEqual(2)
    expect(preload).not.toMatch(/require\(["'](?:fs|child_process|node:)/)
  })
})
