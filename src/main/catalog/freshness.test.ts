/**
 * The freshness snapshot (`freshness.ts`): a one-shot command on a warm catalog skips the
 * discovery of an agent whose stores did not change, and sees every change made after the
 * snapshot (issue 15: results stay whole). Homes are copies of the real fixture homes; the
 * expected counts come from the raw files (lines appended, files added or removed here).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { searchCatalog } from '../search/search'
import { depsKey, recordDeps, unchanged, type FreshnessSnapshot } from './freshness'
import { appendUserLine as appendFixtureLine, copyFreshHome, FRESH_SESSION, listFresh, openFresh } from '../../../tests/helpers/fresh-home'

const SESSION = FRESH_SESSION

let dir: string
let home: string
let projectDir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sepia-fresh-'))
  home = join(dir, 'home')
  projectDir = copyFreshHome(home)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A new process on the same catalog: Claude Code and Cline with their snapshots, discoveries counted. */
const open = () => openFresh(home, join(dir, 'data', 'catalog.sqlite'))

/** `sepia list`: a fresh library's first load. */
const list = () => listFresh(home, join(dir, 'data', 'catalog.sqlite'))

/** A user line appended to the fixture transcript: its parent is the file's last line with a uuid and a time. */
const appendUserLine = (text: string): void => appendFixtureLine(projectDir, text, '00000000-0000-4000-8000-000000000001')

describe('freshness snapshot', () => {
  it('a warm list discovers nothing when nothing changed, and lists the same sessions', async () => {
    const first = await list()
    expect(first.discoveries.get('claude-code')).toBe(1)
    expect(first.discoveries.get('cline')).toBe(1)
    const second = await list()
    expect(second.discoveries.size).toBe(0)
    expect(second.sessions.map((s) => `${s.agent}/${s.id}/${s.messageCount}`).sort()).toEqual(first.sessions.map((s) => `${s.agent}/${s.id}/${s.messageCount}`).sort())
  })

  it('a line appended after the snapshot is seen by the next list and found by the next search', async () => {
    const before = (await list()).sessions.find((s) => s.id === SESSION)!
    appendUserLine('zebrafinch appended after the snapshot')
    const after = await list()
    expect(after.discoveries.get('claude-code')).toBe(1)
    expect(after.discoveries.get('cline')).toBeUndefined()
    expect(after.sessions.find((s) => s.id === SESSION)!.messageCount).toBe(before.messageCount + 1)
    const { lib } = await open()
    await lib.prepare({ partial: true })
    await lib.whenIdle()
    const hits = searchCatalog(lib.db, lib.homePaths, 'zebrafinch', {}, lib.store.ftsPending()).hits
    await lib.close()
    expect(hits.map((h) => h.sessionId)).toEqual([SESSION])
  })

  it('a session file added or removed after the snapshot is listed or dropped by the next list', async () => {
    const before = (await list()).sessions.filter((s) => s.agent === 'claude-code')
    const copy = '11111111-2222-4333-8444-555555555555'
    const text = readFileSync(join(projectDir, `${SESSION}.jsonl`), 'utf8').split(SESSION).join(copy)
    writeFileSync(join(projectDir, `${copy}.jsonl`), text)
    const added = (await list()).sessions.filter((s) => s.agent === 'claude-code')
    expect(added.length).toBe(before.length + 1)
    expect(added.some((s) => s.id === copy)).toBe(true)
    rmSync(join(projectDir, `${SESSION}.jsonl`))
    const removed = (await list()).sessions.filter((s) => s.agent === 'claude-code')
    expect(removed.length).toBe(before.length)
    expect(removed.some((s) => s.id === SESSION)).toBe(false)
  })

  it('a Cline task folder added after the snapshot is listed by the next list', async () => {
    const before = (await list()).sessions.filter((s) => s.agent === 'cline')
    expect(before.length).toBeGreaterThan(0)
    const taskDir = before[0]!.files.map((f) => join(f, '..')).find((d) => /[\\/]tasks[\\/][^\\/]+$/.test(d))!
    const newTask = join(taskDir, '..', '1799999999999')
    cpSync(taskDir, newTask, { recursive: true })
    const after = await list()
    expect(after.discoveries.get('cline')).toBe(1)
    expect(after.sessions.filter((s) => s.agent === 'cline').length).toBe(before.length + 1)
    expect(after.sessions.some((s) => s.agent === 'cline' && s.id === '1799999999999')).toBe(true)
  })

  it('a snapshot recorded for other deps (another layout of the home) is not used', () => {
    const deps = { trees: [join(home, '.claude', 'projects')], dirs: [], files: [] }
    const entries = recordDeps(deps)!
    const snap: FreshnessSnapshot = { v: 2, deps: depsKey(deps), entries: [...entries], diagnostics: [] }
    expect(unchanged(snap, deps)).toBe(true)
    expect(unchanged(snap, { ...deps, dirs: [join(home, '.config', 'Code', 'User', 'globalStorage')] })).toBe(false)
  })
})
