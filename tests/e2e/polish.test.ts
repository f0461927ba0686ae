/**
 * Issue 10 "Polish", in a real browser: a long library read shows its progress and can be cut
 * short ("Show what is read so far"), the background reading then shows a progress bar in the toolbar and the
 * list is read again when it ends; a folder dropped on the window is opened when the desktop
 * preload tells its path. The slow read and the index progress are staged with Playwright routes
 * in front of the real API. Screenshots go to test-results/polish-*.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page, Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IndexStatus } from '../../src/shared/catalog'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { seriousViolations } from './axe'
import { browserSkipReason, launchChromium, ROOT, startApp } from './helpers'

const skip = browserSkipReason()
if (skip) console.warn(`Skipping browser tests: ${skip}`)

const status = (over: Partial<IndexStatus>): IndexStatus => ({
  phase: 'read',
  running: true,
  done: 3,
  total: 12,
  bytesDone: 0,
  bytesTotal: 0,
  textDone: 0,
  textTotal: 0,
  ...over,
})

describe.skipIf(skip !== undefined)('long reads and drag and drop', () => {
  let server: HttpServerHandle
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const shots = join(ROOT, 'test-results')
  /** What the staged `getIndexStatus` answers. */
  let index = status({})
  /** Calls of getLibrary seen, by their options. */
  const libraryCalls: string[] = []
  let releaseSlowRead: (() => void) | undefined

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    server = await startApp([join(ROOT, 'fixtures/real/claude-code/home')])
    browser = await launchChromium()
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true, reducedMotion: 'reduce' })
    await context.route('**/api/getIndexStatus', (route) => route.fulfill({ json: { ok: true, value: index } }))
    await context.route('**/api/getLibrary', async (route: Route) => {
      const args = (route.request().postDataJSON() as { args: [{ partial?: boolean }?] }).args
      const partial = args[0]?.partial === true
      libraryCalls.push(partial ? 'partial' : JSON.stringify(args[0] ?? {}))
      if (libraryCalls.length === 1) {
        // The first read is slow: it never answers before the user stops waiting.
        await new Promise<void>((resolve) => (releaseSlowRead = resolve))
        return route.abort().catch(() => undefined)
      }
      const res = await route.fetch()
      const body = (await res.json()) as { ok: boolean; value?: { index?: IndexStatus } }
      if (partial && body.value) body.value.index = status({})
      return route.fulfill({ response: res, json: body })
    })
    page = await context.newPage()
  })

  afterAll(async () => {
    releaseSlowRead?.()
    await browser?.close()
    await server?.close()
  })

  it('shows how far a slow read got, and can stop waiting for it', async () => {
    await page.goto(server.url)
    const loading = page.getByTestId('loading-state')
    await loading.waitFor()
    await expect.poll(() => loading.getByTestId('progress-text').innerText()).toBe('3 of 12 sessions read')
    expect(await loading.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25')
    await page.screenshot({ path: join(shots, 'polish-loading.png') })
    expect(await seriousViolations(page)).toEqual([])

    await page.getByTestId('stop-waiting').click()
    await page.getByTestId('library').waitFor()
    expect(libraryCalls).toEqual(['{}', 'partial'])
    await expect.poll(() => page.getByTestId('session-row').count()).toBeGreaterThanOrEqual(5)
    // The reading goes on in the background: the toolbar shows how far it got.
    const background = page.locator('header [data-testid="index-progress"]')
    await background.waitFor()
    index = status({ phase: 'search', done: 12, textDone: 40, textTotal: 80 })
    await expect.poll(() => background.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50')
    expect(await background.getByTestId('progress-text').innerText()).toMatch(/40\D+80 messages/)
    await page.screenshot({ path: join(shots, 'polish-background.png') })
    expect(await seriousViolations(page)).toEqual([])
  })

  it('reads the library again once the background reading has ended', async () => {
    index = status({ phase: 'idle', running: false, done: 12 })
    await expect.poll(() => page.locator('header [data-testid="index-progress"]').count()).toBe(0)
    await expect.poll(() => libraryCalls.length).toBeGreaterThanOrEqual(3)
    expect(libraryCalls[2]).toBe('{}')
  })

  it('opens a folder dropped on the window when the desktop preload tells its path', async () => {
    const gemini = join(ROOT, 'fixtures/real/gemini/home')
    await page.evaluate((path) => {
      ;(window as unknown as { sepiaFiles: { pathForFile(f: File): string } }).sepiaFiles = { pathForFile: () => path }
      const dt = new DataTransfer()
      dt.items.add(new File([''], 'home'))
      window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }))
    }, gemini)
    await page.getByTestId('drop-overlay').waitFor()
    await page.screenshot({ path: join(shots, 'polish-drop-overlay.png') })
    await page.evaluate(() => {
      const dt = new DataTransfer()
      dt.items.add(new File([''], 'home'))
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
    })
    await expect.poll(() => page.getByTestId('drop-overlay').count()).toBe(0)
    await expect.poll(() => page.locator('[data-testid="session-row"][data-agent="gemini"]').count()).toBeGreaterThan(0)
    expect(await page.locator('[data-testid="session-row"][data-agent="claude-code"]').count()).toBe(0)
    expect(await page.getByTestId('homes').innerText()).toContain(gemini)
  })
})
