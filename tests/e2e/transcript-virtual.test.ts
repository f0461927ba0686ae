/**
 * Issues 15 and 17, in a real browser: a long Claude Code session (generated here into a temp
 * HOME: TURNS turns of prompt, tool call, tool result, answer) opens with its first rows, the
 * transcript is a virtual list (the page's element count stays bounded from the top to the end),
 * an open session whose rows are loaded runs no interval timers, Ctrl-F finds a word that sits in a folded tool result deep in the session (the card opens and
 * the word is highlighted), and Ctrl-G opens a session by its id.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { browserSkipReason, launchChromium, startApp, tempFolder } from './helpers'

const skip = browserSkipReason()
const waitFor = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 100 })
if (skip) console.warn(`Skipping browser tests: ${skip}`)

const TURNS = 3000
const NEEDLE_TURN = 2400
const NEEDLE = 'quokkaneedle'
/** Elements in the whole page; the transcript must not add rows without bound. */
const MAX_ELEMENTS = 5000
const SESSION_ID = '5e551011-0000-4000-8000-00000000b16b'
const OTHER_ID = '0ther000-0000-4000-8000-000000000001'

/** One Claude Code JSONL session (the record shapes of fixtures/real/claude-code). */
function writeSession(dir: string, id: string, turns: number): string {
  const cwd = '/tmp/virtual-project'
  const lines: string[] = []
  let parent: string | null = null
  let t = Date.UTC(2026, 0, 1)
  const rec = (uuid: string, type: string, message: unknown): void => {
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId: id, version: '2.1.0', uuid, timestamp: new Date((t += 1000)).toISOString(), type, message }))
    parent = uuid
  }
  for (let i = 0; i < turns; i++) {
    const u = (k: number) => `${id.slice(0, 8)}-${String(i).padStart(4, '0')}-4000-8000-${String(k).padStart(12, '0')}`
    rec(u(1), 'user', { role: 'user', content: `Turn ${i}: please look at file${i}.ts and tell me what it does.` })
    rec(u(2), 'assistant', { id: `msg_${i}a`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `cat file${i}.ts` } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } })
    const out = i === NEEDLE_TURN ? `line one\nexport const animal = '${NEEDLE}'\n` : `export const value${i} = ${i}\n`
    rec(u(3), 'user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: out }] })
    rec(u(4), 'assistant', { id: `msg_${i}b`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: i === turns - 1 ? 'This is the end of the long session.' : `file${i}.ts exports one constant.` }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } })
  }
  const file = join(dir, `${id}.jsonl`)
  writeFileSync(file, lines.join('\n') + '\n')
  return file
}

