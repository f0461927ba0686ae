/**
 * Issue 17, updates: off by default, on only through the Settings switch (`setPreferences`), and
 * `electron-updater` loaded by a dynamic import that is absent from this build.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPreferences, electronUpdates, loadPreferences, PREFERENCES_FILE } from './updates'

const dir = () => mkdtempSync(join(tmpdir(), 'sepia-prefs-'))

describe('preferences', () => {
  it('are off by default and survive a damaged file', () => {
    const d = dir()
    expect(loadPreferences(d)).toEqual({ checkForUpdates: false })
    writeFileSync(join(d, PREFERENCES_FILE), '{not json')
    expect(loadPreferences(d)).toEqual({ checkForUpdates: false })
    writeFileSync(join(d, PREFERENCES_FILE), '{"checkForUpdates":"yes"}')
    expect(loadPreferences(d)).toEqual({ checkForUpdates: false })
  })

  it('start updates only when the user turns them on, and remember the choice', async () => {
    const d = dir()
    let starts = 0
    const prefs = createPreferences({ appDataDir: d, startUpdates: async () => (starts++, { state: 'on' }) })
    await prefs.startIfOn()
    expect(starts).toBe(0)
    expect(await prefs.get()).toEqual({ preferences: { checkForUpdates: false }, updates: { state: 'off' } })
    expect(await prefs.set({ checkForUpdates: true })).toEqual({ preferences: { checkForUpdates: true }, updates: { state: 'on' } })
    expect(starts).toBe(1)
    expect(JSON.parse(readFileSync(join(d, PREFERENCES_FILE), 'utf8'))).toEqual({ checkForUpdates: true })
    // The next start of the app checks again, because the choice was kept.
    await createPreferences({ appDataDir: d, startUpdates: async () => (starts++, { state: 'on' }) }).startIfOn()
    expect(starts).toBe(2)
    expect((await prefs.set({ checkForUpdates: false })).updates).toEqual({ state: 'off' })
  })

  it('refuses unknown keys and non-booleans', async () => {
    const prefs = createPreferences({ appDataDir: dir() })
    for (const bad of [null, [], 'x', { checkForUpdates: 'true' }, { autoInstall: true }]) await expect(prefs.set(bad), JSON.stringify(bad)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
  })

  it('says updates are unavailable where the host cannot check (browser mode, CLI)', async () => {
    const prefs = createPreferences({ appDataDir: dir() })
    expect((await prefs.set({ checkForUpdates: true })).updates).toMatchObject({ state: 'unavailable', reason: expect.stringMatching(/installed desktop app/) })
  })
})

describe('electronUpdates', () => {
  it('does nothing outside a packaged app', async () => {
    let loaded = false
    expect(await electronUpdates(false, async () => (loaded = true))()).toMatchObject({ state: 'unavailable' })
    expect(loaded).toBe(false)
  })

  it('is unavailable when electron-updater is absent (this build), and checks when it is there', async () => {
    const absent = !existsSync(join(process.cwd(), 'node_modules', 'electron-updater'))
    if (absent) expect(() => createRequire(import.meta.url)('electron-updater')).toThrow()
    // The real dynamic import, as the packaged app runs it.
    const real = await electronUpdates(true)()
    if (absent) expect(real).toEqual({ state: 'unavailable', reason: expect.stringMatching(/does not include the updater/) })
    let checked = 0
    const fake = { autoUpdater: { checkForUpdatesAndNotify: async () => void checked++ } }
    expect(await electronUpdates(true, async (id) => (expect(id).toBe('electron-updater'), fake))()).toEqual({ state: 'on' })
    expect(checked).toBe(1)
  })
})
