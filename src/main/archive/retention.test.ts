/**
 * Warnings before loss (issue 19): Claude Code's `cleanupPeriodDays` (default 30, by file mtime)
 * and Gemini CLI's `general.sessionRetention`. Expected counts come from the files' own mtimes.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, unlinkSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { SessionSummary } from '../../shared/ir'
import { createApi } from '../api'
import { findAppRoot } from '../context'
import { layoutForHome } from '../platform'
import { geminiPeriodMs, retentionWarnings } from './retention'

const root = findAppRoot()
const DAY = 86_400_000
const temps: string[] = []
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })))

function copyHome(): { home: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'sepia-retention-'))
  temps.push(dir)
  const home = join(dir, 'home')
  cpSync(join(root, 'fixtures/retention/claude-code/home'), home, { recursive: true })
  const project = join(home, '.claude/projects/-home-ana-src-ledger-api')
  return { home, files: readdirSync(project).filter((f) => f.endsWith('.jsonl')).map((f) => join(project, f)) }
}

describe('retention warnings', () => {
  it('Claude Code cleanupPeriodDays from the fixture home, through the API, archived or not', async () => {
    const { home, files } = copyHome()
    const api = createApi({ mode: 'browser', version: '0', platform: 'linux', homes: [], fixturesDir: join(root, 'fixtures'), env: {}, ownHome: home, appDataDir: join(home, '..', 'data') })
    try {
      const [w] = await api.getRetentionWarnings()
      expect(w).toMatchObject({ agent: 'claude-code', setting: 'cleanupPeriodDays', days: 1, defaulted: false, due: files.length, archived: 0, withinDays: 7 })
      await api.setArchiveSettings({ enabled: true })
      const [after] = await api.getRetentionWarnings()
      expect(after).toMatchObject({ due: files.length, archived: files.length })
    } finally {
      await api.library.close()
    }
  }, 60_000)

  it('the default of 30 days applies when the setting is absent, judged by mtime', async () => {
    const { home, files } = copyHome()
    unlinkSync(join(home, '.claude/settings.json'))
    const now = Date.now()
    // Two transcripts last written 25 days ago (due in 5 days), the rest today.
    files.forEach((f, i) => utimesSync(f, new Date(now), new Date(i < 2 ? now - 25 * DAY : now)))
    const layout = await layoutForHome({ home })
    const sessions = files.map((f) => ({ id: f, agent: 'claude-code', files: [f], home, format: 'claude-code-jsonl', messageCount: 1, toolCallCount: 0, diagnosticCount: 0 }) as SessionSummary)
    const [w] = await retentionWarnings(layout, sessions, undefined, now)
    expect(w).toMatchObject({ days: 30, defaulted: true, due: 2 })
    expect(w!.firstDueAt).toBeGreaterThan(now + 4 * DAY)
    expect(await retentionWarnings(layout, sessions, undefined, now, 3)).toEqual([])
  })

  it('Gemini CLI sessionRetention: only when enabled; maxAge and maxCount', async () => {
    const { home } = copyHome()
    const { mkdirSync, writeFileSync } = await import('node:fs')
    mkdirSync(join(home, '.gemini'), { recursive: true })
    const now = Date.now()
    const s = (id: string, ageDays: number): SessionSummary => ({ id, agent: 'gemini', files: [], home, format: 'gemini', messageCount: 1, toolCallCount: 0, diagnosticCount: 0, workingDirectory: '/p', lastActivityAt: now - ageDays * DAY })
    const sessions = [s('a', 1), s('b', 10), s('c', 40)]
    const layout = await layoutForHome({ home })
    writeFileSync(join(home, '.gemini/settings.json'), JSON.stringify({ general: { sessionRetention: { enabled: false, maxAge: '30d' } } }))
    expect(await retentionWarnings(layout, sessions, undefined, now)).toEqual([])
    writeFileSync(join(home, '.gemini/settings.json'), JSON.stringify({ general: { sessionRetention: { enabled: true, maxAge: '30d' } } }))
    // c is past 30 days; b turns 30 days old in 20 days (outside the week)
    expect((await retentionWarnings(layout, sessions, undefined, now))[0]).toMatchObject({ agent: 'gemini', due: 1, sessionIds: ['c'] })
    writeFileSync(join(home, '.gemini/settings.json'), JSON.stringify({ general: { sessionRetention: { enabled: true, maxCount: 1 } } }))
    expect((await retentionWarnings(layout, sessions, undefined, now))[0]).toMatchObject({ due: 2 })
    expect(geminiPeriodMs('2w')).toBe(14 * DAY)
    expect(geminiPeriodMs('0d')).toBeUndefined()
  })
})
