/**
 * Issue 17 "Done when": one continuous first run, as a new user walks it in browser mode.
 *
 * A fresh, empty temporary HOME (no agent history) and a fresh data folder: the app opens on the
 * demo library and the first-start welcome says nothing was found and offers the demo; "Look at
 * the demo" closes it onto a demo with 0 problems (no problems banner, no row badge). The user
 * opens a Claude Code demo session, finds a word in it with Ctrl/Cmd-F (highlighted matches,
 * next and previous), then restores a checkpoint into a folder they TYPE: Sepia asks "Allow
 * once" first, the preview lists the file, and after the restore the file is on disk in that
 * folder, byte for byte what the checkpoint holds (read here from the raw Claude Code store:
 * the session's `file-history-snapshot` record and its `file-history` backup file).
 *
 * Automated browsers get the welcome only with `sepia.welcome.force` (src/renderer/src/welcome.ts).
 * Every wait is on a condition, never a fixed time. Screenshots: test-results/first-run-*.png.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { violations } from './axe'
import { browserSkipReason, launchChromium, ROOT, startApp, tempFolder } from './helpers'

const skip = browserSkipReason()
if (skip) console.warn(`Skipping browser tests: ${skip}`)

/** `expect.poll` with room for a loaded machine (15 s instead of 1 s). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 })

/** The Claude Code demo home (fixtures/real/claude-code: a store the real CLI wrote). */
const CC_HOME = join(ROOT, 'fixtures/real/claude-code/home')
const SESSION = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
const SESSION_FILE = join(CC_HOME, '.claude/projects/-home-ana-src-ledger-api', `${SESSION}.jsonl`)
/** The checkpoint before the "[resume]" prompt: NOTES.md as the first run left it. */
const CHECKPOINT = '4448b5b7-52dd-4503-adc9-aabd237237f8'
/** A word of the session's own text, in more than one message. */
const WORD = 'NOTES.md'

interface Backup {
  backupFileName: string | null
}

/**
 * Independent reading of the checkpoint: the `file-history-snapshot` record whose messageId is
 * the checkpoint, and for each tracked file (path relative to the project) the bytes of its backup
 * in `~/.claude/file-history/<session>/`.
 */
function checkpointFiles(): Map<string, Buffer> {
  const out = new Map<string, Buffer>()
  for (const line of readFileSync(SESSION_FILE, 'utf8').split('\n')) {
    if (!line.trim()) continue
    const r = JSON.parse(line) as { type?: string; messageId?: string; snapshot?: { trackedFileBackups?: Record<string, Backup> } }
    if (r.type !== 'file-history-snapshot' || r.messageId !== CHECKPOINT) continue
    for (const [path, b] of Object.entries(r.snapshot?.trackedFileBackups ?? {})) {
      if (b.backupFileName) out.set(path, readFileSync(join(CC_HOME, '.claude/file-history', SESSION, b.backupFileName)))
    }
  }
  return out
}

/** Every file under `dir`, as paths relative to it (forward slashes). */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  )
}