describe.skipIf(skip !== undefined)('virtual transcript, find in session, open by id', () => {
  let server: HttpServerHandle
  let browser: Browser
  let page: Page
  const home = tempFolder('virtual-home')
  const dataDir = tempFolder('virtual-data')
  let file = ''

  beforeAll(async () => {
    const dir = join(home, '.claude', 'projects', '-tmp-virtual-project')
    mkdirSync(dir, { recursive: true })
    file = writeSession(dir, SESSION_ID, TURNS)
    writeSession(dir, OTHER_ID, 3)
    process.env.SEPIA_DATA_DIR = dataDir
    server = await startApp([home], { ownHome: home, appDataDir: dataDir })
    browser = await launchChromium()
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })
    // Count the page's running interval timers (an idle open session must run none: issue 15).
    await context.addInitScript(() => {
      const w = window as unknown as { __intervals: Set<unknown> }
      w.__intervals = new Set()
      const set = window.setInterval.bind(window)
      const clear = window.clearInterval.bind(window)
      window.setInterval = ((fn: TimerHandler, ms?: number, ...rest: unknown[]) => {
        const id = set(fn, ms, ...rest)
        w.__intervals.add(id)
        return id
      }) as typeof window.setInterval
      window.clearInterval = ((id?: number) => {
        w.__intervals.delete(id)
        clear(id)
      }) as typeof window.clearInterval
    })
    page = await context.newPage()
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
    await page.locator('[data-testid="session-row"]').nth(1).waitFor({ timeout: 60_000 })
  }, 120_000)

  afterAll(async () => {
    if (process.env.SHOT) await page?.screenshot({ path: process.env.SHOT }).catch(() => undefined)
    await browser?.close()
    await server?.close()
    delete process.env.SEPIA_DATA_DIR
    rmSync(home, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })

  const transcript = () => page.getByTestId('transcript')
  const n = (x: number) => x.toLocaleString('en-US')
  const elements = () => page.evaluate(() => document.getElementsByTagName('*').length)

  it('Ctrl-G opens a session by id; the first rows show and the page stays small', async () => {
    // Read independently of Sepia: the generated file has 4 lines per turn.
    expect(readFileSync(file, 'utf8').trim().split('\n').length).toBe(TURNS * 4)
    await page.locator('body').click({ position: { x: 900, y: 700 } })
    await page.keyboard.press('Control+g')
    await page.getByTestId('open-by-id-input').fill(SESSION_ID)
    await page.getByTestId('open-by-id-submit').click()
    await waitFor(() => page.getByTestId('session-view').getAttribute('data-complete')).toBe('true')
    await waitFor(() => transcript().getByText('Turn 0: please look at file0.ts').count()).toBe(1)
    expect(await elements()).toBeLessThan(MAX_ELEMENTS)
  }, 120_000)

  it('an open session whose rows are all loaded runs no interval timers (nothing polls while idle)', async () => {
    await waitFor(() => page.getByTestId('session-view').getAttribute('data-complete')).toBe('true')
    await waitFor(() => page.evaluate(() => (window as unknown as { __intervals: Set<unknown> }).__intervals.size)).toBe(0)
  }, 120_000)

  it('scrolling to the end keeps the element count bounded', async () => {
    const view = page.getByTestId('session-view')
    let max = 0
    // Twenty jumps from the top to the bottom, then to the bottom until the last row is there
    // (row heights are measured as they render, so the total height settles on the way).
    for (let step = 1; step <= 20; step++) {
      await view.evaluate((el, f) => el.scrollTo(0, el.scrollHeight * f), step / 20)
      await waitFor(() => view.getAttribute('data-complete')).toBe('true')
      max = Math.max(max, await elements())
    }
    await waitFor(async () => {
      await view.evaluate((el) => el.scrollTo(0, el.scrollHeight))
      return transcript().getByText('This is the end of the long session.').count()
    }).toBe(1)
    max = Math.max(max, await elements())
    expect(max).toBeLessThan(MAX_ELEMENTS)
    // Far rows are gone: the first prompt is not in the page any more.
    expect(await transcript().getByText('Turn 0: please look at file0.ts').count()).toBe(0)
  }, 120_000)

  it('Ctrl-F finds a word in a folded tool result, opens its card and highlights it', async () => {
    await page.getByTestId('session-view').evaluate((el) => el.scrollTo(0, 0))
    await page.keyboard.press('Control+f')
    const input = page.getByTestId('find-input')
    await input.waitFor()
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('find-input')
    await input.fill(NEEDLE)
    await waitFor(() => page.getByTestId('find-count').innerText()).toBe('1 of 1')
    const card = page.locator('[data-testid="tool-call"] details[open]').filter({ hasText: NEEDLE })
    await waitFor(() => card.count()).toBe(1)
    await waitFor(() => page.evaluate(() => (CSS as unknown as { highlights: Map<string, { size: number }> }).highlights.get('sepia-find-current')?.size ?? 0)).toBeGreaterThanOrEqual(1)
    await waitFor(() => page.locator('[data-testid="message"][data-focused="true"]').count()).toBe(1)
    expect(await elements()).toBeLessThan(MAX_ELEMENTS)
    // A word in every turn: next and previous step through the messages.
    await input.fill('exports one constant')
    await waitFor(() => page.getByTestId('find-count').innerText()).toBe(`1 of ${n(TURNS - 1)}`)
    await input.press('Enter')
    await waitFor(() => page.getByTestId('find-count').innerText()).toBe(`2 of ${n(TURNS - 1)}`)
    await input.press('Shift+Enter')
    await input.press('Shift+Enter')
    await waitFor(() => page.getByTestId('find-count').innerText()).toBe(`${n(TURNS - 1)} of ${n(TURNS - 1)}`)
    await waitFor(() => transcript().getByText(`file${TURNS - 2}.ts exports one constant.`).count()).toBe(1)
    await input.press('Escape')
    await waitFor(() => page.getByTestId('find-bar').count()).toBe(0)
  }, 120_000)
})
