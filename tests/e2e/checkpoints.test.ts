/**
 * Issue 7 "Checkpoints / Restore", in a real browser, on the real stores' checkpoints:
 *
 * - Cline (fixtures/real/cline): a temp copy of the home with the project rebuilt from
 *   `project.bundle` inside it. The recorded project (/home/ana/src/invoice-service) is rewritten
 *   in the copy's session files to a path inside a temp folder that does not exist (so the test
 *   holds on a machine that has /home/ana/src/invoice-service); the dialog says so and asks for a folder; the typed folder holds the
 *   checkpoint commits, the run-2 stash is previewed (NOTES.md changed, with its diff), written
 *   into that folder, checked byte for byte, and undone.
 * - Claude Code (fixtures/real/claude-code): a temp copy of the home used as the app's own home,
 *   its recorded project path rewritten to a temp clone of `project.bundle`; the restore goes to
 *   the recorded project by default, then is undone (CRLF content back as it was).
 *
 * Homes, projects and the app's data folder are temp folders. Screenshots:
 * test-results/checkpoints-*.png (light and dark).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { git, projectFromBundle } from '../builders/checkpoints/testing'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { seriousViolations } from './axe'
import { browserSkipReason, launchChromium, ROOT, startApp, tempFolder } from './helpers'

const skip = browserSkipReason()
if (skip) console.warn(`Skipping browser tests: ${skip}`)

/** `expect.poll` with room for the API's work (git reads, conversions): 15 s instead of 1 s. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

const NOTES = '# Notes\n\nDONE: write tests for the parser\n'
const dirs: string[] = []
const temp = (prefix: string): string => {
  const d = tempFolder(prefix)
  dirs.push(d)
  return d
}

async function openSession(page: Page, id: string): Promise<void> {
  await page.locator(`[data-testid="session-row"][data-session-id="${id}"]`).click({ timeout: 90_000 })
  await page.locator(`[data-testid="session-actions"][data-session-id="${id}"]`).waitFor({ timeout: 15_000 })
  await poll(() => page.getByTestId('session-view').getAttribute('data-complete')).toBe('true')
}

describe.skipIf(skip !== undefined)('checkpoints and restore in the browser', () => {
  let browser: Browser
  const servers: HttpServerHandle[] = []
  const shots = join(ROOT, 'test-results')

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    browser = await launchChromium()
  })
  afterAll(async () => {
    try {
      await browser?.close()
      await Promise.all(servers.map((s) => s.close()))
    } finally {
      for (const d of dirs) rmSync(d, { recursive: true, force: true })
    }
  })

  it('Cline: asks for a folder when the project is missing, previews the run-2 stash, writes it there and undoes', async () => {
    const SESSION = '1796022183774_v75nv'
    const RUN2 = 'e95b85770d55bcdf2956a609040317216101fb20'
    const home = temp('cline-home')
    cpSync(join(ROOT, 'fixtures/real/cline/home'), home, { recursive: true })
    // The recorded project, moved into a temp folder where it surely does not exist.
    const gone = join(temp('cline-gone'), 'src', 'invoice-service')
    const sessions = join(home, '.cline/data/sessions')
    for (const id of readdirSync(sessions)) {
      for (const name of readdirSync(join(sessions, id)).filter((n) => n.endsWith('.json'))) {
        const f = join(sessions, id, name)
        writeFileSync(f, readFileSync(f, 'utf8').replaceAll('/home/ana/src/invoice-service', gone))
      }
    }
    const proj = join(home, 'src', 'invoice-service')
    projectFromBundle(join(ROOT, 'fixtures/real/cline/project.bundle'), proj)
    writeFileSync(join(proj, 'NOTES.md'), 'scratch\n')
    const server = await startApp([home], { ownHome: temp('own'), appDataDir: temp('data') })
    servers.push(server)
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', bypassCSP: true })
    await page.goto(server.url)
    await openSession(page, SESSION)

    await page.getByTestId('checkpoints-button').click()
    const dialog = page.getByTestId('checkpoints-dialog')
    expect(await dialog.getAttribute('aria-modal')).toBe('true')
    await poll(() => dialog.getByTestId('checkpoint-row').count()).toBe(2)
    expect(await dialog.getByTestId('checkpoint-target-note').innerText()).toContain(`${gone} is not on this computer`)
    const run2 = dialog.locator(`[data-testid="checkpoint-row"][data-checkpoint-id="${RUN2}"]`)
    expect(await run2.innerText()).toContain('Run 2: before "[resume] Continue: re-read NOTES.md."')
    expect(await run2.getByTestId('checkpoint-problem').innerText()).toContain(`not in ${gone}`)
    expect(await run2.getByTestId('checkpoint-preview').isDisabled()).toBe(true)
    await page.screenshot({ path: join(shots, 'checkpoints-needs-folder.png') })
    expect(await seriousViolations(page, '[data-testid="checkpoints-dialog"]')).toEqual([])

    // The user types the folder (browser mode has no folder picker): the commits are found there.
    await dialog.getByTestId('checkpoint-target-input').fill(proj)
    await dialog.getByTestId('checkpoint-target-use').click()
    // Sepia asks before it reads or writes a typed folder (issue 16/17): "Allow once".
    await dialog.getByTestId('allow-once').waitFor()
    expect(await dialog.getByTestId('allow-once').innerText()).toContain(proj)
    await dialog.getByTestId('allow-once-button').click()
    await poll(() => run2.getByTestId('checkpoint-problem').count()).toBe(0)
    expect(await run2.innerText()).toContain('1 file')
    await run2.getByTestId('checkpoint-preview').click()

    const preview = dialog.getByTestId('restore-preview')
    await preview.waitFor()
    expect(await preview.getByTestId('restore-target').innerText()).toBe(proj)
    const notes = preview.locator('[data-testid="restore-file"][data-path="NOTES.md"]')
    expect(await notes.getAttribute('data-status')).toBe('modified')
    expect(await notes.getByTestId('restore-file-check').isChecked()).toBe(true)
    const diff = await notes.getByTestId('restore-diff').innerText()
    expect(diff).toContain('scratch')
    expect(diff).toContain('DONE: write tests for the parser')
    expect(await notes.locator('tr.add').count()).toBe(3)
    expect(await notes.locator('tr.del').count()).toBe(1)
    // Select none: nothing to restore; select all again.
    await preview.getByTestId('restore-select-none').click()
    expect(await dialog.getByTestId('restore-submit').isDisabled()).toBe(true)
    await preview.getByTestId('restore-select-all').click()
    const submit = dialog.getByTestId('restore-submit')
    expect(await submit.innerText()).toBe('Write 1 file into this folder')
    await page.screenshot({ path: join(shots, 'checkpoints-preview.png') })
    expect(await seriousViolations(page, '[data-testid="checkpoints-dialog"]')).toEqual([])
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: join(shots, 'checkpoints-preview-dark.png') })
    await page.emulateMedia({ colorScheme: 'light' })

    await submit.click()
    const result = dialog.getByTestId('restore-result')
    await result.waitFor()
    expect(await result.getByTestId('restore-written').allInnerTexts()).toEqual(['NOTES.md'])
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe(NOTES)
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe(git(proj, 'show', `${RUN2}^3:NOTES.md`) + '\n')
    const backup = await result.getByTestId('restore-backup').innerText()
    expect(existsSync(backup)).toBe(true)
    await page.screenshot({ path: join(shots, 'checkpoints-restored.png') })
    expect(await seriousViolations(page, '[data-testid="checkpoints-dialog"]')).toEqual([])

    await result.getByTestId('undo-restore').click()
    await poll(() => result.getByTestId('undo-result').count()).toBe(1)
    expect(await result.getByTestId('undo-result').innerText()).toContain('1 file put back')
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe('scratch\n')
    expect(await result.getByTestId('undo-restore').isDisabled()).toBe(true)

    // "Show in transcript" closes the dialog and brings the message the checkpoint precedes into view.
    await page.keyboard.press('Escape')
    await page.getByTestId('checkpoints-button').click()
    await run2.getByTestId('checkpoint-show').click()
    await poll(() => dialog.isVisible()).toBe(false)
    const message = page.locator('[data-node-id="aaeb660d-ee6c-46e7-a6f7-f3a399f01f65"]')
    await poll(async () => (await message.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0)
    expect((await message.boundingBox())!.y).toBeLessThan(900)
    await page.close()
  }, 120_000)

  it('Claude Code: restores into the recorded project of the own home by default, then undoes', async () => {
    const SESSION = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
    const RESUME = '4448b5b7-52dd-4503-adc9-aabd237237f8'
    const home = temp('cc-own')
    cpSync(join(ROOT, 'fixtures/real/claude-code/home'), home, { recursive: true })
    const proj = join(temp('cc-proj'), 'ledger-api')
    projectFromBundle(join(ROOT, 'fixtures/real/claude-code/project.bundle'), proj)
    const file = join(home, '.claude/projects/-home-ana-src-ledger-api', `${SESSION}.jsonl`)
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('/home/ana/src/ledger-api', proj))
    const before = '# Notes\r\n\r\nTODO: later\r\n'
    writeFileSync(join(proj, 'NOTES.md'), before)
    const backupV2 = readFileSync(join(home, '.claude/file-history', SESSION, '657b1f1da8359986@v2'))

    const server = await startApp([], { ownHome: home, appDataDir: temp('data') })
    servers.push(server)
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', bypassCSP: true })
    await page.goto(server.url)
    await openSession(page, SESSION)
    await page.getByTestId('checkpoints-button').click()
    const dialog = page.getByTestId('checkpoints-dialog')
    await poll(() => dialog.getByTestId('checkpoint-row').count()).toBe(2)
    expect(await dialog.getByTestId('restore-into').innerText()).toContain(proj)
    expect(await dialog.getByTestId('checkpoint-folder').count()).toBe(0)
    await page.screenshot({ path: join(shots, 'checkpoints-list.png') })

    await dialog.locator(`[data-testid="checkpoint-row"][data-checkpoint-id="${RESUME}"]`).getByTestId('checkpoint-preview').click()
    const notes = dialog.locator('[data-testid="restore-file"][data-path="NOTES.md"]')
    await notes.waitFor()
    expect(await notes.getAttribute('data-status')).toBe('modified')
    const submit = dialog.getByTestId('restore-submit')
    expect(await submit.innerText()).toBe('Restore 1 file')
    await submit.click()
    // The project folder came from the session's store: the user allows it once.
    await dialog.getByTestId('allow-once-button').click()
    const result = dialog.getByTestId('restore-result')
    await result.waitFor()
    expect(readFileSync(join(proj, 'NOTES.md')).equals(backupV2)).toBe(true)

    await result.getByTestId('undo-restore').click()
    await result.getByTestId('undo-result').waitFor()
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe(before)
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: join(shots, 'checkpoints-undone-dark.png') })
    await page.close()
  }, 120_000)
})
