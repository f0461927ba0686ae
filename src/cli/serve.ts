/**
 * `sepia serve`: the app in a browser, over the loopback transport. Also the browser-mode fallback
 * of `npm start` when Electron's binary is missing.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { SepiaService } from '../main/api'
import { findAppRoot } from '../main/context'
import { startHttpServer } from '../main/transport/http'

/** Options for {@link runServe}. */
export interface ServeOptions {
  port: number
  /** Open the demo library instead of the user's history. */
  demo: boolean
}

/**
 * Start the server and keep the process alive until it is interrupted. Resolves -1 (keep running)
 * once listening; prints the URL (with its token) on stdout.
 */
export async function runServe(api: SepiaService, options: ServeOptions, out: NodeJS.WritableStream): Promise<number> {
  const rendererDir = join(findAppRoot(), 'out', 'renderer')
  if (!existsSync(join(rendererDir, 'index.html'))) {
    out.write('The app is not built yet. Run "npx electron-vite build" first (npm start does it for you).\n')
    return 1
  }
  if (options.demo) await api.openDemo()
  const handle = await startHttpServer({ api, rendererDir, port: options.port })
  const lib = await api.getLibrary()
  const where = lib.homes.map((h) => h.path).join(', ')
  out.write(`Sepia is serving ${lib.sessions.length} session(s) from ${lib.homes.some((h) => h.isDemo) ? 'the demo library' : where}\n`)
  out.write(`Open ${handle.url}\n`)
  const stop = () => {
    void handle.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return -1
}
