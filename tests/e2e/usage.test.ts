/**
 * Issue 8, Usage view, in a real browser on fixture homes: the totals shown (tokens, cost) equal
 * what the CLI prints for the same homes (`sepia usage --json`, through `main()` of
 * src/cli/index.ts: the same API), the stacked chart is drawn on its canvas, the breakdown table
 * has a row per project with the same total, the time zone can be changed, and the CSV export
 * downloads the report. Screenshots (light and dark) go to test-results/usage-*.png.
 */
import Database from 'better-sqlite3'
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/index'
import type { UsageReport } from '../../src/shared/catalog'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { browserSkipReason, launchChromium, ROOT, startApp } from './helpers'

const skip = browserSkipReason()
/** expect.poll with room for a busy machine (the default gives up after 1 s). */
const waitFor = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
if (skip) console.warn(`Skipping browser tests: ${skip}`)

const HOMES = [join(ROOT, 'fixtures/real/claude-code/home'), join(ROOT, 'fixtures/real/cline/home'), join(ROOT, 'fixtures/seed000/home')]

/** Run the CLI and return its stdout. */
async function cli(args: string[]): Promise<string> {
  let out = ''
  const sink = new Writable({
    write(chunk, _enc, cb) {
      out += String(chunk)
      cb()
    },
  })
  const err = new Writable({ write: (_c, _e, cb) => cb() })
  expect(await main(args, sink, err)).toBe(0)
  return out
}

/** Pixels of a canvas that are not transparent. */
function paintedPixels(page: Page, testid: string): Promise<number> {
  return page.evaluate((id) => {
    const c = document.querySelector<HTMLCanvasElement>(`[data-testid="${id}"]`)
    const ctx = c?.getContext('2d')
    if (!c || !ctx || c.width === 0 || c.height === 0) return 0
    const data = ctx.getImageData(0, 0, c.width, c.height).data
    let n = 0
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++
    return n
  }, testid)
}

describe.skipIf(skip !== undefined)('usage view', () => {
  let server: HttpServerHandle
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let expected: UsageReport
  const shots = join(ROOT, 'test-results')
  const dataDir = mkdtempSync(join(tmpdir(), 'sepia-e2e-usage-'))

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    process.env.SEPIA_DATA_DIR = dataDir
    expected = JSON.parse(await cli(['usage', '--json', ...HOMES.flatMap((h) => ['--home', h])])) as UsageReport
    server = await startApp(HOMES)
    browser = await launchChromium()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', acceptDownloads: true })
    page = await context.newPage()
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
    await page.getByTestId('tab-usage').click()
    await page.getByTestId('view-usage').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    delete process.env.SEPIA_DATA_DIR
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('shows the totals the CLI prints for the same homes', async () => {
    expect(expected.totals.totalTokens).toBeGreaterThan(100_000)
    const tokens = page.getByTestId('usage-total-tokens')
    await waitFor(() => tokens.getAttribute('data-value')).toBe(String(expected.totals.totalTokens))
    expect(Number(await page.getByTestId('usage-total-cost').getAttribute('data-value'))).toBeCloseTo(expected.totals.cost, 9)
    // As shown: the same number, grouped the locale's way.
    expect((await tokens.innerText()).replace(/\D/g, '')).toBe(String(expected.totals.totalTokens))
    expect(await page.getByTestId('usage-total-cost').innerText()).toMatch(/^\$0\.\d+/)
  })

  it('draws the chart and lists the breakdown with the same total', async () => {
    await waitFor(() => paintedPixels(page, 'usage-chart')).toBeGreaterThan(2000)
    const rows = page.getByTestId('usage-row')
    await waitFor(() => rows.count()).toBeGreaterThan(1)
    const total = await page.getByTestId('usage-total-row').locator('td').nth(4).innerText()
    expect(total.replace(/\D/g, '')).toBe(String(expected.totals.totalTokens))
    await page.getByTestId('usage-group-by').selectOption('model')
    await waitFor(() => page.locator('[data-testid="usage-row"][data-key="mock-model"]').count()).toBe(1)
    await page.screenshot({ path: join(shots, 'usage-light.png'), fullPage: true })
  })

  it('counts days in the chosen time zone', async () => {
    await page.getByTestId('usage-group-by').selectOption('day')
    await page.getByTestId('usage-timezone').selectOption('Pacific/Kiritimati')
    const days = await (await cli(['usage', '--json', '--tz', 'Pacific/Kiritimati', ...HOMES.flatMap((h) => ['--home', h])])).trim()
    const keys = (JSON.parse(days) as UsageReport).rows.map((r) => r.key).sort()
    await waitFor(() => page.getByTestId('usage-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')).sort())).toEqual(keys)
    await waitFor(() => page.getByTestId('usage-total-tokens').getAttribute('data-value')).toBe(String(expected.totals.totalTokens))
  })

  it('exports the breakdown as CSV (dark theme)', async () => {
    await page.emulateMedia({ colorScheme: 'dark' })
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('usage-csv').click()])
    expect(download.suggestedFilename()).toMatch(/^sepia-usage-by-day-\d{4}-\d{2}-\d{2}\.csv$/)
    const file = join(dataDir, 'usage.csv')
    await download.saveAs(file)
    const lines = readFileSync(file, 'utf8').trim().split(/\r?\n/)
    expect(lines.length).toBeGreaterThanOrEqual(3)
    expect(lines.at(-1)).toContain(String(expected.totals.totalTokens))
    await waitFor(() => paintedPixels(page, 'usage-chart')).toBeGreaterThan(2000)
    await page.screenshot({ path: join(shots, 'usage-dark.png'), fullPage: true })
  })
})

