/**
 * Issue 8, Search view, in a real browser on the real Claude Code and Cline fixture homes: typing
 * searches as you type, hits show their snippet with the matches marked, the role filter narrows
 * them, `/` focuses the box, and a click opens the session in the Library scrolled to that
 * message, highlighted. Also the empty and no-results states. Screenshots (light and dark) go to
 * test-results/search-*.png.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { browserSkipReason, launchChromium, ROOT, startApp } from './helpers'

const skip = browserSkipReason()
/** expect.poll with room for a busy machine (the default gives up after 1 s). */
const waitFor = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
if (skip) console.warn(`Skipping browser tests: ${skip}`)

describe.skipIf(skip !== undefined)('search view', () => {
  let server: HttpServerHandle
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const shots = join(ROOT, 'test-results')
  // A catalog of its own: the default one (~/.config/Sepia) may hold other homes from other runs.
  const dataDir = mkdtempSync(join(tmpdir(), 'sepia-e2e-search-'))

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    process.env.SEPIA_DATA_DIR = dataDir
    server = await startApp([join(ROOT, 'fixtures/real/claude-code/home'), join(ROOT, 'fixtures/real/cline/home')])
    browser = await launchChromium()
    context = await browser.newContext({ viewport: { width: 1280, height: 760 }, reducedMotion: 'reduce' })
    page = await context.newPage()
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
    await page.getByTestId('tab-search').click()
    await page.getByTestId('view-search').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    delete process.env.SEPIA_DATA_DIR
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('says what to type while the box is empty, and / focuses the box', async () => {
    await waitFor(() => page.getByTestId('search-empty').isVisible()).toBe(true)
    await page.getByTestId('tab-search').focus()
    await page.keyboard.press('/')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('search-input')
  })

  it('searches as you type and marks the matches in the snippets', async () => {
    await page.getByTestId('search-input').pressSequentially('NOTES.md', { delay: 20 })
    const hits = page.getByTestId('search-result')
    await waitFor(() => hits.count()).toBeGreaterThanOrEqual(4)
    const agents = await hits.evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-agent')))].sort())
    expect(agents).toEqual(['claude-code', 'cline'])
    const marks = await hits.first().locator('mark').allInnerTexts()
    expect(marks.length).toBeGreaterThan(0)
    for (const m of marks) expect(m.toLowerCase()).toContain('notes')
    expect(await page.getByTestId('search-status').innerText()).toMatch(/^\d+\+? results? in /)
    await page.screenshot({ path: join(shots, 'search-light.png') })
  })

  it('narrows the hits with the role filter', async () => {
    const hits = page.getByTestId('search-result')
    const before = await hits.count()
    await page.getByTestId('search-filter-role').selectOption('user')
    await waitFor(async () => (await hits.count()) < before && (await hits.count()) > 0).toBe(true)
    const roles = await hits.evaluateAll((els) => [...new Set(els.map((e) => e.querySelector('.badge')?.textContent?.trim()))])
    expect(roles).toEqual(['User'])
    await page.getByTestId('search-filter-role').selectOption('assistant')
    await waitFor(async () => (await hits.first().locator('.badge').first().innerText()).trim()).toBe('Assistant')
  })

  it('opens a hit in its session, scrolled to the message and highlighted', async () => {
    const hits = page.getByTestId('search-result')
    await waitFor(() => hits.count()).toBeGreaterThan(0)
    // The hit of a Claude Code assistant message furthest into its session.
    const all = await hits.evaluateAll((els) =>
      els.map((e, i) => ({ i, agent: e.getAttribute('data-agent'), session: e.getAttribute('data-session-id')!, node: e.getAttribute('data-node-id')! })),
    )
    const target = all.filter((h) => h.agent === 'claude-code').at(-1) ?? all[0]!
    await hits.nth(target.i).click()
    await waitFor(() => page.locator('#view-panel').getAttribute('data-view')).toBe('library')
    const row = page.locator(`[data-testid="session-view"] [data-testid="message"][data-node-id="${target.node}"]`)
    await waitFor(() => row.getAttribute('data-focused')).toBe('true')
    expect(await page.locator('[data-testid="message"][data-focused="true"]').count()).toBe(1)
    expect(await page.locator(`[data-testid="session-row"][aria-current="true"]`).getAttribute('data-session-id')).toBe(target.session)
    // In view: inside the session view's visible box.
    await waitFor(async () => {
        const box = await row.boundingBox()
        const view = await page.getByTestId('session-view').boundingBox()
        return !!box && !!view && box.y < view.y + view.height && box.y + Math.min(box.height, 40) > view.y
      })
      .toBe(true)
    await page.screenshot({ path: join(shots, 'search-opened-light.png') })
  })

  it('says plainly when nothing matches (dark theme)', async () => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.getByTestId('tab-search').click()
    await page.getByTestId('search-clear-filters').click()
    const input = page.getByTestId('search-input')
    await input.fill('zzqqxxnotaword')
    await waitFor(() => page.getByTestId('search-no-results').innerText()).toContain('No message contains “zzqqxxnotaword”')
    await input.fill('NOTES.md')
    await waitFor(() => page.getByTestId('search-result').count()).toBeGreaterThan(0)
    await page.screenshot({ path: join(shots, 'search-dark.png') })
  })

  it('while the index is still being built: progress with counts, results marked incomplete', async () => {
    // Stage an index in its search phase in front of the real API.
    const staged = await browser.newContext({ viewport: { width: 1280, height: 760 }, reducedMotion: 'reduce' })
    const index = { phase: 'search', running: true, done: 7, total: 7, bytesDone: 0, bytesTotal: 0, textDone: 40, textTotal: 80 }
    await staged.route('**/api/getChanges', (route) => route.fulfill({ json: { ok: true, value: { token: '1', changedSessions: [], removedSessions: [], index } } }))
    await staged.route('**/api/search', async (route) => {
      const res = await route.fetch()
      const body = (await res.json()) as { ok: boolean; value: { partial: boolean } }
      body.value.partial = true
      await route.fulfill({ json: body })
    })
    const p = await staged.newPage()
    await p.goto(server.url)
    await p.getByTestId('library').waitFor()
    const toolbar = p.locator('header').getByTestId('index-progress')
    await waitFor(() => toolbar.getByTestId('progress-text').innerText()).toBe('Indexing 40 / 80 messages')
    expect(await toolbar.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50')
    await p.getByTestId('tab-search').click()
    await p.getByTestId('search-input').fill('NOTES.md')
    await waitFor(() => p.getByTestId('search-status').innerText()).toContain('results may be incomplete')
    expect(await p.getByTestId('view-search').getByTestId('index-progress').isVisible()).toBe(true)
    await p.screenshot({ path: join(shots, 'search-indexing-light.png') })
    await staged.close()
  })
})
