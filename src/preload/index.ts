/**
 * Preload: puts one function per SepiaApi method on `window.sepia`, each resolving an ApiResult
 * envelope (see src/shared/api.ts EnvelopeApi). Nothing else is exposed: no raw ipcRenderer.
 * Runs sandboxed (contextIsolation on, sandbox on), so it may import only `electron`.
 */
import { contextBridge, ipcRenderer } from 'electron'
import { API_METHODS } from '../shared/api'

const sepia: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
for (const method of API_METHODS) {
  sepia[method] = (...args: unknown[]) => ipcRenderer.invoke(`sepia:${method}`, ...args)
}
contextBridge.exposeInMainWorld('sepia', Object.freeze(sepia))