/**
 * A real Crush store (fixtures/public-real/crush/dbos-api-error): Crush adds up each session's cost
 * but overwrites its token columns on every response, so the view shows the cost the `sessions`
 * table holds (read here on a copy with better-sqlite3), "unknown" for the tokens, and says why.
 */
describe.skipIf(skip !== undefined)('usage view on a real Crush home', () => {
  let server: HttpServerHandle
  let browser: Browser
  let page: Page
  const dataDir = mkdtempSync(join(tmpdir(), 'sepia-e2e-usage-crush-'))
  const home = join(dataDir, 'home')
  let cost = 0

  beforeAll(async () => {
    cpSync(join(ROOT, 'fixtures/public-real/crush/dbos-api-error/home'), home, { recursive: true })
    const copy = join(dataDir, 'copy.db')
    copyFileSync(join(home, 'codeZ/dbos-transact-golang/.crush/crush.db'), copy)
    const db = new Database(copy, { readonly: true })
    cost = (db.prepare('SELECT sum(cost) AS c FROM sessions').get() as { c: number }).c
    db.close()
    server = await startApp([home], { appDataDir: join(dataDir, 'data') })
    browser = await launchChromium()
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })).newPage()
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
    await page.getByTestId('tab-usage').click()
    await page.getByTestId('view-usage').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('counts the stored cost, shows the tokens as unknown and says why', async () => {
    await waitFor(() => page.getByTestId('usage-total-cost').getAttribute('data-value').then(Number)).toBeCloseTo(cost, 9)
    await waitFor(() => page.getByTestId('usage-tokens-unknown').innerText()).toMatch(/^Crush: tokens unknown, left out of the token totals; its cost \(\$3\.22\d*\) is counted\. Crush keeps only the last request’s token counts/)
    await page.getByTestId('usage-group-by').selectOption('session')
    await waitFor(() => page.getByTestId('usage-row').count()).toBe(2)
    const cells = await page.getByTestId('usage-row').first().locator('td').allInnerTexts()
    expect(cells.slice(0, 5)).toEqual(['unknown', 'unknown', 'unknown', 'unknown', 'unknown'])
  })
})
