/**
 * Issue 14, Health view, in a real browser: a home whose one Claude Code session has a line that
 * is not JSON (the problems banner shows), a folder named like a session file (skipped: the banner
 * marks its diagnostic so), two records of a type Sepia does not know and a tool
 * call with no result. The banner opens the Health view; it says in plain words what was read (the
 * summary `sepia doctor` prints for the same home), names the unknown type with its first file and
 * line, links the session, and "Report a problem" writes a masked copy into Sepia's data folder.
 * On a real published session (fixtures/public-real/claude-code/entire-215-api-errors) whose only
 * diagnostic is a note that lost nothing, the row, the banner and the Health view say the same.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/index'
import type { HealthReport } from '../../src/shared/health'
import type { HttpServerHandle } from '../../src/main/transport/http'
import { browserSkipReason, launchChromium, ROOT, startApp, tempFolder } from './helpers'

const skip = browserSkipReason()
const waitFor = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
if (skip) console.warn(`Skipping browser tests: ${skip}`)

const SID = '5b0e2f4a-1c3d-4e5f-8a9b-0c1d2e3f4a5b'

async function doctor(home: string): Promise<HealthReport> {
  let out = ''
  const sink = new Writable({
    write(chunk, _enc, cb) {
      out += String(chunk)
      cb()
    },
  })
  const err = new Writable({ write: (_c, _e, cb) => cb() })
  expect(await main(['doctor', '--json', '--home', home], sink, err)).toBe(0)
  return JSON.parse(out) as HealthReport
}

describe.skipIf(skip !== undefined)('health view', () => {
  let server: HttpServerHandle
  let browser: Browser
  let page: Page
  const home = tempFolder('health-home')
  const dataDir = tempFolder('health-data')
  const file = join(home, '.claude', 'projects', '-home-ana-app', `${SID}.jsonl`)
  let lines: string[]

  beforeAll(async () => {
    mkdirSync(join(home, '.claude', 'projects', '-home-ana-app'), { recursive: true })
    const base = { sessionId: SID, cwd: '/home/ana/app', version: '2.1.300' }
    lines = [
      JSON.stringify({ ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content: 'Fix the parser please' } }),
      '{"type":"assistant", this line is cut',
      JSON.stringify({ ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: '2026-11-01T10:00:01.000Z', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] } }),
      JSON.stringify({ ...base, type: 'brand-new-kind', uuid: 'x1' }),
      JSON.stringify({ ...base, type: 'brand-new-kind', uuid: 'x2' }),
    ]
    writeFileSync(file, lines.join('\n') + '\n')
    // A folder named like a session file: discovery skips it with a warning marked `skipped`.
    mkdirSync(join(home, '.claude', 'projects', '-home-ana-app', '6c1f3b5a-2d4e-4f60-9b0c-1d2e3f4a5b6c.jsonl'))
    server = await startApp([home], { appDataDir: dataDir })
    browser = await launchChromium()
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })).newPage()
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    rmSync(home, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('opens from the problems banner and says what was read, naming the unknown type and its line', async () => {
    const expected = await doctor(home)
    // Independent reading: the JSON lines, the unknown type's first line.
    const parsed = lines.flatMap((l) => {
      try {
        return [JSON.parse(l) as { type: string }]
      } catch {
        return []
      }
    })
    const firstUnknown = lines.findIndex((l) => l.includes('"brand-new-kind"')) + 1
    // Every line is one record (none glued here); the one that does not parse is a record cut short (skipped).
    expect(expected.totals.records).toBe(lines.length)
    expect(expected.totals.recordsUnreadable).toBe(lines.length - parsed.length)
    expect(expected.totals.recordsSkipped).toBe(lines.length - parsed.length + parsed.filter((r) => r.type === 'brand-new-kind').length)
    await page.getByTestId('diagnostics-banner').waitFor()
    // The folder named like a session file is skipped with only a warning: the banner marks that
    // diagnostic "skipped" (the cut line is an error), as sepia doctor counts it a skipped file.
    const banner = page.getByTestId('diagnostics-banner')
    expect(await banner.locator('.title').innerText()).toMatch(/could not be read completely/)
    expect(await banner.getByTestId('diagnostic-skipped').count()).toBe(1)
    expect(expected.totals.skippedFiles).toBe(1)
    await page.getByTestId('open-health').click()
    const view = page.getByTestId('health-view')
    await waitFor(() => page.getByTestId('health-summary').isVisible()).toBe(true)
    expect(await page.getByTestId('health-summary').innerText()).toBe(expected.summary)
    expect(expected.summary).toContain(`of your ${lines.length} records`)
    const text = await view.innerText()
    expect(text).toContain('2 "brand-new-kind" records of a kind Sepia does not read yet were skipped')
    expect(text).toContain(`${file}:${firstUnknown}`)
    expect(text).toContain('1 tool call with no recorded result (Bash)')
  })

  it('"Report a problem" writes a masked copy into the data folder; a problem opens its session', async () => {
    await page.getByTestId('health-report').first().click()
    await waitFor(() => page.getByTestId('health-reported').isVisible()).toBe(true)
    const reports = readdirSync(join(dataDir, 'reports'))
    expect(reports).toHaveLength(1)
    const copy = readFileSync(join(dataDir, 'reports', reports[0]!), 'utf8')
    expect(copy.trimEnd().split('\n')).toHaveLength(lines.length)
    expect(copy).not.toContain('/home/ana')
    await page.getByTestId('health-open-session').first().click()
    await waitFor(() => page.getByTestId('health-view').isVisible()).toBe(false)
    await waitFor(() => page.locator('main').innerText()).toContain('Fix the parser please')
  })
})

describe.skipIf(skip !== undefined)('a note that lost nothing, on a real published session', () => {
  let server: HttpServerHandle
  let browser: Browser
  let page: Page
  const home = tempFolder('health-note-home')
  const dataDir = tempFolder('health-note-data')
  const ID = 'b00b80af-879f-4265-b95b-48db0938673c'
  const file = join(home, '.claude/projects/-Users-soph-Work-entire-devenv-cli', `${ID}.jsonl`)

  beforeAll(async () => {
    cpSync(join(ROOT, 'fixtures/public-real/claude-code/entire-215-api-errors/home'), home, { recursive: true })
    server = await startApp([home], { appDataDir: dataDir })
    browser = await launchChromium()
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })).newPage()
    await page.goto(server.url)
    await page.getByTestId('library').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    rmSync(home, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('the row says "1 note", the banner "Nothing was left out", and the Health view lists no problem', async () => {
    // Independent reading: one record whose parentUuid names no record of the file (the checkpoint
    // starts mid-session), no line that is not JSON.
    const recs = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { uuid?: string; parentUuid?: string | null })
    const uuids = new Set(recs.map((r) => r.uuid))
    expect(recs.filter((r) => typeof r.parentUuid === 'string' && !uuids.has(r.parentUuid)).length).toBe(1)
    const row = page.locator(`[data-testid="session-row"][data-session-id="${ID}"]`)
    await row.waitFor({ timeout: 60_000 })
    await waitFor(() => row.getByTestId('row-notes').count()).toBe(1)
    expect(await row.getByTestId('row-notes').innerText()).toBe('1 note')
    expect(await row.getByTestId('row-notes').getAttribute('title')).toBe('1 note while reading this session. Nothing was left out.')
    expect(await row.getByTestId('row-problems').count()).toBe(0)
    const banner = page.getByTestId('diagnostics-banner')
    await banner.waitFor()
    expect(await banner.locator('.title').innerText()).toBe('1 note on 1 file while reading. Nothing was left out.')
    await page.getByTestId('open-health').click()
    await waitFor(() => page.getByTestId('health-summary').isVisible()).toBe(true)
    expect(await page.getByTestId('health-view').getByTestId('health-problem').count()).toBe(0)
  })
})
