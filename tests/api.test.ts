/** createApi(): the demo library when the user has no history, opening folders, errors. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApi } from '../src/main/api'
import { findAppRoot, type AppContext } from '../src/main/context'

const ROOT = findAppRoot()

function context(over: Partial<AppContext> = {}): AppContext {
  return {
    mode: 'browser',
    version: '0.0.0-test',
    platform: 'linux',
    homes: [],
    fixturesDir: join(ROOT, 'fixtures'),
    env: {},
    ownHome: mkdtempSync(join(tmpdir(), 'sepia-empty-home-')),
    now: () => 1_800_000_000_000,
    ...over,
  }
}

describe('createApi', () => {
  it('opens the demo library when the own home has no agent history', async () => {
    const api = createApi(context())
    const lib = await api.getLibrary()
    expect(lib.homes.length).toBeGreaterThan(0)
    expect(lib.homes.every((h) => h.isDemo)).toBe(true)
    expect(lib.sessions.some((s) => s.agent === 'claude-code')).toBe(true)
    expect(lib.sessions.some((s) => s.agent === 'cline')).toBe(true)
    expect(lib.agents.find((a) => a.id === 'claude-code')?.sessionCount).toBeGreaterThanOrEqual(5)
    expect(lib.loadedAt).toBe(1_800_000_000_000)
  })

  it('opens the own home when it has history (and never the demo)', async () => {
    const api = createApi(context({ ownHome: join(ROOT, 'fixtures/real/claude-code/home') }))
    const lib = await api.getLibrary()
    expect(lib.homes).toEqual([{ path: join(ROOT, 'fixtures/real/claude-code/home'), os: 'linux', isDemo: false }])
    expect(lib.sessions.filter((s) => !s.parentSessionId).map((s) => s.id).sort()).toEqual([
      '168ccd27-38fe-4712-8b25-f636c48dc3b8',
      '59d2b1d8-139c-406e-9af8-d7379d3f42fd',
      '6af80e1b-9349-4dc0-a14a-75375ad2f7e2',
      'c79310a4-1627-4beb-8788-81d2e0fc6af8',
      'db9d5855-d967-440c-8eac-0e5a668d0e19',
    ])
  })

  it('openHome replaces the homes; getSession returns the IR', async () => {
    const api = createApi(context())
    const lib = await api.openHome(join(ROOT, 'fixtures/real/cline/home'))
    expect(lib.homes.map((h) => h.isDemo)).toEqual([false])
    const s = await api.getSession('cline', '1796022183774_v75nv')
    expect(s.id).toBe('1796022183774_v75nv')
    expect(s.workingDirectory).toBe('/home/ana/src/invoice-service')
  })

  it('rejects with plain errors carrying a code', async () => {
    const api = createApi(context())
    await expect(api.openHome('/no/such/folder')).rejects.toMatchObject({ code: 'NOT_FOUND', path: '/no/such/folder' })
    const file = join(mkdtempSync(join(tmpdir(), 'sepia-file-')), 'a.txt')
    writeFileSync(file, 'x')
    await expect(api.openHome(file)).rejects.toMatchObject({ code: 'NOT_A_DIRECTORY' })
    await expect(api.getSession('claude-code', 'nope')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' })
    await expect(api.getSession('nobody' as never, 'x')).rejects.toMatchObject({ code: 'UNKNOWN_AGENT' })
    expect(await api.pickFolder()).toBeNull()
  })
})
