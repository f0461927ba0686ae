/**
 * Issue 6 "Continue in…", in a real browser: open the Cline tools session of fixtures/real/cline,
 * open "Continue in…", see what Claude Code would lose or change (warnings in plain words), convert
 * (into a temp folder standing for the user's own home), see the read-back check and copy the
 * resume command `claude --resume <uuid>`. The app's own home and data folder are temp folders:
 * nothing is written anywhere else. Screenshots: test-results/convert-*.png (light and dark).
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { seriousViolations } from './axe'
import { browserSkipReason, launchChromium, ROOT, startApp, tempFolder } from './helpers'

const skip = browserSkipReason()
if (skip) console.warn(`Skipping browser tests: ${skip}`)

/** `expect.poll` with room for the API's work (git reads, conversions): 15 s instead of 1 s. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

const SESSION = '1796022183774_v75nv'
const UUID = /^claude --resume ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/

describe.skipIf(skip !== undefined)('Continue in… (Cline → Claude Code)', () => {
  let server: HttpServerHandle
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let own: string
  let data: string
  const shots = join(ROOT, 'test-results')

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    own = tempFolder('own')
    data = tempFolder('data')
    server = await startApp([join(ROOT, 'fixtures/real/cline/home')], { ownHome: own, appDataDir: data })
    browser = await launchChromium()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', bypassCSP: true })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin })
    page = await context.newPage()
    await page.goto(server.url)
    // The first read builds a new catalog in the temp data folder: slow when every test file runs at once.
    await page.locator(`[data-testid="session-row"][data-session-id="${SESSION}"]`).click({ timeout: 90_000 })
    await page.getByTestId('session-header').waitFor()
  })

  afterAll(async () => {
    try {
      await browser?.close()
      await server?.close()
    } finally {
      for (const d of [own, data]) if (d) rmSync(d, { recursive: true, force: true })
    }
  })

  it('lists Claude Code with the warnings in plain words, other agents disabled, and a text-only choice', async () => {
    await page.getByTestId('continue-in').click()
    const dialog = page.getByTestId('convert-dialog')
    await dialog.waitFor()
    expect(await dialog.getAttribute('aria-modal')).toBe('true')
    const claude = dialog.locator('[data-testid="convert-target"][data-agent="claude-code"]')
    await poll(() => claude.getByTestId('convert-warning').count()).toBeGreaterThanOrEqual(3)
    const warnings = await claude.getByTestId('convert-warning').allInnerTexts()
    // Issue 17: what the user loses in their words; the technical reason one click away ("Why").
    expect(warnings.join('\n')).toContain('The model’s reasoning (“Thinking”) in 1 place is not carried over')
    const why = claude.locator('[data-kind="thinking-unsigned-dropped"] [data-testid="convert-warning-why"]')
    await why.locator('summary').click()
    expect(await why.innerText()).toContain('1 thinking block without a provider signature left out')
    expect(warnings.join('\n')).toContain('2 checkpoints of the source agent left out')
    expect(warnings.join('\n')).toContain('2 run_commands calls written as Bash.')
    expect(await claude.locator('[data-severity="loss"]').count()).toBe(2)
    expect(await claude.getByRole('radio').isChecked()).toBe(true)
    expect(await claude.innerText()).toContain(own)
    // An agent Sepia cannot write is listed, disabled, with the reason.
    const cursor = dialog.locator('[data-testid="convert-target"][data-agent="cursor"]')
    expect(await cursor.getAttribute('data-disabled')).toBe('true')
    expect(await cursor.getByRole('radio').isDisabled()).toBe(true)
    expect(await cursor.innerText()).toContain('Sepia cannot write Cursor sessions yet.')
    // Issue 14: the project folder, prefilled with the session's own (an absolute Linux path: not foreign).
    const folder = dialog.getByTestId('convert-project-folder')
    expect(await folder.inputValue()).toMatch(/^\/.+/)
    expect(await dialog.getByTestId('convert-project-folder-hint').innerText()).toContain('The other agent lists the session under this folder.')
    await page.screenshot({ path: join(shots, 'convert-dialog.png') })
    expect(await seriousViolations(page, '[data-testid="convert-dialog"]')).toEqual([])

    // Text only: the tool calls become text, said in plain words.
    await dialog.getByTestId('convert-text-only').check()
    await poll(async () => (await claude.getByTestId('convert-warning').allInnerTexts()).join('\n')).toContain('written as plain text (text only)')
    await dialog.getByTestId('convert-text-only').uncheck()
    await poll(async () => (await claude.getByTestId('convert-warning').allInnerTexts()).join('\n')).toContain('written as Bash')

    // Esc closes it, and nothing was written.
    await page.keyboard.press('Escape')
    await poll(() => dialog.isVisible()).toBe(false)
    expect(existsSync(join(own, '.claude'))).toBe(false)
  }, 120_000)

  it('converts into the temp home, shows where it went and the check, and copies the resume command', async () => {
    await page.getByTestId('continue-in').click()
    const dialog = page.getByTestId('convert-dialog')
    await dialog.locator('[data-testid="convert-target"][data-agent="claude-code"] [data-testid="convert-warning"]').first().waitFor()
    await dialog.getByTestId('convert-submit').click()
    const command = dialog.getByTestId('resume-command')
    await command.waitFor()
    const text = (await command.innerText()).trim()
    const id = UUID.exec(text)?.[1]
    expect(id, text).toBeDefined()
    expect(await dialog.getByTestId('convert-result').getAttribute('data-verified')).toBe('true')
    expect(await dialog.getByTestId('convert-verification').innerText()).toContain('reads back the same')
    expect(await dialog.getByTestId('convert-target-home').innerText()).toBe(own)
    expect(await dialog.getByTestId('resume-cwd').innerText()).toBe('/home/ana/src/invoice-service')
    const file = (await dialog.getByTestId('convert-file').first().innerText()).trim()
    expect(file).toBe(join(own, '.claude/projects/-home-ana-src-invoice-service', `${id}.jsonl`))
    expect(readFileSync(file, 'utf8')).toContain('[tools] List the files, then create NOTES.md')

    await dialog.getByTestId('copy-resume-command').click()
    await poll(() => dialog.getByTestId('copy-resume-command').innerText()).toContain('Copied')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text)
    await page.screenshot({ path: join(shots, 'convert-result.png') })
    expect(await seriousViolations(page, '[data-testid="convert-dialog"]')).toEqual([])

    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: join(shots, 'convert-result-dark.png') })
    await page.emulateMedia({ colorScheme: 'light' })
    await dialog.getByTestId('convert-done').click()
    await poll(() => dialog.isVisible()).toBe(false)
  }, 120_000)
})
