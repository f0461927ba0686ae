/**
 * Issue 10 in a real browser (browser mode): "Export…" a session as HTML and as Markdown — the
 * browser downloads the file, which holds the session's first prompt; "Collect for review" writes
 * a zip into the app's data folder with its manifest; the Open folder dialog lists the recent
 * folders and reopens one in one click. The app's own home and data folder are temp folders.
 * Screenshots: test-results/export-*.png, collect-*.png, recent-homes.png.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { seriousViolations } from './axe'
import { browserSkipReason, launchChromium, ROOT, startApp, tempFolder } from './helpers'

const skip = browserSkipReason()
if (skip) console.warn(`Skipping browser tests: ${skip}`)

/** `expect.poll` with room for the API's work: 15 s instead of 1 s. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

const CLINE_HOME = join(ROOT, 'fixtures/real/cline/home')
const CC_HOME = join(ROOT, 'fixtures/real/claude-code/home')
const SESSION = '1796022183774_v75nv'
const FIRST_PROMPT = '[tools] List the files, then create NOTES.md and mark its TODO line as done.'

describe.skipIf(skip !== undefined)('export, collect for review, recent folders', () => {
  let server: HttpServerHandle
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let own: string
  let data: string
  const shots = join(ROOT, 'test-results')

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    own = tempFolder('own')
    data = tempFolder('data')
    server = await startApp([CLINE_HOME], { ownHome: own, appDataDir: data })
    browser = await launchChromium()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', acceptDownloads: true, bypassCSP: true })
    page = await context.newPage()
    await page.goto(server.url)
    // The first read builds a new catalog in the temp data folder: slow when every test file runs at once.
    await page.locator(`[data-testid="session-row"][data-session-id="${SESSION}"]`).click({ timeout: 90_000 })
    await page.getByTestId('session-header').waitFor()
  })

  afterAll(async () => {
    try {
      await browser?.close()
      await server?.close()
    } finally {
      for (const d of [own, data]) if (d) rmSync(d, { recursive: true, force: true })
    }
  })

  async function exportAs(format: 'html' | 'md', options: { thinking?: boolean } = {}): Promise<{ name: string; text: string }> {
    await page.getByTestId('export-button').click()
    const dialog = page.getByTestId('export-dialog')
    await dialog.waitFor()
    if (options.thinking === false) await dialog.getByTestId('export-thinking').uncheck()
    await dialog.getByTestId('export-format').selectOption(format)
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('export-submit').click()])
    const file = await download.path()
    const name = download.suggestedFilename()
    await poll(() => dialog.getByTestId('export-downloaded').count()).toBe(1)
    expect(await dialog.getByTestId('export-downloaded').innerText()).toContain(name)
    return { name, text: readFileSync(file, 'utf8') }
  }

  it('downloads the HTML export, which holds the first prompt', async () => {
    const { name, text } = await exportAs('html')
    expect(name).toMatch(/\.html$/)
    expect(name).toContain(SESSION)
    expect(text).toMatch(/^<!doctype html>/i)
    expect(text).toContain(FIRST_PROMPT)
    await page.screenshot({ path: join(shots, 'export-dialog.png') })
    expect(await seriousViolations(page, '[data-testid="export-dialog"]')).toEqual([])
    await page.keyboard.press('Escape')
    await poll(() => page.getByTestId('export-dialog').isVisible()).toBe(false)
  }, 120_000)

  it('downloads the Markdown export without thinking, which holds the first prompt', async () => {
    const { name, text } = await exportAs('md', { thinking: false })
    expect(name).toMatch(/\.md$/)
    expect(text).toContain(FIRST_PROMPT)
    expect(text).toContain('run_commands')
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: join(shots, 'export-dialog-dark.png') })
    await page.emulateMedia({ colorScheme: 'light' })
    await page.keyboard.press('Escape')
  }, 120_000)

  it('collects the open home into a zip in the app data folder and shows the manifest and counts', async () => {
    await page.getByTestId('collect-for-review').click()
    const dialog = page.getByTestId('collect-dialog')
    await dialog.waitFor()
    await dialog.getByTestId('collect-where').fill(data)
    await dialog.getByTestId('collect-name').fill('review.zip')
    await dialog.getByTestId('collect-credentials').check()
    expect(await dialog.getByTestId('collect-credentials-warning').innerText()).toContain('use these accounts')
    await dialog.getByTestId('collect-credentials').uncheck()
    await page.screenshot({ path: join(shots, 'collect-dialog.png') })
    expect(await seriousViolations(page, '[data-testid="collect-dialog"]')).toEqual([])
    await dialog.getByTestId('collect-submit').click()
    await dialog.getByTestId('allow-once-button').click()
    const result = dialog.getByTestId('collect-result')
    await poll(() => result.count()).toBe(1)
    const zip = join(data, 'review.zip')
    expect(await result.getByTestId('collect-path').innerText()).toBe(zip)
    expect(existsSync(zip)).toBe(true)
    expect(await result.getByTestId('collect-manifest').innerText()).toContain('sepia-manifest.json')
    expect(await result.getByTestId('collect-counts').innerText()).toMatch(/^\d+ files, /)
    expect(await result.innerText()).toContain('Cline: ')
    await page.screenshot({ path: join(shots, 'collect-result.png') })
    await page.keyboard.press('Escape')
    await poll(() => dialog.isVisible()).toBe(false)
  }, 120_000)

  it('lists recent folders in the Open folder dialog and reopens one in one click', async () => {
    const openTyped = async (path: string): Promise<void> => {
      await page.getByTestId('open-folder').click()
      await page.getByTestId('path-input').fill(path)
      await page.getByTestId('path-submit').click()
      await poll(() => page.getByTestId('open-folder-dialog').isVisible()).toBe(false)
    }
    await openTyped(CC_HOME)
    await poll(() => page.locator('[data-testid="session-row"][data-agent="claude-code"]').count()).toBeGreaterThan(0)
    await openTyped(CLINE_HOME)
    await poll(() => page.locator('[data-testid="session-row"][data-agent="claude-code"]').count()).toBe(0)

    await page.getByTestId('open-folder').click()
    const recent = page.getByTestId('recent-home')
    await poll(() => recent.count()).toBeGreaterThanOrEqual(2)
    expect(await recent.first().getAttribute('data-path')).toBe(CLINE_HOME)
    await page.screenshot({ path: join(shots, 'recent-homes.png') })
    expect(await seriousViolations(page, '[data-testid="open-folder-dialog"]')).toEqual([])
    await page.locator(`[data-testid="recent-home"][data-path="${CC_HOME}"]`).click()
    await poll(() => page.getByTestId('open-folder-dialog').isVisible()).toBe(false)
    await poll(() => page.locator('[data-testid="session-row"][data-agent="claude-code"]').count()).toBeGreaterThan(0)
  }, 120_000)
})
