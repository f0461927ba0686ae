/**
 * Issues 10 and 17: an axe-core accessibility check on every view and dialog (library with a
 * session open, the session action dialogs — convert, checkpoints, export, collect —, search,
 * usage, timeline, settings, the health dialog, palette, About, open folder, empty library), in the
 * light and the dark theme, finds no violation of any impact (contrast, names, roles, landmarks
 * such as `region`, one `<h1>` per screen via `page-has-heading-one`).
 * The app runs in browser mode on the real Claude Code and Cline fixture homes; axe is injected
 * from node_modules (no network). Screenshots of every state go to test-results/a11y-*.png.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { violations } from './axe'
import { browserSkipReason, launchChromium, ROOT, startApp, tempFolder } from './helpers'

const skip = browserSkipReason()
if (skip) console.warn(`Skipping browser tests: ${skip}`)

const shots = join(ROOT, 'test-results')
const SESSION = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'

// Each check waits on conditions (views settling, axe finding none); at load ~25 on 2 cores they
// take longer than the default 30 s (issue 17: load-proof e2e).
describe.skipIf(skip !== undefined).each(['light', 'dark'] as const)('accessibility in the %s theme', { timeout: 150_000 }, (scheme) => {
  let server: HttpServerHandle
  let browser: Browser
  let page: Page

  /**
   * Screenshot the state and assert axe finds no violation of any impact in it (or inside
   * `include`). axe runs again until it finds none, for up to 30 s: on a loaded machine a view can
   * still be dimmed while it reloads (the Timeline's `.stale` table at 60 % opacity failed
   * color-contrast at load 25). A violation that stays fails with the last list.
   */
  async function expectClean(name: string, include?: string): Promise<void> {
    let found = await violations(page, include)
    if (found.length) {
      await expect
        .poll(async () => (found = await violations(page, include)).length, { timeout: 30_000, interval: 500 })
        .toBe(0)
        .catch(() => undefined)
    }
    await page.screenshot({ path: join(shots, `a11y-${scheme}-${name}.png`) })
    expect(found, `${name} (${scheme}):\n${JSON.stringify(found, null, 2)}`).toEqual([])
  }

  /** Wait (up to 60 s: a loaded machine) until nothing inside `scope` is loading any more. */
  async function settled(scope: string): Promise<void> {
    await page
      .waitForFunction((sel) => !document.querySelector(`${sel} [data-testid="loading-state"], ${sel} [aria-busy="true"]`), scope, { timeout: 60_000 })
      .catch(() => undefined)
  }

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    server = await startApp([join(ROOT, 'fixtures/real/claude-code/home'), join(ROOT, 'fixtures/real/cline/home')])
    browser = await launchChromium()
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true, colorScheme: scheme, reducedMotion: 'reduce' })
    page = await context.newPage()
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('follows the system theme', async () => {
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme)
  })

  it('the library with a session open, a tool call expanded', async () => {
    await page.locator(`[data-testid="session-row"][data-session-id="${SESSION}"]`).click()
    const view = page.getByTestId('session-view')
    await expect.poll(() => view.getAttribute('data-complete')).toBe('true')
    await view.locator('[data-testid="tool-call"] summary').first().click()
    await view.getByTestId('thinking').first().locator('summary').click()
    await page.getByTestId('source-files').locator('summary').click()
    await expectClean('library')
  })

  it('every session action dialog there is (continue in, checkpoints, export, collect)', async () => {
    const opened: string[] = []
    for (const id of ['continue-in', 'checkpoints-button', 'export-button', 'collect-for-review']) {
      const button = page.getByTestId(id).first()
      if (!(await button.isVisible().catch(() => false)) || !(await button.isEnabled())) continue
      await button.click()
      const dialog = page.locator('dialog[open]')
      await dialog.waitFor()
      await settled('dialog[open]')
      await expectClean(`dialog-${id}`, 'dialog[open]')
      await page.keyboard.press('Escape')
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0)
      opened.push(id)
    }
    console.log(`a11y (${scheme}): session action dialogs checked: ${opened.join(', ') || 'none yet'}`)
  })

  for (const tab of ['search', 'usage', 'timeline', 'settings']) {
    it(`the ${tab} view`, async () => {
      await page.getByTestId(`tab-${tab}`).click()
      await expect.poll(() => page.locator('#view-panel').getAttribute('data-view')).toBe(tab)
      await settled('#view-panel')
      await expectClean(tab)
    })
  }

  it('the command palette', async () => {
    await page.getByTestId('tab-library').click()
    await page.keyboard.press('Control+k')
    await page.getByTestId('palette-input').waitFor()
    await page.keyboard.type('the')
    await expect.poll(() => page.getByTestId('palette-item').count()).toBeGreaterThan(1)
    await page.keyboard.press('ArrowDown')
    await expectClean('palette', '[data-testid="palette"]')
    await page.keyboard.type('qqqqzz')
    await page.getByTestId('palette-empty').waitFor()
    await expectClean('palette-empty', '[data-testid="palette"]')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('palette').isVisible()).toBe(false)
  })

  it('the About dialog', async () => {
    await page.getByTestId('about-button').click()
    await page.getByTestId('about-agents').waitFor()
    await expectClean('about', '[data-testid="about-dialog"]')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('about-dialog').isVisible()).toBe(false)
  })

  it('a folder dropped in browser mode: the notice says to use Open folder', async () => {
    // The app takes no drop while a dialog is open or the library is (re)loading: drop again until
    // one is taken (each try is a new drop, as a user would do).
    const drop = (): Promise<void> =>
      page.evaluate(() => {
        const dt = new DataTransfer()
        dt.items.add(new File(['x'], 'home'))
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
      })
    await expect
      .poll(async () => {
        await drop()
        return page.getByTestId('notice').isVisible()
      }, { timeout: 30_000 })
      .toBe(true)
    await expectClean('drop-notice')
    await page.getByTestId('notice').getByRole('button', { name: 'Dismiss' }).click()
  })

  it('the open-folder dialog, with an error shown', async () => {
    await page.getByTestId('open-folder').click()
    await page.getByTestId('path-input').waitFor()
    await expectClean('open-folder', '[data-testid="open-folder-dialog"]')
    await page.getByTestId('path-input').fill(join(tmpdir(), 'sepia-no-such-folder-a11y'))
    await page.getByTestId('path-submit').click()
    await page.getByTestId('path-error').waitFor()
    await expectClean('open-folder-error', '[data-testid="open-folder-dialog"]')
  })

  it('the empty library', async () => {
    await page.getByTestId('path-input').fill(mkdtempSync(join(tmpdir(), 'sepia-empty-home-')))
    await page.getByTestId('path-submit').click()
    await page.getByTestId('empty-state').waitFor()
    await expectClean('empty')
  })
})

