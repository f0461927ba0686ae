/**
 * The Electron host's PDF printer (`AppContext.printToPdf`): the HTML export is loaded from a
 * temporary file into a hidden window with JavaScript off, printed with `webContents.printToPDF`
 * (A4, backgrounds), and the window and file are removed. The page itself forbids every fetch
 * (its CSP), and the app's session cancels anything that is not a local file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The slice of Electron's BrowserWindow this needs (passed in, so this file imports no Electron). */
export interface PdfWindowClass {
  new (options: { show: boolean; webPreferences: Record<string, unknown> }): {
    loadFile(path: string): Promise<void>
    webContents: { printToPDF(options: { printBackground: boolean; pageSize: 'A4' }): Promise<Buffer> }
    destroy(): void
  }
}

/** A `printToPdf(html)` hook for {@link AppContext} built on Electron's BrowserWindow. */
export function electronPrintToPdf(BrowserWindow: PdfWindowClass): (html: string) => Promise<Uint8Array> {
  return async (html: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'sepia-pdf-'))
    const file = join(dir, 'export.html')
    const win = new BrowserWindow({ show: false, webPreferences: { javascript: false, sandbox: true, contextIsolation: true, nodeIntegration: false } })
    try {
      await writeFile(file, html)
      await win.loadFile(file)
      return new Uint8Array(await win.webContents.printToPDF({ printBackground: true, pageSize: 'A4' }))
    } finally {
      win.destroy()
      await rm(dir, { recursive: true, force: true })
    }
  }
}
