/**
 * The app's own preferences (`<appDataDir>/preferences.json`) and the one that needs main:
 * "Check for updates" (issue 17). Updates are off by default — Sepia works offline and makes no
 * request — and only the user's switch in Settings turns them on. Then the host's `startUpdates`
 * runs: in the Electron app, {@link electronUpdates} loads `electron-updater` with a dynamic
 * import and checks the feed electron-builder.yml `publish` names. `electron-updater` is not a
 * dependency of this build, so that import fails and the status says so ("unavailable"); adding
 * the package (`npm install electron-updater`) is all that is left to make updates work.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SepiaError, type AppPreferences, type PreferencesView, type UpdateStatus } from '../shared/api'

/** File name under the app data folder. */
export const PREFERENCES_FILE = 'preferences.json'

/** The defaults: everything off. */
export const DEFAULT_PREFERENCES: AppPreferences = { checkForUpdates: false }

/** Read the preferences; a missing or damaged file gives the defaults (never throws). */
export function loadPreferences(dir: string): AppPreferences {
  try {
    const raw = JSON.parse(readFileSync(join(dir, PREFERENCES_FILE), 'utf8')) as Record<string, unknown>
    return { checkForUpdates: raw.checkForUpdates === true }
  } catch {
    return { ...DEFAULT_PREFERENCES }
  }
}

/** Write the preferences atomically (a temp file renamed over the old one). */
export function savePreferences(dir: string, prefs: AppPreferences): void {
  mkdirSync(dir, { recursive: true })
  const tmp = join(dir, `${PREFERENCES_FILE}.${process.pid}.tmp`)
  writeFileSync(tmp, `${JSON.stringify(prefs, null, 2)}\n`, { mode: 0o600 })
  renameSync(tmp, join(dir, PREFERENCES_FILE))
}

/** Check a patch from the renderer: an object with known keys of the right types. Throws `BAD_ARGUMENT`. */
export function checkPatch(patch: unknown): Partial<AppPreferences> {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Preferences must be an object.' })
  const out: Partial<AppPreferences> = {}
  for (const [k, v] of Object.entries(patch)) {
    if (k !== 'checkForUpdates') throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${k}" is not a preference Sepia has.` })
    if (typeof v !== 'boolean') throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${k}" must be true or false.` })
    out.checkForUpdates = v
  }
  return out
}

/** Starts checking for updates; resolves what happened. */
export type StartUpdates = () => Promise<UpdateStatus>

/** The preferences service of the API. */
export function createPreferences(deps: { appDataDir: string; startUpdates?: StartUpdates }) {
  let status: UpdateStatus = { state: 'off' }
  const start = async (): Promise<void> => {
    if (!deps.startUpdates) {
      status = { state: 'unavailable', reason: 'Updates are checked only by the installed desktop app.' }
      return
    }
    try {
      status = await deps.startUpdates()
    } catch (e) {
      status = { state: 'unavailable', reason: `Checking for updates failed: ${(e as Error).message}` }
    }
  }
  const view = (): PreferencesView => ({ preferences: loadPreferences(deps.appDataDir), updates: status })
  return {
    get: async (): Promise<PreferencesView> => view(),
    /** Apply a patch; turning updates on starts them (off: no new check; a running one ends with the app). */
    async set(patch: unknown): Promise<PreferencesView> {
      const next = { ...loadPreferences(deps.appDataDir), ...checkPatch(patch) }
      savePreferences(deps.appDataDir, next)
      if (next.checkForUpdates && status.state !== 'on') await start()
      if (!next.checkForUpdates) status = { state: 'off' }
      return view()
    },
    /** At start: check for updates only when the user turned them on. */
    async startIfOn(): Promise<void> {
      if (loadPreferences(deps.appDataDir).checkForUpdates) await start()
    },
  }
}

/** What {@link electronUpdates} needs of `electron-updater`'s module. */
interface UpdaterModule {
  autoUpdater: { checkForUpdatesAndNotify(): Promise<unknown> }
}

/**
 * The Electron host's {@link StartUpdates}: only in a packaged app; `electron-updater` loaded by a
 * dynamic import whose name the bundler does not follow (absent from this build: "unavailable").
 */
export function electronUpdates(isPackaged: boolean, load: (id: string) => Promise<unknown> = (id) => import(/* @vite-ignore */ id)): StartUpdates {
  return async () => {
    if (!isPackaged) return { state: 'unavailable', reason: 'Only an installed Sepia updates itself; this one runs from its source folder.' }
    let mod: UpdaterModule
    try {
      const id = 'electron-updater'
      mod = (await load(id)) as UpdaterModule
    } catch {
      return { state: 'unavailable', reason: 'This build of Sepia does not include the updater (electron-updater).' }
    }
    await mod.autoUpdater.checkForUpdatesAndNotify()
    return { state: 'on' }
  }
}
