/**
 * Issue "Sepia, first light": the app in browser mode on fixture homes; open one Claude Code and
 * one Cline session; the first prompt and a tool result are on screen. Saves screenshots under
 * test-results/.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { browserSkipReason, launchChromium, ROOT, startApp } from './helpers'

const skip = browserSkipReason()
if (skip) console.warn(`Skipping browser tests: ${skip}`)

describe.skipIf(skip !== undefined)('browser mode on real fixture homes', () => {
  let server: HttpServerHandle
  let browser: Browser
  let page: Page
  const shots = join(ROOT, 'test-results')

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    server = await startApp([join(ROOT, 'fixtures/real/claude-code/home'), join(ROOT, 'fixtures/real/cline/home')])
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('lists both agents with their sessions', async () => {
    await expect.poll(() => page.getByTestId('session-row').count()).toBeGreaterThanOrEqual(9)
    expect(await page.locator('[data-testid="session-row"][data-agent="claude-code"]').count()).toBeGreaterThanOrEqual(5)
    expect(await page.locator('[data-testid="session-row"][data-agent="cline"]').count()).toBeGreaterThanOrEqual(4)
  })

  it('opens a Claude Code session: first prompt and a tool result are shown', async () => {
    await page.locator('[data-testid="session-row"][data-session-id="c79310a4-1627-4beb-8788-81d2e0fc6af8"]').click()
    const view = page.getByTestId('session-view')
    await expect.poll(() => view.getByText('[tools] List the files, then create NOTES.md').first().isVisible()).toBe(true)
    const bash = view.locator('[data-testid="tool-call"][data-tool-name="Bash"]').first()
    await bash.scrollIntoViewIfNeeded()
    await bash.click()
    await expect.poll(() => bash.getByTestId('tool-result').first().innerText()).toContain('Makefile')
    await page.screenshot({ path: join(shots, 'first-light-claude-code.png') })
  })

  it('opens a Cline session: first prompt and a tool result are shown', async () => {
    await page.locator('[data-testid="session-row"][data-session-id="1796022183774_v75nv"]').click()
    const view = page.getByTestId('session-view')
    await expect.poll(() => view.getByText('[tools] List the files, then create NOTES.md').first().isVisible()).toBe(true)
    const run = view.locator('[data-testid="tool-call"][data-tool-name="run_commands"]').first()
    await run.scrollIntoViewIfNeeded()
    await run.click()
    await expect.poll(() => run.getByTestId('tool-result').first().innerText()).toContain('Makefile')
    await page.screenshot({ path: join(shots, 'first-light-cline.png') })
  })
})
