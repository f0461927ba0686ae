/**
 * Issue 17, deep links in browser mode: `#/session/<agent>/<id>` (the page route a
 * `sepia://session/<agent>/<id>` link becomes) opens that session, on the first URL next to the
 * token and on a later hash change; a bad link opens nothing, and a session not in the open
 * folders gets a notice. The route leaves the address once handled; the token stays working.
 */
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { browserSkipReason, launchChromium, ROOT, startApp, tempFolder } from './helpers'

const skip = browserSkipReason()
if (skip) console.warn(`Skipping browser tests: ${skip}`)

describe.skipIf(skip !== undefined)('deep links in browser mode', { timeout: 120_000 }, () => {
  let server: HttpServerHandle
  let browser: Browser
  let page: Page
  const headerTitle = () => page.getByTestId('session-header').innerText()

  beforeAll(async () => {
    server = await startApp([join(ROOT, 'fixtures/real/cline/home')], { ownHome: tempFolder('deeplink-own'), appDataDir: tempFolder('deeplink-data') })
    browser = await launchChromium()
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('opens the session named on the first URL, next to the token', async () => {
    await page.goto(`${server.url}&/session/cline/1796022183774_v75nv`)
    await page.getByTestId('session-header').waitFor()
    expect(await page.locator('#view-panel').getAttribute('data-view')).toBe('library')
    // The route and the token left the address.
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('')
  })

  it('follows a later hash change, ignores a bad link, and says when a session is not there', async () => {
    const first = await headerTitle()
    await page.evaluate(() => (location.hash = '#/session/cline/1796022179495_agv8g'))
    await expect.poll(headerTitle, { timeout: 30_000 }).not.toBe(first)
    const second = await headerTitle()
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('')
    for (const bad of ['#/session/cline/..', '#/session/cline/%2e%2e', '#/session/evil/abc', '#/session/cline/a/b']) {
      await page.evaluate((h) => (location.hash = h), bad)
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('')
    }
    expect(await headerTitle()).toBe(second)
    await expect(page.getByTestId('notice').count()).resolves.toBe(0)
    await page.evaluate(() => (location.hash = '#/session/cline/1700000000000_nope0'))
    await page.getByTestId('notice').waitFor()
    expect(await page.getByTestId('notice').innerText()).toContain('1700000000000_nope0')
    expect(await headerTitle()).toBe(second)
    // The API still answers (the token was kept when the route was removed).
    await page.evaluate(() => (location.hash = '#/session/cline/1796022183774_v75nv'))
    await expect.poll(headerTitle, { timeout: 30_000 }).toBe(first)
  })
})
