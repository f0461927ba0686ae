/**
 * Issue 20, done-when: two fixture homes pushed as two machines ("laptop-a": Claude Code,
 * "laptop-b": Codex) to a real PostgreSQL (a throwaway cluster, tests/helpers/postgres.ts), then
 * the app opened on that catalog in a browser (`createTeamApi`, what `sepia serve --catalog` runs):
 * both machines' sessions are in the library, a session opens, search finds hits of both
 * machines' agents, and Usage shows both agents. Pushing again sends nothing.
 */
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTeamApi, type TeamApi } from '../../src/main/team/api'
import { pushHome } from '../../src/main/team/push'
import { startHttpServer, type HttpServerHandle } from '../../src/main/transport/http'
import { postgresSkipReason, startPostgres, type TestPostgres } from '../helpers/postgres'
import { browserSkipReason, launchChromium, ROOT } from './helpers'

const skip = browserSkipReason() ?? postgresSkipReason()
const waitFor = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
const HOMES: [string, string][] = [
  ['laptop-a', join(ROOT, 'fixtures/real/claude-code/home')],
  ['laptop-b', join(ROOT, 'fixtures/real/codex/home')],
]

describe.skipIf(skip !== undefined)(`team catalog in the browser${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let pg: TestPostgres
  let api: TeamApi
  let server: HttpServerHandle
  let browser: Browser
  let page: Page
  const pushed = new Map<string, number>()

  beforeAll(async () => {
    pg = startPostgres()
    for (const [machine, home] of HOMES) pushed.set(machine, (await pushHome({ url: pg.url, home, machine })).sent)
    api = createTeamApi(pg.url, { appRoot: ROOT })
    server = await startHttpServer({ api, rendererDir: join(ROOT, 'out', 'renderer') })
    browser = await launchChromium()
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })).newPage()
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await api?.catalog.close()
    pg?.stop()
  })

  it('lists the sessions of both machines, each with its machine', async () => {
    const rows = page.getByTestId('session-row')
    const total = [...pushed.values()].reduce((a, b) => a + b, 0)
    expect(pushed.get('laptop-a')).toBeGreaterThan(0)
    expect(pushed.get('laptop-b')).toBeGreaterThan(0)
    await waitFor(() => rows.count()).toBe(total)
    const agents = await rows.evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-agent')))].sort())
    expect(agents).toEqual(['claude-code', 'codex'])
    const machines = await page.getByTestId('session-machine').allInnerTexts()
    expect([...new Set(machines)].sort()).toEqual(['laptop-a', 'laptop-b'])
    expect(machines.filter((m) => m === 'laptop-a').length).toBe(pushed.get('laptop-a'))
  })

  it('opens a session of the second machine from its pushed rows', async () => {
    await page.locator('[data-testid="session-row"][data-agent="codex"]').first().click()
    await page.getByTestId('session-view').waitFor()
    await waitFor(() => page.getByTestId('session-header').isVisible()).toBe(true)
    await waitFor(async () => (await page.getByTestId('session-view').innerText()).length).toBeGreaterThan(50)
  })

  it('searches both machines', async () => {
    await page.getByTestId('tab-search').click()
    await page.getByTestId('search-input').fill('the ')
    const hits = page.getByTestId('search-result')
    await waitFor(() => hits.count()).toBeGreaterThan(2)
    await waitFor(async () => (await hits.evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-agent')))].sort())).join()).toBe('claude-code,codex')
  })

  it('shows usage of both machines', async () => {
    await page.getByTestId('tab-usage').click()
    await page.getByTestId('view-usage').waitFor()
    await page.getByTestId('usage-group-by').selectOption('agent')
    await waitFor(async () => {
      const text = await page.getByTestId('view-usage').innerText()
      return /claude-code|Claude Code/.test(text) && /codex|Codex/.test(text)
    }).toBe(true)
  })

  it('is read-only, and pushing again sends nothing', async () => {
    await expect(api.openHome('/tmp')).rejects.toMatchObject({ code: 'CANNOT_WRITE' })
    for (const [machine, home] of HOMES) expect((await pushHome({ url: pg.url, home, machine })).sent).toBe(0)
  })
})
