/**
 * A folder dropped right after a dialog was closed with Esc is taken (browser mode: the notice
 * says to use Open folder). The app takes no drop while a dialog is open; the native `<dialog>`
 * fires `close` a task after Esc closed it, and the app used to count the dialog open until then,
 * so a drop in between was ignored (3 of 10 in a probe; the a11y e2e's first drop in 3 runs).
 * Waits on conditions only.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { ROOT, browserSkipReason, launchChromium, startApp } from './helpers'

const skip = browserSkipReason()

describe.skipIf(skip !== undefined)('a drop right after a dialog closed', { timeout: 120_000 }, () => {
  let server: HttpServerHandle
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    server = await startApp([join(ROOT, 'fixtures/real/claude-code/home')])
    browser = await launchChromium()
    page = await browser.newPage()
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('is taken every time, the first call after Esc', async () => {
    let ignored = 0
    for (let i = 0; i < 8; i++) {
      await page.getByTestId('about-button').click()
      await page.getByTestId('about-dialog').waitFor()
      await page.keyboard.press('Escape')
      const taken = await page.evaluate(() => {
        const dt = new DataTransfer()
        dt.items.add(new File(['x'], 'home'))
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
        // Vue renders the notice in a microtask; a timer runs after it.
        return new Promise<boolean>((resolve) => setTimeout(() => resolve(!!document.querySelector('[data-testid="notice"]')), 0))
      })
      if (!taken) ignored++
      else await page.getByTestId('notice').getByRole('button', { name: 'Dismiss' }).click()
      await expect.poll(() => page.getByTestId('notice').count()).toBe(0)
    }
    expect(ignored).toBe(0)
  })
})
