/**
 * PDF export (issue "Exports": "PDF (Electron's printToPDF; in browser mode, the CLI drives a
 * local Chromium if one is installed, else says it needs one)").
 *
 * The PDF is the HTML export (`html.ts`, every `<details>` open) printed by a browser engine:
 * - in Electron, by the host's `printToPdf(html)` hook (`AppContext.printToPdf`, webContents'
 *   `printToPDF` in a hidden window);
 * - elsewhere, by a local Chromium or Chrome driven through playwright-core, found at
 *   `$CHROMIUM_PATH`, else the usual install paths of this OS ({@link chromiumCandidates}).
 *   Every network request of the page is refused; the page has no script anyway.
 * When neither exists the export fails with a SepiaError `UNAVAILABLE` saying what to install.
 */
import { existsSync } from 'node:fs'
import { SepiaError } from '../../shared/api'
import type { HomeOs } from '../../shared/ir'

/** Something that turns an HTML document into PDF bytes. `close` frees the browser, if any. */
export interface PdfPrinter {
  print(html: string): Promise<Uint8Array>
  close(): Promise<void>
}

/**
 * Paths where a Chromium-family browser is usually installed, in the order tried (after
 * `$CHROMIUM_PATH`): Debian/Ubuntu/Fedora/snap Chromium and Google Chrome on Linux, the app
 * bundles on macOS, Chrome/Chromium/Edge under Program Files and `%LOCALAPPDATA%` on Windows.
 */
export function chromiumCandidates(os: HomeOs, env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = []
  if (env.CHROMIUM_PATH) out.push(env.CHROMIUM_PATH)
  if (os === 'linux') {
    out.push('/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/opt/google/chrome/chrome')
  } else if (os === 'darwin') {
    out.push('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge')
  } else {
    const roots = [env.PROGRAMFILES ?? 'C:\\Program Files', env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)', env.LOCALAPPDATA].filter((r): r is string => !!r)
    for (const r of roots) out.push(`${r}\\Google\\Chrome\\Application\\chrome.exe`, `${r}\\Chromium\\Application\\chrome.exe`, `${r}\\Microsoft\\Edge\\Application\\msedge.exe`)
  }
  return out
}

/** The first existing candidate, or undefined. */
export function findChromium(os: HomeOs, env: Readonly<Record<string, string | undefined>>, exists: (p: string) => boolean = existsSync): string | undefined {
  return chromiumCandidates(os, env).find((p) => exists(p))
}

/** The error when no engine can print. Plain words: what is missing and what to do. */
export function needsChromiumError(): SepiaError {
  return new SepiaError({
    code: 'UNAVAILABLE',
    message:
      'PDF export needs Chromium or Google Chrome, and none was found. Install one (for example "apt-get install chromium") or set CHROMIUM_PATH to its program file, then export again. The HTML export opens in any browser and prints to PDF from there.',
  })
}

/** Options for {@link openPdfPrinter}. */
export interface PdfPrinterOptions {
  /** The host's printer (Electron); used when present. */
  printToPdf?: (html: string) => Promise<Uint8Array>
  os: HomeOs
  env: Readonly<Record<string, string | undefined>>
}

/**
 * A printer for a batch of exports: the host's hook, else one headless Chromium kept open until
 * `close()`. Rejects with `UNAVAILABLE` when there is neither.
 */
export async function openPdfPrinter(options: PdfPrinterOptions): Promise<PdfPrinter> {
  if (options.printToPdf) {
    const hook = options.printToPdf
    return { print: (html) => hook(html), close: async () => undefined }
  }
  const executablePath = findChromium(options.os, options.env)
  if (!executablePath) throw needsChromiumError()
  let chromium: PlaywrightChromium
  try {
    // Not bundled into the app: resolved at run time from node_modules (the CLI and tests).
    const name = 'playwright-core'
    chromium = ((await import(/* @vite-ignore */ name)) as { chromium: PlaywrightChromium }).chromium
  } catch {
    throw needsChromiumError()
  }
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-extensions'],
  })
  return {
    async print(html: string): Promise<Uint8Array> {
      const page = await browser.newPage({ javaScriptEnabled: false, offline: true })
      try {
        await page.route('**/*', (route) => route.abort())
        await page.setContent(html, { waitUntil: 'load' })
        return await page.pdf({ format: 'A4', printBackground: true, margin: { top: '14mm', bottom: '14mm', left: '12mm', right: '12mm' } })
      } finally {
        await page.close()
      }
    },
    close: () => browser.close(),
  }
}

/** The slice of playwright-core's `chromium` used here (typed locally: the import is dynamic). */
interface PlaywrightChromium {
  launch(o: { executablePath: string; headless: boolean; args: string[] }): Promise<{
    newPage(o: { javaScriptEnabled: boolean; offline: boolean }): Promise<{
      route(url: string, handler: (route: { abort(): Promise<void> }) => unknown): Promise<void>
      setContent(html: string, o: { waitUntil: 'load' }): Promise<void>
      pdf(o: { format: string; printBackground: boolean; margin: Record<string, string> }): Promise<Uint8Array>
      close(): Promise<void>
    }>
    close(): Promise<void>
  }>
}
