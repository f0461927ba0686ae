/**
 * Preload: `window.sepia` (one function per SepiaApi method, each resolving an ApiResult envelope)
 * and `window.sepiaFiles.pathForFile` (a dropped item's path, `webUtils.getPathForFile`); see
 * expose.ts. Nothing else is exposed: no raw ipcRenderer. Runs sandboxed (contextIsolation on,
 * sandbox on), so it may import only `electron` (the bundle inlines expose.ts and shared/api).
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron'
import { exposeSepia } from './expose'

exposeSepia({ contextBridge, ipcRenderer, webUtils })