describe.skipIf(skip !== undefined).each(['light', 'dark'] as const)('the health dialog in the %s theme', (scheme) => {
  it('opens from the problems banner of a home with a cut line, with no violation', async () => {
    // A temporary home whose one Claude Code session has a cut line, so the banner offers the health dialog.
    const home = tempFolder('a11y-health')
    const dir = join(home, '.claude', 'projects', '-tmp-app')
    mkdirSync(dir, { recursive: true })
    const base = { sessionId: 'a11y-health-1', cwd: '/tmp/app', version: '2.1.300' }
    const user = { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content: 'hello' } }
    writeFileSync(join(dir, 'a11y-health-1.jsonl'), `${JSON.stringify(user)}\n{"type":"assistant", cut\n`)
    const data = tempFolder('a11y-health-data')
    const server = await startApp([home], { appDataDir: data })
    const browser = await launchChromium()
    try {
      const page = await (await browser.newContext({ bypassCSP: true, colorScheme: scheme, reducedMotion: 'reduce' })).newPage()
      await page.goto(server.url)
      await page.getByTestId('open-health').click()
      await page.getByTestId('health-summary').waitFor()
      await page.screenshot({ path: join(shots, `a11y-${scheme}-health.png`) })
      const found = await violations(page, '[data-testid="health-view"]')
      expect(found, `health (${scheme}):\n${JSON.stringify(found, null, 2)}`).toEqual([])
    } finally {
      await browser.close()
      await server.close()
      rmSync(home, { recursive: true, force: true })
      rmSync(data, { recursive: true, force: true })
    }
  })
})

describe.skipIf(skip !== undefined)('the axe check itself', () => {
  it('finds a planted violation (an unnamed button), so an empty result means something', async () => {
    const server = await startApp([join(ROOT, 'fixtures/real/claude-code/home')])
    const browser = await launchChromium()
    try {
      const page = await (await browser.newContext({ bypassCSP: true })).newPage()
      await page.goto(server.url)
      await page.getByTestId('library').waitFor()
      await page.evaluate(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<button id="axe-probe" type="button"></button>'))
      const found = await violations(page)
      expect(found.map((v) => v.id)).toContain('button-name')
      expect(found.find((v) => v.id === 'button-name')!.nodes[0]).toContain('#axe-probe')
    } finally {
      await browser.close()
      await server.close()
    }
  })
})
