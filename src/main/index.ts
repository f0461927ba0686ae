/**
 * Electron entry. Only wiring: the window with locked-down preferences, the IPC transport and the
 * folder dialog. All logic lives in modules testable with plain Node.
 */
import { app, BrowserWindow, dialog, ipcMain, session } from 'electron'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createApi } from './api'
import { homesFromArgv, processContext } from './host'
import { registerIpc } from './transport/ipc'
import { electronPrintToPdf } from './export/electron-pdf'
import { hardenApp, hardenSession } from './window-security'

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
  void win.loadFile(join(here, '../renderer/index.html'))
  return win
}

// Every web contents refuses navigation, redirects, <webview> and new windows (window-security.ts).
hardenApp(app)

void app.whenReady().then(() => {
  // Permissions denied; every request that is not the app's own files is cancelled (no network).
  // file: URLs only from the renderer folder and the PDF export's temp page (issue 16).
  const appFiles = [join(here, '../renderer'), tmpdir()]
  hardenSession(session.defaultSession, undefined, appFiles)
  const api = createApi(
    processContext({
      mode: 'electron',
      homes: homesFromArgv(process.argv),
      appRoot: app.isPackaged ? process.resourcesPath : join(here, '..', '..'),
      pickFolder: async () => {
        const res = await dialog.showOpenDialog({ properties: ['openDirectory'], title: 'Open a home folder' })
        return res.canceled || res.filePaths.length === 0 ? null : res.filePaths[0]!
      },
      printToPdf: electronPrintToPdf(BrowserWindow),
    }),
  )
  // Writes a killed Sepia left unfinished are finished or cleaned at start (issue 16; shown in the health report).
  void api.recoverWrites()
  registerIpc(ipcMain, api, { appRoot: join(here, '../renderer') }) // only the app's window may call
  createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})
