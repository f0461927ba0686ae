/**
 * End-to-end helpers: the real API behind the loopback HTTP transport, serving the built
 * renderer, driven by Debian's Chromium through playwright-core.
 */
import { existsSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { createApi } from '../../src/main/api'
import { findAppRoot } from '../../src/main/context'
import { processContext } from '../../src/main/host'
import { startHttpServer, type HttpServerHandle } from '../../src/main/transport/http'

/** The repository root. */
export const ROOT = findAppRoot()

/** Chromium to drive: $CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Why browser tests cannot run here, or undefined when they can. */
export function browserSkipReason(): string | undefined {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html'))) return 'the renderer is not built (npm test builds it; or run npx electron-vite build)'
  return undefined
}

/** Options of {@link startApp}: where the app may write, for tests that write. */
export interface StartOptions {
  /**
   * The user's own home for this app (where "Continue in…" writes by default, and the home opened
   * when `homes` is empty). Its environment is then only `HOME=<ownHome>`, so agent folders moved
   * by the running user's environment (CLAUDE_CONFIG_DIR, CLINE_DIR...) are never written into.
   */
  ownHome?: string
  /** The app's data folder (restore backups, recent folders, catalog), e.g. a temp folder. */
  appDataDir?: string
}

/** Start the app in browser mode on the given homes (none: the own home). */
export async function startApp(homes: string[], options: StartOptions = {}): Promise<HttpServerHandle> {
  const ctx = processContext({ mode: 'browser', homes, appRoot: ROOT })
  if (options.ownHome) {
    ctx.ownHome = options.ownHome
    ctx.env = { HOME: options.ownHome }
  }
  if (options.appDataDir) ctx.appDataDir = options.appDataDir
  const api = createApi(ctx)
  return startHttpServer({ api, rendererDir: join(ROOT, 'out', 'renderer') })
}

/** A new empty temp folder (its real path); remove it with `rmSync(dir, {recursive: true, force: true})`. */
export function tempFolder(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `sepia-e2e-${prefix}-`)))
}

/** Launch headless Chromium with the flags this closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}
