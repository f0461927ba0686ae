/**
 * What the preload puts on the page, as a function of the three `electron` parts it uses, so a
 * test can run it with fakes (Electron's binary is not needed):
 * - `window.sepia`: one function per SepiaApi method, each `ipcRenderer.invoke('sepia:<method>')`
 *   resolving an ApiResult envelope (src/shared/api.ts EnvelopeApi). No raw ipcRenderer.
 * - `window.sepiaFiles.pathForFile(file)`: the one narrow extra, the path on disk of a file or
 *   folder dropped on the window (`webUtils.getPathForFile`, Electron 32+; a sandboxed page has
 *   no `File.path`). The renderer's drop handler (src/renderer/src/drop.ts, through
 *   `droppedPath` in bridge.ts) opens it like a picked folder; main still checks it.
 */
import { API_METHODS } from '../shared/api'

/** The parts of `electron` the preload uses (their real types are wider). */
export interface PreloadElectron {
  contextBridge: { exposeInMainWorld(key: string, api: unknown): void }
  ipcRenderer: { invoke(channel: string, ...args: unknown[]): Promise<unknown> }
  webUtils: { getPathForFile(file: never): string }
}

/** Expose `window.sepia` and `window.sepiaFiles` (see the module comment). */
export function exposeSepia({ contextBridge, ipcRenderer, webUtils }: PreloadElectron): void {
  const sepia: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const method of API_METHODS) {
    sepia[method] = (...args: unknown[]) => ipcRenderer.invoke(`sepia:${method}`, ...args)
  }
  contextBridge.exposeInMainWorld('sepia', Object.freeze(sepia))
  contextBridge.exposeInMainWorld('sepiaFiles', Object.freeze({ pathForFile: (file: unknown) => webUtils.getPathForFile(file as never) }))
}
