/**
 * Electron IPC transport: one `ipcMain.handle('sepia:<method>')` per SepiaApi method, each
 * answering an `ApiResult` envelope (errors as values, Podman Desktop style). No logic here.
 */
import type { IpcMain } from 'electron'
import { API_METHODS, callEnveloped, type SepiaApi } from '../../shared/api'

/** The IPC channel of a method. */
export const channelOf = (method: string): string => `sepia:${method}`

/** Register every API method on `ipcMain`. Returns a function that removes them. */
export function registerIpc(ipcMain: IpcMain, api: SepiaApi): () => void {
  for (const method of API_METHODS) {
    ipcMain.handle(channelOf(method), (_event, ...args: unknown[]) => callEnveloped(api, method, args))
  }
  return () => {
    for (const method of API_METHODS) ipcMain.removeHandler(channelOf(method))
  }
}
