/**
 * Issue 17 "Languages" in a real browser: the UI language follows the browser's languages
 * (`navigator.languages`), and the choice in Settings switches it live (no reload) to Japanese,
 * with `<html lang="ja">`, keeps it across a reload, and switches back to English; axe finds
 * nothing in the Japanese screens.
 * Screenshots go to test-results/language-*.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { violations } from './axe'
import { browserSkipReason, launchChromium, ROOT, startApp } from './helpers'

const skip = browserSkipReason()
if (skip) console.warn(`Skipping browser tests: ${skip}`)

describe.skipIf(skip !== undefined)('UI language', { timeout: 120_000 }, () => {
  let server: HttpServerHandle
  let browser: Browser
  const shots = join(ROOT, 'test-results')

  const htmlLang = (page: Page): Promise<string | null> => page.locator('html').getAttribute('lang')
  const tab = (page: Page, id: string): Promise<string> => page.getByTestId(`tab-${id}`).innerText()

  /**
   * A fresh page whose browser prefers `locale`, with the library shown. The page's CSP stays in
   * force (vue-i18n compiles messages without eval) except with `bypassCSP`, which axe needs.
   */
  async function open(locale: string, bypassCSP = false): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale, reducedMotion: 'reduce', bypassCSP })
    const page = await context.newPage()
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
    return page
  }

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    server = await startApp([join(ROOT, 'fixtures/real/claude-code/home')])
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('switches to Japanese in Settings without a reload, keeps it, and switches back to English', async () => {
    const page = await open('en-US')
    expect(await htmlLang(page)).toBe('en')
    expect(await tab(page, 'settings')).toBe('Settings')
    await page.evaluate(() => ((window as unknown as { sepiaSameDocument: boolean }).sepiaSameDocument = true))

    await page.getByTestId('tab-settings').click()
    const select = page.getByTestId('language-select')
    await select.waitFor()
    expect(await page.getByTestId('language-picker').locator('label > span').innerText()).toBe('Language')
    await select.selectOption('ja')

    await expect.poll(() => htmlLang(page)).toBe('ja')
    await expect.poll(() => tab(page, 'settings')).toBe('設定')
    expect(await tab(page, 'library')).toBe('ライブラリ')
    expect(await tab(page, 'search')).toBe('検索')
    expect(await page.getByTestId('language-picker').locator('label > span').innerText()).toBe('表示言語')
    expect(await page.getByTestId('open-folder').innerText()).toContain('フォルダーを開く')
    // Live: the same document, not a reload.
    expect(await page.evaluate(() => (window as unknown as { sepiaSameDocument?: boolean }).sepiaSameDocument)).toBe(true)
    await page.screenshot({ path: join(shots, 'language-ja-settings.png') })

    // Kept across a reload.
    await page.reload()
    await page.getByTestId('view-settings').waitFor() // the view shown is kept across a reload too
    expect(await htmlLang(page)).toBe('ja')
    expect(await tab(page, 'settings')).toBe('設定')

    // Back to English: "Same as this computer (English)" in a browser that prefers en-US.
    await page.getByTestId('language-select').selectOption('system')
    await expect.poll(() => htmlLang(page)).toBe('en')
    await expect.poll(() => tab(page, 'settings')).toBe('Settings')
    expect(await page.getByTestId('language-select').locator('option[value="system"]').innerText()).toBe('Same as this computer (English)')
    await page.context().close()
  })

  it('follows the browser language when nothing is chosen', async () => {
    const page = await open('ja-JP')
    expect(await htmlLang(page)).toBe('ja')
    expect(await tab(page, 'library')).toBe('ライブラリ')
    await page.screenshot({ path: join(shots, 'language-ja-library.png') })
    await page.context().close()
  })

  it('has no accessibility violation in Japanese (library and Settings)', async () => {
    const page = await open('ja-JP', true)
    expect(await violations(page)).toEqual([])
    await page.getByTestId('tab-settings').click()
    await page.getByTestId('language-select').waitFor()
    expect(await violations(page)).toEqual([])
    await page.context().close()
  })
})
