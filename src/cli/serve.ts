/**
 * `sepia serve`: the app in a browser, over the loopback transport. Also the browser-mode fallback
 * of `npm start` when Electron's binary is missing.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { SepiaError, type SepiaApi } from '../shared/api'
import { findAppRoot } from '../main/context'
import { startHttpServer } from '../main/transport/http'
import { plural } from '../shared/plural'

/** Options for {@link runServe}. */
export interface ServeOptions {
  port: number
  /** Open the demo library instead of the user's history. */
  demo: boolean
  /**
   * Run when the server stops (Ctrl+C, SIGTERM), before the process exits: closes the catalog, so
   * SQLite folds its write-ahead log into the database file instead of leaving it beside it.
   */
  onStop?: () => void
}

/**
 * Start the server and keep the process alive until it is interrupted. Resolves -1 (keep running)
 * once listening; prints the URL (with its token) on stdout.
 */
export async function runServe(api: SepiaApi, options: ServeOptions, out: NodeJS.WritableStream): Promise<number> {
  const rendererDir = join(findAppRoot(), 'out', 'renderer')
  if (!existsSync(join(rendererDir, 'index.html'))) {
    out.write('The app is not built yet. Run "npx electron-vite build" first (npm start does it for you).\n')
    return 1
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new SepiaError({ code: 'BAD_ARGUMENT', message: `--port takes a whole number from 0 to 65535 (0 picks a free port), not "${options.port}".` })
  }
  if (options.demo) await api.openDemo()
  // Read the library first: a missing folder fails here, before a server keeps the process alive.
  const lib = await api.getLibrary()
  let handle
  try {
    handle = await startHttpServer({ api, rendererDir, port: options.port })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new SepiaError({ code: 'BAD_ARGUMENT', message: `Port ${options.port} is already in use by another program. Choose another with --port, or leave it out to pick a free one.` })
    }
    throw e
  }
  const stop = () => {
    void handle.close().then(() => {
      try {
        options.onStop?.()
      } catch {
        // exiting anyway: SQLite recovers the log on the next open
      }
      process.exit(0)
    })
  }
  // Listening for the stop signals before saying it serves: a signal sent on that line stops it cleanly.
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  const where = lib.homes.map((h) => h.path).join(', ')
  out.write(`Sepia is serving ${plural(lib.sessions.length, 'session')} from ${lib.homes.some((h) => h.isDemo) ? 'the demo library' : where}\n`)
  out.write(`Open ${handle.url}\n(Press Ctrl+C to stop.)\n`)
  return -1
}
