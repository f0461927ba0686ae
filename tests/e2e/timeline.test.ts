/**
 * Issue 3, Timeline view and recovered sessions, in a real browser on the real Cline home and the
 * seed 000 home (every store Cline leaves on disk): the row table fills, sorts by a column when
 * its header is clicked (aria-sort, both directions), narrows to one session, and both exports
 * download the whole filter (CSV with the seed's header, JSONL one row per line). Sessions rebuilt
 * from a secondary source show a "recovered" badge naming it in the Library. The Settings view
 * (issue 3 item 6) of the seed 000 home flags its webhook hook. Screenshots (light and dark) go to
 * test-results/timeline-*.png and settings-*.png.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Download, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TIMELINE_COLUMNS } from '../../src/shared/timeline'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { browserSkipReason, launchChromium, ROOT, startApp } from './helpers'

const skip = browserSkipReason()
/** expect.poll with room for a busy machine (the default gives up after 1 s). */
const waitFor = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
if (skip) console.warn(`Skipping browser tests: ${skip}`)

const SEED = join(ROOT, 'fixtures/seed000/home')
const HOMES = [join(ROOT, 'fixtures/real/cline/home'), ...(existsSync(SEED) ? [SEED] : [])]

describe.skipIf(skip !== undefined)('timeline view', () => {
  let server: HttpServerHandle
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const shots = join(ROOT, 'test-results')
  const dataDir = mkdtempSync(join(tmpdir(), 'sepia-e2e-timeline-'))

  /** The total the view says ("204 rows"). */
  async function total(): Promise<number> {
    return Number((await page.getByTestId('timeline-count').innerText()).split(' rows')[0]!.replace(/\D/g, ''))
  }
  /** turn types of the rows in the page (the virtualized table renders the ones in view). */
  function shownTypes(): Promise<string[]> {
    return page.getByTestId('timeline-row').evaluateAll((els) =>
      els
        .map((e) => ({ i: Number(e.getAttribute('aria-rowindex')), t: e.getAttribute('data-turn-type') ?? '' }))
        .sort((a, b) => a.i - b.i)
        .map((r) => r.t),
    )
  }
  async function save(download: Download, name: string): Promise<string> {
    const file = join(dataDir, name)
    await download.saveAs(file)
    return readFileSync(file, 'utf8')
  }

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    process.env.SEPIA_DATA_DIR = dataDir
    server = await startApp(HOMES)
    browser = await launchChromium()
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', acceptDownloads: true })
    page = await context.newPage()
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    delete process.env.SEPIA_DATA_DIR
    rmSync(dataDir, { recursive: true, force: true })
  })

  it.runIf(HOMES.includes(SEED))('shows the recovered badge on sessions rebuilt from a secondary source', async () => {
    const row = page.locator('[data-testid="session-row"][data-session-id="1759990000000_del01"]')
    await waitFor(() => row.getByTestId('recovered-badge').getAttribute('data-source')).toBe('session-search.db')
    expect(await page.locator('[data-testid="session-row"][data-session-id="1759980000000_hk001"] [data-testid="recovered-badge"]').getAttribute('data-source')).toBe('hooks.jsonl')
    expect(await page.locator('[data-testid="session-row"][data-session-id="1796022183774_v75nv"] [data-testid="recovered-badge"]').count()).toBe(0)
    await row.click()
    await waitFor(() => page.getByTestId('session-recovered').innerText()).toContain('session-search.db')
    await page.screenshot({ path: join(shots, 'timeline-recovered-light.png') })
  })

  it('lists the rows and sorts by a column, both ways', async () => {
    await page.getByTestId('tab-timeline').click()
    await page.getByTestId('view-timeline').waitFor()
    await waitFor(() => page.getByTestId('timeline-row').count()).toBeGreaterThan(10)
    expect(await total()).toBeGreaterThan(50)
    const header = page.locator('[role="columnheader"]', { has: page.getByTestId('timeline-sort-turn_type') })
    expect(await header.getAttribute('aria-sort')).toBe('none')
    expect(await page.locator('[role="columnheader"]', { has: page.getByTestId('timeline-sort-timestamp_utc') }).getAttribute('aria-sort')).toBe('ascending')

    await page.getByTestId('timeline-sort-turn_type').click()
    await waitFor(() => header.getAttribute('aria-sort')).toBe('ascending')
    await waitFor(async () => (await shownTypes())[0]).toBe('assistant')
    const up = await shownTypes()
    expect(up).toEqual([...up].sort())

    await page.getByTestId('timeline-sort-turn_type').click()
    await waitFor(() => header.getAttribute('aria-sort')).toBe('descending')
    await waitFor(async () => (await shownTypes())[0]).toBe('user')
    const down = await shownTypes()
    expect(down).toEqual([...down].sort().reverse())
    // The first row is laid out below the sticky header, not under it.
    const head = await page.locator('[role="columnheader"]').first().boundingBox()
    const first = await page.locator('[data-testid="timeline-row"][aria-rowindex="2"]').boundingBox()
    expect(first!.y).toBeGreaterThanOrEqual(head!.y + head!.height - 1)
    await page.screenshot({ path: join(shots, 'timeline-light.png') })
  })

  it('exports the whole filter as CSV and JSONL', async () => {
    const rows = await total()
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('timeline-export-csv').click()])
    expect(csvDownload.suggestedFilename()).toMatch(/^sepia-timeline-\d{4}-\d{2}-\d{2}\.csv$/)
    const csv = await save(csvDownload, 'timeline.csv')
    expect(csv.split(/\r?\n/, 1)[0]).toBe(TIMELINE_COLUMNS.join(','))
    expect(csv.length).toBeGreaterThan(1000)

    const [jsonlDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('timeline-export-jsonl').click()])
    expect(jsonlDownload.suggestedFilename()).toMatch(/\.jsonl$/)
    const lines = (await save(jsonlDownload, 'timeline.jsonl')).trim().split('\n')
    expect(lines).toHaveLength(rows)
    const first = JSON.parse(lines[0]!) as Record<string, unknown>
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['timestamp_utc', 'session_id', 'turn_type', 'source_file']))
  })

  it.runIf(HOMES.includes(SEED))('narrows to one session: a session known only from the hook log is all recovered rows (dark theme)', async () => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.getByTestId('timeline-filter').selectOption('s:cline/1759980000000_hk001')
    await waitFor(() => total()).toBeLessThan(20)
    const n = await total()
    expect(n).toBeGreaterThan(0)
    await waitFor(() => page.getByTestId('timeline-row').count()).toBe(n)
    expect(await page.locator('[data-testid="timeline-row"][data-recovered="true"]').count()).toBe(n)
    expect(await page.getByTestId('timeline-recovered').first().innerText()).toContain('hooks.jsonl')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('timeline-export-jsonl').click()])
    const lines = (await save(download, 'one.jsonl')).trim().split('\n')
    expect(lines).toHaveLength(n)
    for (const l of lines) expect((JSON.parse(l) as { session_id: string }).session_id).toBe('1759980000000_hk001')
    await page.screenshot({ path: join(shots, 'timeline-dark.png') })
  })

  it.runIf(HOMES.includes(SEED))('settings: the webhook hook is flagged, MCP auto-approvals and credential files listed', async () => {
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.getByTestId('tab-settings').click()
      await page.getByTestId('view-settings').waitFor()
      await page.getByTestId('settings-home').selectOption(SEED)
      const hook = page.locator('[data-testid="settings-hook"][data-name="TaskStart"]')
      await waitFor(() => hook.getByTestId('sends-data-out').innerText()).toContain('sends session data out')
      expect(await page.locator('[data-testid="settings-hook"][data-name="PostToolUse"] [data-testid="sends-data-out"]').count()).toBe(0)
      expect(await page.locator('[data-testid="settings-mcp"][data-name="github"] [data-testid="mcp-auto-approved"]').allInnerTexts()).toEqual(['list_issues'])
      const creds = await page.getByTestId('settings-credential').allInnerTexts()
      expect(creds.some((c) => c.includes('secrets.json') && c.includes('holds secrets — not shown'))).toBe(true)
      expect(await page.getByTestId('view-settings').innerText()).not.toContain('FAKE-seed000')
      await page.getByTestId('view-settings').locator('.body').evaluate((e) => e.scrollTo(0, 0))
      await page.screenshot({ path: join(shots, `settings-${scheme}.png`) })
      const rule = page.locator('[data-testid="settings-doc"][data-name="python.md"]')
      await rule.locator('summary').click()
      await waitFor(() => rule.locator('code').first().innerText()).toBe('pytest -q')
      await page.screenshot({ path: join(shots, `settings-${scheme}-rule.png`) })
      await rule.locator('summary').click()
    }
  })
})
