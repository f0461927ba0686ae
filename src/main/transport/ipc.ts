/**
 * Electron IPC transport: one `ipcMain.handle('sepia:<method>')` per SepiaApi method, each
 * answering an `ApiResult` envelope (errors as values, Podman Desktop style). No logic here but
 * the bridge's two checks (Electron security checklist, issue 16): the sender must be a frame of
 * the app itself ({@link isAppUrl}: its own `file:` renderer or the dev server), and the
 * arguments must have the shapes of the shared types (validate.ts).
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron'
import { API_METHODS, callEnveloped, type ApiResult, type SepiaApi } from '../../shared/api'
import { isAppUrl, type AppUrlOptions } from '../window-security'
import { checkArgs } from './validate'

/** The IPC channel of a method. */
export const channelOf = (method: string): string => `sepia:${method}`

/** True when the IPC message comes from a frame showing the app (not a stray or remote frame). */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, urls: AppUrlOptions = {}): boolean {
  const url = event.senderFrame?.url
  return typeof url === 'string' && url !== '' && isAppUrl(url, urls.devServerUrl, urls.appRoot) && !url.startsWith('data:') && !url.startsWith('blob:')
}

/** Register every API method on `ipcMain`. Returns a function that removes them. */
export function registerIpc(ipcMain: IpcMain, api: SepiaApi, urls: AppUrlOptions = {}): () => void {
  for (const method of API_METHODS) {
    ipcMain.handle(channelOf(method), async (event, ...args: unknown[]): Promise<ApiResult<unknown>> => {
      if (!isTrustedSender(event, urls)) return { ok: false, error: { code: 'UNAUTHORIZED', message: 'This request did not come from the Sepia window.' } }
      const bad = checkArgs(method, args)
      if (bad) return { ok: false, error: bad }
      return callEnveloped(api, method, args)
    })
  }
  return () => {
    for (const method of API_METHODS) ipcMain.removeHandler(channelOf(method))
  }
}
