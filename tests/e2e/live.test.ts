/**
 * Issue 8, live updates, in a real browser on a copy of the real Claude Code home: while the
 * window is open, a session written to the store shows up in the Library, and a message appended
 * to the open session shows up in it, without a reload of the page (the renderer polls
 * `getChanges` every ~2 s). The copy lives in a temp folder; the fixtures are never written.
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { browserSkipReason, launchChromium, ROOT, startApp } from './helpers'

const skip = browserSkipReason()
if (skip) console.warn(`Skipping browser tests: ${skip}`)
/** expect.poll with room for the 2 s polling and a busy machine. */
const waitFor = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 250 })

const OPEN = '6af80e1b-9349-4dc0-a14a-75375ad2f7e2'
const NEW = '0f0e0d0c-1111-4222-8333-944455556666'

describe.skipIf(skip !== undefined)('live updates', () => {
  let server: HttpServerHandle
  let browser: Browser
  let page: Page
  const tmp = mkdtempSync(join(tmpdir(), 'sepia-e2e-live-'))
  const home = join(tmp, 'home')
  const project = join(home, '.claude/projects/-home-ana-src-ledger-api')

  beforeAll(async () => {
    cpSync(join(ROOT, 'fixtures/real/claude-code/home'), home, { recursive: true })
    process.env.SEPIA_DATA_DIR = join(tmp, 'data')
    server = await startApp([home])
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
    await page.locator(`[data-testid="session-row"][data-session-id="${OPEN}"]`).click()
    await page.locator('[data-testid="session-view"][data-complete="true"]').waitFor({ timeout: 20_000 })
    // A marker that a page reload would lose.
    await page.evaluate(() => ((window as unknown as { liveMarker: number }).liveMarker = 42))
    // Let a getChanges call start watching: wait for one to be answered (a condition, not a time).
    await page.waitForResponse((r) => r.url().endsWith('/api/getChanges') && r.ok(), { timeout: 20_000 })
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    delete process.env.SEPIA_DATA_DIR
    rmSync(tmp, { recursive: true, force: true })
  })

  it('shows a new session written to the store', async () => {
    const text = readFileSync(join(project, `${OPEN}.jsonl`), 'utf8').replaceAll(OPEN, NEW).replace('[qa] What is the capital of France?', '[qa] What is the capital of Italy?')
    writeFileSync(join(project, `${NEW}.jsonl`), text)
    await waitFor(() => page.locator(`[data-testid="session-row"][data-session-id="${NEW}"]`).count()).toBe(1)
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker)).toBe(42)
    // The open session stayed open.
    expect(await page.locator('[data-testid="session-row"][aria-current="true"]').getAttribute('data-session-id')).toBe(OPEN)
  })

  it('shows a message appended to the open session', async () => {
    const lines = readFileSync(join(project, `${OPEN}.jsonl`), 'utf8').trim().split('\n')
    const last = lines.map((l) => JSON.parse(l) as { uuid?: string }).filter((r) => r.uuid).at(-1)!
    const line = {
      parentUuid: last.uuid,
      isSidechain: false,
      userType: 'external',
      cwd: '/home/ana/src/ledger-api',
      sessionId: OPEN,
      version: '2.1.332',
      gitBranch: 'main',
      type: 'user',
      message: { role: 'user', content: 'And the capital of Spain? (live marker)' },
      uuid: '7e7e7e7e-0000-4000-8000-000000000001',
      timestamp: '2026-11-30T07:05:00.000Z',
    }
    appendFileSync(join(project, `${OPEN}.jsonl`), `${JSON.stringify(line)}\n`)
    await waitFor(() => page.getByTestId('session-view').getByText('And the capital of Spain? (live marker)').count()).toBe(1)
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker)).toBe(42)
  })
})
