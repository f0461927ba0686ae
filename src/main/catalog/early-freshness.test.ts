/**
 * The CLI's early freshness check (`early-freshness.ts`): a worker started with the process stats
 * the snapshots' paths while the modules load; the first refresh takes its answer only for the
 * snapshot text it read itself, and every change made before the check is still seen. Homes are
 * copies of the real fixture homes (as in `freshness.test.ts`); the worker runs from the sources.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { searchCatalog } from '../search/search'
import { coreFreeFor, EARLY_CATALOG_FILE, EARLY_SLOTS, type EarlyMessage, earlyFreshnessReport, runnableNow, resetEarlyFreshness, startEarlyCheck, startEarlyFreshness, whenEarlyDone } from './early-freshness'
import { snapshotKey, type FreshnessSnapshot } from './freshness'
import { CATALOG_FILE } from './schema'
import { sourceWorkerCode } from '../util/worker-entry'
import { appendUserLine as appendFixtureLine, copyFreshHome, FRESH_SESSION, listFresh, openFresh } from '../../../tests/helpers/fresh-home'

const SESSION = FRESH_SESSION

let dir: string
let home: string
let dbPath: string
let projectDir: string

beforeEach(() => {
  resetEarlyFreshness()
  dir = mkdtempSync(join(tmpdir(), 'sepia-early-'))
  home = join(dir, 'home')
  dbPath = join(dir, 'data', CATALOG_FILE)
  projectDir = copyFreshHome(home)
})
afterEach(() => {
  resetEarlyFreshness()
  rmSync(dir, { recursive: true, force: true })
})

/** A library on the catalog: Claude Code and Cline (both keep snapshots), discoveries counted. */
const open = () => openFresh(home, dbPath)

/** `sepia list`: a fresh library's first load. */
const list = () => listFresh(home, dbPath)

/** A new CLI process: its early check started (a new module state), then its first list. */
async function listWithEarlyCheck(workerFile?: string): Promise<Awaited<ReturnType<typeof list>>> {
  resetEarlyFreshness()
  expect(startEarlyCheck(dbPath, [home], workerFile)).toBe(true)
  return list()
}

const appendUserLine = (text: string): void => appendFixtureLine(projectDir, text, '00000000-0000-4000-8000-000000000002')

const keys = (): { claude: string; cline: string } => ({ claude: snapshotKey(home, 'claude-code'), cline: snapshotKey(home, 'cline') })
const ids = (sessions: { agent: string; id: string; messageCount: number }[]): string[] => sessions.map((s) => `${s.agent}/${s.id}/${s.messageCount}`).sort()

