/**
 * What the API needs from its host (the Electron entry, the CLI, a test): the homes to open, the
 * demo library's location, and the host-only services such as the folder dialog.
 */
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { HomeOs } from '../shared/ir'

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
  /** The folder holding the demo homes (`fixtures/real/<agent>/home`). */
  fixturesDir: string
  /** Environment of the running user (for their own home). */
  env: Readonly<Record<string, string | undefined>>
  /** The user's own home folder, resolved per seed 000 "Per-user storage". */
  ownHome: string
  /** The system folder dialog; absent in browser mode. */
  pickFolder?: () => Promise<string | null>
  /** ms since epoch. */
  now?: () => number
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

/** The demo homes: every `fixtures/real/<agent>/home` folder, sorted. */
export function demoHomes(fixturesDir: string): string[] {
  const real = join(fixturesDir, 'real')
  if (!existsSync(real)) return []
  return readdirSync(real, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(real, d.name, 'home')))
    .map((d) => join(real, d.name, 'home'))
    .sort()
}
