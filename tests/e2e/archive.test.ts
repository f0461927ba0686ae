/**
 * Issue 19 in a real browser, on a temp copy of fixtures/retention/claude-code/home (its
 * settings.json sets `cleanupPeriodDays: 1`) opened as the user's own home: the first-start question
 * is asked, the retention warning shows ("Claude Code will delete 4 sessions in the next 7 days; not archived: turn the archive
 * on"), turning the archive on makes them safe, a deleted transcript stays listed as archived, and
 * Put back in the session view writes it back byte for byte.
 */
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { violations } from './axe'
import { ROOT, browserSkipReason, launchChromium, startApp, tempFolder } from './helpers'

const skip = browserSkipReason()
const waitFor = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 })
if (skip) console.warn(`Skipping browser tests: ${skip}`)

describe.skipIf(skip !== undefined)('archive, retention warning and put back', () => {
  let server: HttpServerHandle
  let browser: Browser
  let page: Page
  const home = join(tempFolder('archive-home'), 'home')
  const dataDir = tempFolder('archive-data')
  const project = join(home, '.claude', 'projects', '-home-ana-src-ledger-api')
  let transcripts: string[]

  beforeAll(async () => {
    cpSync(join(ROOT, 'fixtures', 'retention', 'claude-code', 'home'), home, { recursive: true })
    transcripts = readdirSync(project).filter((f) => f.endsWith('.jsonl'))
    server = await startApp([], { ownHome: home, appDataDir: dataDir })
    browser = await launchChromium()
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true, reducedMotion: 'reduce' })).newPage()
    // bypassCSP: only so that axe can be injected (as tests/e2e/a11y.test.ts does).
    // Ask the first-start question although the browser is automated (archive-ui.ts ARCHIVE_ASK_FORCE_KEY).
    await page.addInitScript(() => localStorage.setItem('sepia.archive.ask', '1'))
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    rmSync(join(home, '..'), { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('asks the first-start question, warns that Claude Code will delete the sessions, and says when they are safe', async () => {
    const question = page.getByTestId('archive-question')
    await waitFor(() => question.textContent()).toContain('Keep a copy of your agent history so it is never lost? It uses about')
    const warning = page.getByTestId('retention-warning')
    await waitFor(() => warning.textContent())
      .toContain(`Claude Code will delete ${transcripts.length} sessions in the next 7 days; not archived: turn the archive on`)
    expect(await violations(page)).toEqual([])
    await page.getByTestId('archive-keep').click()
    await waitFor(() => question.count()).toBe(0)
    await waitFor(() => warning.textContent()).toContain(`Claude Code will delete ${transcripts.length} sessions in the next 7 days; they are safe in Sepia's archive`)
  })

  it('a deleted transcript stays listed as archived and Put back restores it', async () => {
    const name = transcripts[0]!
    const id = name.replace(/\.jsonl$/, '')
    const file = join(project, name)
    const bytes = readFileSync(file)
    rmSync(file)
    await page.getByTestId('reload').click()
    const row = page.locator(`[data-testid="session-row"][data-session-id="${id}"]`)
    await waitFor(() => row.getByTestId('row-archived').count()).toBe(1)
    await row.click()
    const note = page.getByTestId('session-archived')
    await waitFor(() => note.textContent()).toContain('Archived: deleted by Claude Code on')
    expect(await violations(page)).toEqual([])
    await note.getByTestId('put-back').click()
    // The outcome is in the notice bar: the reload unmounts the archived note once it is back.
    await waitFor(() => page.locator('[data-testid="notice"][data-kind="put-back"]').textContent()).toContain('read back and identical')
    expect(readFileSync(file).equals(bytes)).toBe(true)
    await waitFor(() => row.getByTestId('row-archived').count()).toBe(0)
  })
})
