/**
 * HTML and PDF exports in a real Chromium (Debian's, through playwright-core): the HTML page
 * makes no request but for itself, runs no script, folds tool calls and thinking; the PDF holds
 * the session's first prompt as text. Skipped when no Chromium is installed.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { Session } from '../../shared/ir'
import { claudeCode } from '../agents/claude-code'
import { cline } from '../agents/cline'
import { readAgentHome } from '../../../tests/helpers/read-home'
import { fallbackPdfText, hasPdfToText, pdfText } from '../../../tests/helpers/pdf-text'
import { browserSkipReason, CHROMIUM, launchChromium } from '../../../tests/e2e/helpers'
import { findAppRoot } from '../context'
import { sessionToHtml, EXPORT_CSP } from './html'
import { chromiumCandidates, findChromium, openPdfPrinter } from './pdf'
import { renderExport, type ExportDeps } from './index'

const ROOT = findAppRoot()
const FIRST_PROMPT = '[tools] List the files, then create NOTES.md and mark its TODO line as done.'
const noChromium = existsSync(CHROMIUM) ? undefined : browserSkipReason()
const DEPS: ExportDeps = { exportedBy: 'Sepia test', now: () => 1_800_000_000_000, pdf: { os: 'linux', env: { CHROMIUM_PATH: CHROMIUM } } }

let sessions: Session[] = []
const tools = () => sessions.find((s) => s.id === 'c79310a4-1627-4beb-8788-81d2e0fc6af8')!

beforeAll(async () => {
  sessions = (await readAgentHome(claudeCode, join(ROOT, 'fixtures/real/claude-code/home'))).sessions
  sessions.push(...(await readAgentHome(cline, join(ROOT, 'fixtures/real/cline/home'))).sessions)
})

describe('PDF engine lookup', () => {
  it('tries CHROMIUM_PATH first, then the usual install places of the OS', () => {
    expect(chromiumCandidates('linux', { CHROMIUM_PATH: '/opt/c/chrome' }).slice(0, 2)).toEqual(['/opt/c/chrome', '/usr/bin/chromium'])
    expect(chromiumCandidates('darwin', {})[0]).toBe('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome')
    expect(chromiumCandidates('win32', { LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' })).toContain('C:\\Users\\ana\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe')
    expect(findChromium('linux', {}, (p) => p === '/usr/bin/google-chrome')).toBe('/usr/bin/google-chrome')
    expect(findChromium('linux', {}, () => false)).toBeUndefined()
  })

  it('says plainly that PDF needs Chromium when there is none', async () => {
    // macOS paths do not exist on this machine, and no CHROMIUM_PATH is given.
    await expect(openPdfPrinter({ os: 'darwin', env: {} })).rejects.toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('PDF export needs Chromium or Google Chrome') })
  })

  it('uses the host printer (Electron) when there is one', async () => {
    const printed: string[] = []
    const r = await renderExport(tools(), 'pdf', {}, { ...DEPS, pdf: { os: 'darwin', env: {}, printToPdf: async (html) => (printed.push(html), new Uint8Array([37, 80, 68, 70])) } })
    expect(Buffer.from(r.data as Uint8Array).toString('latin1')).toBe('%PDF')
    expect(printed[0]).toContain('<details class="tool" open>')
  })
})

describe.skipIf(noChromium !== undefined)('in Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
  })

  async function open(html: string, reuse?: Page) {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-html-'))
    const file = join(dir, 'export.html')
    writeFileSync(file, html)
    const url = pathToFileURL(file).href
    const page = reuse ?? (await browser.newPage())
    const requests: string[] = []
    const csp: string[] = []
    page.removeAllListeners('request')
    page.removeAllListeners('console')
    page.on('request', (r) => requests.push(r.url()))
    page.on('console', (m) => {
      if (/Content Security Policy|Refused/i.test(m.text())) csp.push(m.text())
    })
    await page.goto(url, { waitUntil: 'load' })
    return { page, url, requests, csp }
  }

  it('the HTML export opens offline: no request but the file itself, no script, folded details', async () => {
    const shared = await browser.newPage()
    for (const s of sessions) {
      const { page, url, requests, csp } = await open(sessionToHtml(s, { generator: 'Sepia test', exportedAt: 0 }), shared)
      expect(requests, `${s.agent}/${s.id}`).toEqual([url])
      expect(csp).toEqual([])
      expect(await page.locator('script').count()).toBe(0)
    }
    await shared.close()
    const { page } = await open(sessionToHtml(tools()))
    expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(EXPORT_CSP)
    expect(await page.locator('h1').innerText()).toBe(FIRST_PROMPT)
    const tool = page.locator('details.tool').first()
    expect(await tool.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false)
    expect(await tool.locator('pre').first().isVisible()).toBe(false)
    await tool.locator('summary').click()
    expect(await tool.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true)
    expect(await tool.innerText()).toContain('Makefile')
    expect(await page.locator('details.thinking').count()).toBe(1)
    // The inline style sheet applied (CSP allows it by hash): messages are cards.
    expect(await page.locator('article.msg').first().evaluate((e) => (globalThis as unknown as { getComputedStyle(x: unknown): { borderRadius: string } }).getComputedStyle(e).borderRadius)).toBe('8px')
    await page.close()
  })

  it('remote images, raw HTML and scripts in a transcript stay text and load nothing', async () => {
    const s = structuredClone(tools())
    s.nodes[0]!.content = 'look ![logo](https://example.com/logo.png) <img src="https://example.com/x.png"> <script>document.title="pwned"</script> [site](https://example.com)'
    const { page, url, requests, csp } = await open(sessionToHtml(s))
    expect(requests).toEqual([url])
    expect(csp).toEqual([])
    expect(await page.title()).not.toBe('pwned')
    expect(await page.locator('article.msg').first().innerText()).toContain('<script>document.title="pwned"</script>')
    expect(await page.locator('img').count()).toBe(0)
    await page.close()
  })

  it('the PDF export holds the first prompt as text', async () => {
    const r = await renderExport(tools(), 'pdf', {}, DEPS)
    const bytes = r.data as Uint8Array
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-')
    expect(r.fileName.endsWith('.pdf')).toBe(true)
    const text = pdfText(bytes)
    expect(text).toContain('List the files, then create NOTES.md')
    expect(text).toContain('ls -la') // tool calls are open in print
  })

  it(`the fallback PDF reader finds the prompt too (pdftotext ${hasPdfToText() ? 'is' : 'is not'} installed)`, async () => {
    const r = await renderExport(tools(), 'pdf', { includeToolOutput: false }, DEPS)
    expect(fallbackPdfText(r.data as Uint8Array)).toContain('List the files, then create NOTES.md')
  })
})
