/**
 * Issue 9 item 3 (renderer): every request the page makes while the user goes through every view
 * stays on loopback. The app runs in browser mode on fixture homes, one of them seeded with remote
 * images, links and raw HTML in a prompt; Chromium records every request (and aborts, recording,
 * any that would leave 127.0.0.1). Views are found by their data-testid hooks; a view the renderer
 * does not have yet is skipped, so the test grows with the app.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { browserSkipReason, launchChromium, ROOT, startApp } from './helpers'

const skip = browserSkipReason()
if (skip) console.warn(`Skipping browser tests: ${skip}`)

const REMOTE = 'tracker.example.test'
const BAIT = ` ![pixel](https://${REMOTE}/pixel.png) <img src="https://${REMOTE}/raw.png"> <link rel="stylesheet" href="https://${REMOTE}/x.css"> [docs](https://${REMOTE}/docs) https://${REMOTE}/bare`

/** A copy of the Claude Code fixture home whose prompts carry remote images, links and HTML. */
function baitedHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'sepia-bait-'))
  cpSync(join(ROOT, 'fixtures/real/claude-code/home'), home, { recursive: true })
  const projects = join(home, '.claude', 'projects')
  for (const dir of readdirSync(projects)) {
    for (const f of readdirSync(join(projects, dir)).filter((n) => n.endsWith('.jsonl'))) {
      const path = join(projects, dir, f)
      const text = readFileSync(path, 'utf8').replaceAll('List the files', `List the files${JSON.stringify(BAIT).slice(1, -1)}`)
      writeFileSync(path, text)
    }
  }
  return home
}

const isLocal = (url: string): boolean => {
  if (/^(data|blob|about):/.test(url)) return true
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)
  } catch {
    return false
  }
}

/** Click every match of `loc` up to `max`, ignoring ones that vanish meanwhile. */
async function clickAll(loc: Locator, max: number): Promise<number> {
  const n = Math.min(await loc.count(), max)
  let clicked = 0
  for (let i = 0; i < n; i++) {
    const el = loc.nth(i)
    if (!(await el.isVisible().catch(() => false))) continue
    await el.scrollIntoViewIfNeeded().catch(() => undefined)
    if (await el.click({ timeout: 2000 }).then(() => true, () => false)) clicked++
  }
  return clicked
}

describe.skipIf(skip !== undefined)('browser mode: no request leaves loopback', () => {
  let server: HttpServerHandle
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const requests: string[] = []
  const refused: string[] = []
  const sockets: string[] = []
  const visited: string[] = []

  beforeAll(async () => {
    server = await startApp([baitedHome(), join(ROOT, 'fixtures/real/cline/home'), join(ROOT, 'fixtures/real/codex/home')])
    browser = await launchChromium()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    context.on('request', (r) => void requests.push(r.url()))
    await context.route('**/*', async (route) => {
      const url = route.request().url()
      if (isLocal(url)) return route.continue()
      refused.push(url)
      return route.abort('blockedbyclient')
    })
    page = await context.newPage()
    page.on('websocket', (ws) => void sockets.push(ws.url()))
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('goes through every view the app has', async () => {
    await expect.poll(() => page.getByTestId('session-row').count()).toBeGreaterThan(5)
    const rows = page.getByTestId('session-row')
    const total = await rows.count()
    for (let i = 0; i < Math.min(total, 40); i++) {
      if (!(await rows.nth(i).click({ timeout: 3000 }).then(() => true, () => false))) continue
      const view = page.getByTestId('session-view')
      if (!(await view.waitFor({ timeout: 5000 }).then(() => true, () => false))) continue
      visited.push('session')
      for (const id of ['expand-tools', 'show-meta', 'show-all', 'thinking']) if (await clickAll(view.getByTestId(id), 3)) visited.push(id)
      if (await clickAll(view.getByTestId('tool-call'), 4)) visited.push('tool-call')
    }
    const filter = page.getByTestId('filter')
    if (await filter.count()) {
      await filter.fill('List')
      await filter.fill('')
      visited.push('filter')
    }
    for (const id of ['reload', 'demo-button']) {
      if (await clickAll(page.getByTestId(id), 1)) {
        visited.push(id)
        await page.getByTestId('library').waitFor()
      }
    }
    if (await clickAll(page.getByTestId('open-folder'), 1)) {
      const input = page.getByTestId('path-input')
      if (await input.waitFor({ timeout: 3000 }).then(() => true, () => false)) {
        await input.fill(join(ROOT, 'fixtures/real/gemini/home'))
        await page.getByTestId('path-submit').click()
        await page.getByTestId('library').waitFor()
        visited.push('open-folder')
      }
    }
    // Views added later (search, usage, timeline, exports...): visit any tab or nav hook present.
    for (const id of ['search', 'search-input', 'usage', 'timeline', 'checkpoints', 'export', 'convert']) if (await clickAll(page.getByTestId(id), 1)) visited.push(id)
    await page.waitForLoadState('networkidle') // the last clicks' requests are answered (a condition, not a time)
    console.log(`no-network e2e: visited ${[...new Set(visited)].join(', ')}; ${requests.length} requests, all checked`)
    expect(visited).toContain('session')
    expect(visited).toContain('tool-call')
  }, 120_000)

  it('made no request outside loopback, opened no socket, and loaded nothing remote', async () => {
    expect(requests.length).toBeGreaterThan(2)
    expect(requests.filter((u) => !isLocal(u))).toEqual([])
    expect(refused).toEqual([])
    expect(sockets).toEqual([])
    const resources = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name))
    expect(resources.filter((u) => !isLocal(u))).toEqual([])
    // The remote images, styles and links in the prompts never became remote elements.
    expect(await page.locator(`img[src*="${REMOTE}"], link[href*="${REMOTE}"], script[src*="${REMOTE}"], iframe`).count()).toBe(0)
  })
})
