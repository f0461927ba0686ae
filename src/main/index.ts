/**
 * Electron entry. Only wiring: the window with locked-down preferences, the IPC transport, the
 * folder dialog, and what the OS asks the app to open (deep links `sepia://session/<agent>/<id>`
 * and associated files: one instance, links and files forwarded to src/main/deep-links.ts). All
 * logic lives in modules testable with plain Node.
 */
import { app, BrowserWindow, dialog, ipcMain, session } from 'electron'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createApi } from './api'
import { homesFromArgv, processContext } from './host'
import { registerIpc } from './transport/ipc'
import { electronPrintToPdf } from './export/electron-pdf'
import { hardenApp, hardenSession } from './window-security'
import { electronUpdates } from './updates'
import { LaunchRouter, targetFromArgv, targetFromUrl } from './deep-links'
import { DEEP_LINK_SCHEME } from '../shared/deep-link'

const here = dirname(fileURLToPath(import.meta.url))

/** The BrowserWindow preferences Sepia requires (tested where Electron exists). */
export const WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webviewTag: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  spellcheck: false,
} as const

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: 'Sepia',
    show: false,
    autoHideMenuBar: true,
    webPreferences: { ...WEB_PREFERENCES, preload: join(here, '../preload/index.cjs') },
  })
  win.once('ready-to-show', () => win.show())
  // No navigation away from the app, no new windows; links open nothing remote.
  win.webContents.on('will-navigate', (event) => event.preventDefault())
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
  const page = join(here, '../renderer/index.html')
  // A deep link or an opened file becomes the page's hash route (read by src/renderer/src/deep-link.ts).
  const hash = launches.attach((h) => {
    void win.loadFile(page, { hash: h })
    if (win.isMinimized()) win.restore()
    win.focus()
  })
  win.on('closed', () => launches.detach())
  void win.loadFile(page, hash ? { hash } : undefined)
  return win
}

// One instance: a deep link or a file opened while Sepia runs reaches the running window
// (Windows and Linux pass it on the second instance's command line; macOS sends open-url/open-file).
const launches = new LaunchRouter()
const primary = app.requestSingleInstanceLock()
if (!primary) app.quit()
let ready = false
function deliver(target: ReturnType<typeof targetFromUrl>): void {
  launches.receive(target)
  // macOS keeps running with no window: a link then opens one.
  if (ready && launches.waiting && BrowserWindow.getAllWindows().length === 0) createWindow()
}
app.on('second-instance', (_event, argv: string[]) => deliver(targetFromArgv(argv)))
app.on('open-url', (event, url: string) => {
  event.preventDefault()
  deliver(targetFromUrl(url))
})
app.on('open-file', (event, path: string) => {
  event.preventDefault()
  deliver(targetFromArgv(['sepia', path]))
})
launches.receive(targetFromArgv(process.argv))
// Register sepia: with the OS (in development, Electron needs the app's path to start it again).
if (process.defaultApp && process.argv[1]) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [resolve(process.argv[1])])
else app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME)

// Every web contents refuses navigation, redirects, <webview> and new windows (window-security.ts).
hardenApp(app)

void app.whenReady().then(() => {
  if (!primary) return
  // Permissions denied; every request that is not the app's own files is cancelled (no network).
  // file: URLs only from the renderer folder and the PDF export's temp page (issue 16).
  const appFiles = [join(here, '../renderer'), tmpdir()]
  hardenSession(session.defaultSession, undefined, appFiles)
  const context = processContext({
    mode: 'electron',
    homes: homesFromArgv(process.argv),
    appRoot: app.isPackaged ? process.resourcesPath : join(here, '..', '..'),
    pickFolder: async () => {
      const res = await dialog.showOpenDialog({ properties: ['openDirectory'], title: 'Open a home folder' })
      return res.canceled || res.filePaths.length === 0 ? null : res.filePaths[0]!
    },
    printToPdf: electronPrintToPdf(BrowserWindow),
  })
  // Updates: off unless the user turned them on in Settings (src/main/updates.ts).
  context.startUpdates = electronUpdates(app.isPackaged)
  const api = createApi(context)
  void api.startUpdatesIfOn()
  // Writes a killed Sepia left unfinished are finished or cleaned at start (issue 16; shown in the health report).
  void api.recoverWrites()
  registerIpc(ipcMain, api, { appRoot: join(here, '../renderer') }) // only the app's window may call
  ready = true
  createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
  // The catalog is closed as the app quits, so its write-ahead log is folded into the file.
  app.on('will-quit', () => api.library.closeNow())
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})
