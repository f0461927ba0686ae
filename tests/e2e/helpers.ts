/**
 * End-to-end helpers: the real API behind the loopback HTTP transport, serving the built
 * renderer, driven by Debian's Chromium through playwright-core.
 */
import { existsSync } from 'node:fs'
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

/** Start the app in browser mode on the given homes. */
export async function startApp(homes: string[]): Promise<HttpServerHandle> {
  const api = createApi(processContext({ mode: 'browser', homes, appRoot: ROOT }))
  return startHttpServer({ api, rendererDir: join(ROOT, 'out', 'renderer') })
}

/** Launch headless Chromium with the flags this closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}