describe.skipIf(skip !== undefined)('first run, in one walk', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let server: HttpServerHandle
  const home = tempFolder('first-run-home')
  const dataDir = tempFolder('first-run-data')
  const typedRoot = tempFolder('first-run-target')
  const shots = join(ROOT, 'test-results')
  const shot = (name: string) => page.screenshot({ path: join(shots, `first-run-${name}.png`) })
  const highlights = (name: string): Promise<number> =>
    page.evaluate((n) => (CSS as unknown as { highlights: Map<string, { size: number }> }).highlights.get(n)?.size ?? 0, name)

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    server = await startApp([], { ownHome: home, appDataDir: dataDir })
    browser = await launchChromium()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', bypassCSP: true })
    await context.addInitScript(() => localStorage.setItem('sepia.welcome.force', '1'))
    page = await context.newPage()
  })

  afterAll(async () => {
    try {
      await browser?.close()
      await server?.close()
    } finally {
      for (const d of [home, dataDir, typedRoot]) rmSync(d, { recursive: true, force: true })
    }
  })

  it('welcome -> demo with 0 problems -> a session -> find in it -> restore into a typed folder, allowed once', async () => {
    // The HOME is empty: there is nothing of the user's to find.
    expect(readdirSync(home)).toEqual([])
    const expected = checkpointFiles()
    expect([...expected.keys()]).toEqual(['NOTES.md'])

    // 1. First start: the welcome says nothing was found and offers the demo.
    await page.goto(server.url)
    const welcome = page.getByTestId('welcome-dialog')
    await welcome.waitFor({ state: 'visible', timeout: 60_000 })
    expect(await welcome.getByTestId('welcome-nothing').innerText()).toContain('found no conversations')
    expect(await welcome.getByTestId('welcome-open-folder').isVisible()).toBe(true)
    const demo = welcome.getByTestId('welcome-demo')
    expect(await demo.isVisible()).toBe(true)
    await shot('welcome')
    expect(await violations(page, '[data-testid="welcome-dialog"]')).toEqual([])
    await demo.click()
    await welcome.waitFor({ state: 'hidden' })

    // 2. The demo library, with 0 problems: no banner over the library, no problem badge on a row.
    await page.getByTestId('library').waitFor()
    await poll(() => page.getByTestId('demo-badge').isVisible()).toBe(true)
    const row = page.locator(`[data-testid="session-row"][data-session-id="${SESSION}"]`)
    await row.waitFor({ timeout: 60_000 })
    await poll(() => page.getByTestId('session-row').count()).toBeGreaterThan(1)
    expect(await page.getByTestId('diagnostics-banner').count()).toBe(0)
    expect(await page.getByTestId('row-problems').count()).toBe(0)
    expect(await page.getByText('could not be read completely').count()).toBe(0)
    await shot('demo')

    // 3. Open a session.
    await row.click()
    await page.locator(`[data-testid="session-actions"][data-session-id="${SESSION}"]`).waitFor({ timeout: 30_000 })
    await poll(() => page.getByTestId('session-view').getAttribute('data-complete')).toBe('true')

    // 4. Find in the session: Ctrl/Cmd-F, highlighted matches, next and previous.
    await page.getByTestId('session-view').click({ position: { x: 5, y: 5 } })
    await page.keyboard.press(process.platform === 'darwin' ? 'Meta+f' : 'Control+f')
    const input = page.getByTestId('find-input')
    await input.waitFor()
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('find-input')
    await input.fill(WORD)
    const count = page.getByTestId('find-count')
    await poll(() => count.innerText()).toMatch(/^1 of \d+/)
    const total = Number(/^1 of (\d+)/.exec(await count.innerText())![1])
    expect(total).toBeGreaterThan(1)
    const current = page.locator('[data-testid="message"][data-focused="true"]')
    const focusedNode = () => current.getAttribute('data-node-id')
    /** The current match is on screen, highlighted (also one in a folded thinking or tool card). */
    const seesMatch = async (k: number): Promise<void> => {
      await poll(() => count.innerText()).toBe(`${k} of ${total}`)
      await poll(() => current.count()).toBe(1)
      await poll(() => highlights('sepia-find-current')).toBeGreaterThanOrEqual(1)
      expect((await current.innerText()).toLowerCase()).toContain(WORD.toLowerCase())
    }
    await seesMatch(1)
    const first = await focusedNode()
    // Next through every match and around to the first again; then previous.
    for (let k = 2; k <= total; k++) {
      await page.getByTestId('find-next').click()
      await seesMatch(k)
      if (k === 2) await shot('find')
    }
    await input.press('Enter')
    await seesMatch(1)
    expect(await focusedNode()).toBe(first)
    await input.press('Shift+Enter')
    await seesMatch(total)
    await page.getByTestId('find-prev').click()
    await seesMatch(total - 1)
    await input.press('Escape')
    await poll(() => page.getByTestId('find-bar').count()).toBe(0)

    // 5. Restore a checkpoint into a folder the user types, with the "Allow once" step.
    const target = join(typedRoot, 'ledger-api-copy')
    mkdirSync(target)
    await page.getByTestId('checkpoints-button').click()
    const dialog = page.getByTestId('checkpoints-dialog')
    await dialog.waitFor()
    await poll(() => dialog.getByTestId('checkpoint-row').count()).toBeGreaterThan(0)
    // The recorded project (/home/ana/src/ledger-api) is not in the temp HOME; if this machine
    // happens to have it, the dialog offers "another folder" instead of asking for one.
    if ((await dialog.getByTestId('checkpoint-folder').count()) === 0) await dialog.getByTestId('checkpoint-other-folder').click()
    await dialog.getByTestId('checkpoint-target-input').fill(target)
    await dialog.getByTestId('checkpoint-target-use').click()
    const allow = dialog.getByTestId('allow-once')
    await allow.waitFor()
    expect(await allow.innerText()).toContain(target)
    await shot('allow-once')
    expect(await violations(page, '[data-testid="checkpoints-dialog"]')).toEqual([])
    // Nothing is written before the user allows it.
    expect(readdirSync(target)).toEqual([])
    await dialog.getByTestId('allow-once-button').click()
    await allow.waitFor({ state: 'hidden' })
    await poll(() => dialog.getByTestId('restore-into').innerText()).toContain(target)

    const cp = dialog.locator(`[data-testid="checkpoint-row"][data-checkpoint-id="${CHECKPOINT}"]`)
    await poll(() => cp.getByTestId('checkpoint-preview').isEnabled()).toBe(true)
    await cp.getByTestId('checkpoint-preview').click()
    const preview = dialog.getByTestId('restore-preview')
    await preview.waitFor()
    expect(await preview.getByTestId('restore-target').innerText()).toBe(target)
    for (const path of expected.keys()) {
      expect(await preview.locator(`[data-testid="restore-file"][data-path="${path}"]`).getByTestId('restore-file-check').isChecked()).toBe(true)
    }
    const submit = dialog.getByTestId('restore-submit')
    await poll(() => submit.isEnabled()).toBe(true)
    await submit.click()
    const result = dialog.getByTestId('restore-result')
    await result.waitFor({ timeout: 30_000 })
    await shot('restored')
    expect((await result.getByTestId('restore-written').allInnerTexts()).sort()).toEqual([...expected.keys()].sort())

    // On disk, in the typed folder: exactly the checkpoint's files, byte for byte.
    expect(filesUnder(target).sort()).toEqual([...expected.keys()].sort())
    for (const [path, bytes] of expected) expect(readFileSync(join(target, path)).equals(bytes)).toBe(true)
    // Nothing was written into the empty HOME.
    expect(existsSync(join(home, '.claude'))).toBe(false)
    await page.keyboard.press('Escape')
    await poll(() => dialog.isVisible()).toBe(false)
  }, 240_000)
})
