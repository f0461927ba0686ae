/**
 * What the API needs from its host (the Electron entry, the CLI, a test): the homes to open, the
 * demo library's location, and the host-only services such as the folder dialog.
 */
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { HomeOs } from '../shared/ir'
import type { TerminalLaunch } from './platform/terminal'
import type { UpdateStatus } from '../shared/api'

/** Host services and settings for {@link createApi}. */
export interface AppContext {
  /** `electron` or `browser` (served over loopback HTTP). */
  mode: 'electron' | 'browser'
  /** App version (package.json). */
  version: string
  /** This machine's OS. */
  platform: HomeOs
  /**
   * Homes to open at start. When empty, the user's own home is opened (env overrides applied);
   * when that holds no sessions, the demo library.
   */
  homes: string[]
  /** The folder holding the demo homes (`fixtures/real/<agent>/home`, `fixtures/generated/<name>/home`). */
  fixturesDir: string
  /** Environment of the running user (for their own home). */
  env: Readonly<Record<string, string | undefined>>
  /** The user's own home folder, resolved per seed 000 "Per-user storage". */
  ownHome: string
  /** The system folder dialog; absent in browser mode. */
  pickFolder?: () => Promise<string | null>
  /** ms since epoch. */
  now?: () => number
  /**
   * The app's own data folder (recent folders, opened review bundles, restore backups...): per OS
   * for the running user ({@link defaultAppDataDir}), `SEPIA_DATA_DIR` overrides; tests pass a
   * temp folder. When absent, a per-process folder under the OS temp folder is used.
   */
  appDataDir?: string
  /**
   * Print an HTML document to PDF bytes (Electron: `webContents.printToPDF` in a hidden window).
   * Absent in browser mode and the CLI, where the PDF export drives a local Chromium instead.
   */
  printToPdf?: (html: string) => Promise<Uint8Array>
  /**
   * Starts the terminal of "Open in terminal" (`openInTerminal`); tests record the launch instead.
   * Default: `spawnTerminal` (src/main/platform/terminal.ts), detached, no shell.
   */
  spawnTerminal?: (launch: TerminalLaunch) => Promise<void>
  /**
   * Starts checking for updates when the user turned them on (Electron: `electronUpdates` in
   * src/main/updates.ts). Absent in browser mode and the CLI, where updates are "unavailable".
   */
  startUpdates?: () => Promise<UpdateStatus>
}

/**
 * The app's data folder for the running user: `SEPIA_DATA_DIR` when set, else where Electron puts
 * `userData` for an app named Sepia — Linux `$XDG_CONFIG_HOME/Sepia` (default `~/.config/Sepia`),
 * macOS `~/Library/Application Support/Sepia`, Windows `%APPDATA%\Sepia` (default
 * `<home>\AppData\Roaming\Sepia`).
 */
export function defaultAppDataDir(platform: HomeOs, env: Readonly<Record<string, string | undefined>>, home: string): string {
  const override = env.SEPIA_DATA_DIR?.trim()
  if (override) return override
  if (platform === 'win32') return join(env.APPDATA?.trim() || join(home, 'AppData', 'Roaming'), 'Sepia')
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Sepia')
  return join(env.XDG_CONFIG_HOME?.trim() || join(home, '.config'), 'Sepia')
}

/** The repository (or packaged resources) root, found from this module's location. */
export function findAppRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'fixtures'))) return dir
    const up = dirname(dir)
    if (up === dir) break
    dir = up
  }
  return resolve(from, '..', '..')
}

/**
 * Generated homes that exist to be damaged: every reader test case that must become a diagnostic
 * (NULL and non-JSON rows, missing blobs, cut-short transcripts...). They stay in the tests and
 * are left out of the demo, which shows only clean examples (issue 17). `cursor-agent` and `devin`
 * mix clean sessions with damaged ones in one home (see their README.md), so they go too; the
 * Cursor IDE home `generated/cursor` is clean and stays.
 */
export const DAMAGED_FIXTURE_HOMES: readonly string[] = ['cursor-negative', 'cursor-agent', 'devin']

/**
 * The demo homes: every `fixtures/real/<agent>/home` folder (stores the real CLIs wrote), then
 * every `fixtures/generated/<name>/home` folder (Cursor IDE home built from documented shapes by
 * `scripts/make-fixture-homes.ts`) except the damaged ones ({@link DAMAGED_FIXTURE_HOMES}), each
 * group sorted. Returns absolute paths.
 */
export function demoHomes(fixturesDir: string): string[] {
  const homesIn = (group: string, skip: readonly string[] = []): string[] => {
    const dir = join(fixturesDir, group)
    if (!existsSync(dir)) return []
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !skip.includes(d.name) && existsSync(join(dir, d.name, 'home')))
      .map((d) => join(dir, d.name, 'home'))
      .sort()
  }
  return [...homesIn('real'), ...homesIn('generated', DAMAGED_FIXTURE_HOMES)]
}