describe('early freshness check', () => {
  it('nothing changed: the first refresh takes the worker answers, discovers nothing and lists the same sessions', async () => {
    const first = await list()
    const second = await listWithEarlyCheck()
    expect(second.discoveries.size).toBe(0)
    expect(earlyFreshnessReport().used.sort()).toEqual([keys().claude, keys().cline].sort())
    expect(ids(second.sessions)).toEqual(ids(first.sessions))
  }, 60_000)

  it('a line appended after the snapshot is seen by the next list and found by the next search, with the early check', async () => {
    const before = (await list()).sessions.find((s) => s.id === SESSION)!
    appendUserLine('kingfisher appended after the snapshot')
    const after = await listWithEarlyCheck()
    expect(after.discoveries.get('claude-code')).toBe(1)
    expect(after.discoveries.get('cline')).toBeUndefined()
    expect(earlyFreshnessReport().used).toContain(keys().claude) // its answer: changed
    expect(after.sessions.find((s) => s.id === SESSION)!.messageCount).toBe(before.messageCount + 1)
    appendUserLine('kingfisher twice') // and once more, for a search process with its own early check
    resetEarlyFreshness()
    startEarlyCheck(dbPath, [home])
    const { lib } = await open()
    await lib.prepare({ partial: true })
    await lib.whenIdle()
    const hits = searchCatalog(lib.db, lib.homePaths, 'kingfisher', {}, lib.store.ftsPending()).hits
    await lib.close()
    expect(hits.map((h) => h.sessionId)).toEqual([SESSION])
  }, 60_000)

  it('the answer is not used for a snapshot text the worker did not check', async () => {
    await list()
    resetEarlyFreshness()
    startEarlyCheck(dbPath, [home])
    await whenEarlyDone() // the worker read and checked the snapshots as they were
    // Then another process rewrote the Claude Code snapshot: one signature it recorded is not the file's.
    const db = new Database(dbPath)
    const snap = JSON.parse((db.prepare('SELECT value FROM meta WHERE key = ?').get(keys().claude) as { value: string }).value) as FreshnessSnapshot
    const i = snap.entries.findIndex(([p]) => p.endsWith(`${SESSION}.jsonl`))
    snap.entries[i] = [snap.entries[i]![0], 'f:1:1:1']
    db.prepare('UPDATE meta SET value = ? WHERE key = ?').run(JSON.stringify(snap), keys().claude)
    db.close()
    const after = await list()
    expect(earlyFreshnessReport().ignored).toEqual([keys().claude])
    expect(earlyFreshnessReport().used).toEqual([keys().cline])
    expect(after.discoveries.get('claude-code')).toBe(1) // checked here: the rewritten signature differs
    expect(after.discoveries.get('cline')).toBeUndefined()
  }, 60_000)

  it('a worker that cannot start, or fails, leaves the check to the refresh', async () => {
    const first = await list()
    const missing = await listWithEarlyCheck(join(dir, 'no-such-worker.js'))
    expect(missing.discoveries.size).toBe(0)
    expect(earlyFreshnessReport().used).toEqual([])
    expect(ids(missing.sessions)).toEqual(ids(first.sessions))
    // A catalog the worker cannot read: it posts its failure, and the refresh checks its own catalog.
    writeFileSync(join(dir, 'not-a-catalog.sqlite'), 'not sqlite')
    resetEarlyFreshness()
    expect(startEarlyCheck(join(dir, 'not-a-catalog.sqlite'), [home])).toBe(true)
    const failed = await list()
    expect(failed.discoveries.size).toBe(0)
    expect(earlyFreshnessReport().used).toEqual([])
    expect(earlyFreshnessReport().ignored.sort()).toEqual([keys().claude, keys().cline].sort())
    expect(ids(failed.sessions)).toEqual(ids(first.sessions))
  }, 60_000)

  it('only the first refresh of the process takes the answers: a later one checks on its own', async () => {
    const before = (await list()).sessions.find((s) => s.id === SESSION)!
    resetEarlyFreshness()
    startEarlyCheck(dbPath, [home])
    const { lib, discoveries } = await open()
    await lib.load()
    expect(discoveries.size).toBe(0)
    appendUserLine('a later refresh sees this')
    await lib.refresh()
    const library = await lib.load()
    await lib.close()
    expect(discoveries.get('claude-code')).toBe(1)
    expect(library.sessions.find((s) => s.id === SESSION)!.messageCount).toBe(before.messageCount + 1)
  }, 60_000)

  it('starts when a core is free for the worker: from the tasks runnable now on Linux, else the 1-minute load', () => {
    expect(runnableNow('1.20 1.05 0.90 1/180 4242\n')).toBe(1)
    expect(runnableNow('7.63 7.50 4.96 13/179 4242\n')).toBe(13)
    expect(runnableNow('')).toBeUndefined()
    // 2 cores: this thread alone runnable leaves one for the worker, whatever the (lagging) average says.
    expect(coreFreeFor(1, 1.2, 2)).toBe(true)
    expect(coreFreeFor(2, 0.1, 2)).toBe(false)
    expect(coreFreeFor(3, 0.5, 4)).toBe(true)
    expect(coreFreeFor(4, 0.5, 4)).toBe(false)
    // No count (macOS, Windows): the average as before.
    expect(coreFreeFor(undefined, 0.9, 2)).toBe(true)
    expect(coreFreeFor(undefined, 1.1, 2)).toBe(false)
  })

  it('starts for the commands that refresh first, with a catalog that exists, for the --home folders', async () => {
    expect(EARLY_CATALOG_FILE).toBe(CATALOG_FILE)
    const env = { ...process.env, SEPIA_DATA_DIR: join(dir, 'data'), SEPIA_EARLY_FRESHNESS: '1' }
    expect(startEarlyFreshness(['search', 'x', '--home', home], env)).toBe(false) // no catalog yet
    await list()
    resetEarlyFreshness() // a new process
    expect(startEarlyFreshness(['--version'], env)).toBe(false)
    expect(startEarlyFreshness(['serve', '--home', home], env)).toBe(false)
    expect(startEarlyFreshness(['search', 'x', '--home', home], { ...env, SEPIA_EARLY_FRESHNESS: '0' })).toBe(false) // turned off
    expect(startEarlyFreshness(['search', 'x', '--home', home], env)).toBe(true)
    const second = await list()
    expect(second.discoveries.size).toBe(0)
    expect(earlyFreshnessReport().used.length).toBe(2)
  }, 60_000)

  it('the worker posts every snapshot before it checks any, so the refresh can help with any of them at once', async () => {
    await list()
    const shared = new SharedArrayBuffer(EARLY_SLOTS * 3 * 4)
    const worker = new Worker(sourceWorkerCode(new URL('./early-freshness.ts', import.meta.url).href, './early-freshness-worker.ts'), { eval: true, workerData: { dbPath, homes: [home], shared } })
    const messages: EarlyMessage[] = []
    await new Promise<void>((done, fail) => {
      worker.on('message', (m: EarlyMessage) => {
        messages.push(m)
        if (m.type === 'done' || m.type === 'failed') done()
      })
      worker.on('error', fail)
    })
    await worker.terminate()
    const types = messages.map((m) => (m.type === 'snapshot' || m.type === 'checked' ? `${m.type}:${m.key}` : m.type))
    expect(types.filter((t) => t.startsWith('snapshot:')).sort()).toEqual([`snapshot:${keys().claude}`, `snapshot:${keys().cline}`].sort())
    expect(types.filter((t) => t.startsWith('checked:')).sort()).toEqual([`checked:${keys().claude}`, `checked:${keys().cline}`].sort())
    expect(types.findIndex((t) => t.startsWith('checked:'))).toBeGreaterThan(types.map((t) => t.startsWith('snapshot:')).lastIndexOf(true))
    expect(types.at(-1)).toBe('done')
    // Each slot was checked whole and found unchanged.
    const counts = new Int32Array(shared)
    for (const m of messages) if (m.type === 'snapshot') expect([counts[m.slot * 3 + 1], counts[m.slot * 3 + 2]]).toEqual([m.count, 0])
  }, 60_000)
})
