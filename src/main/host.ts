/**
 * Build an {@link AppContext} from the running process (the only place that reads
 * `process.env`/`process.platform` for the app; the CLI and the Electron entry call it).
 */
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { HomeOs } from '../shared/ir'
import { defaultAppDataDir, findAppRoot, type AppContext } from './context'
import { resolveHome } from './platform/home'

/** Options for {@link processContext}. */
export interface ProcessContextOptions {
  mode: AppContext['mode']
  /** Homes to open instead of the user's own (`--home DIR`). */
  homes?: string[]
  pickFolder?: AppContext['pickFolder']
  /** Electron's PDF printer (see `AppContext.printToPdf`). */
  printToPdf?: AppContext['printToPdf']
  /** The app/repo root (holds package.json and fixtures/). Found from this file when absent. */
  appRoot?: string
}

/** The context for this process. */
export function processContext(options: ProcessContextOptions): AppContext {
  const appRoot = options.appRoot ?? findAppRoot()
  let version = '0.0.0'
  try {
    version = (JSON.parse(readFileSync(join(appRoot, 'package.json'), 'utf8')) as { version?: string }).version ?? version
  } catch {
    // packaged without package.json next to resources: keep 0.0.0
  }
  const platform: HomeOs = process.platform === 'win32' ? 'win32' : process.platform === 'darwin' ? 'darwin' : 'linux'
  const ctx: AppContext = {
    mode: options.mode,
    version,
    platform,
    // Relative --home folders are taken from the working directory, once, here.
    homes: (options.homes ?? []).map((h) => resolve(h)),
    fixturesDir: join(appRoot, 'fixtures'),
    env: process.env,
    ownHome: resolveHome(process.env, homedir),
  }
  ctx.appDataDir = defaultAppDataDir(platform, process.env, ctx.ownHome)
  if (options.pickFolder) ctx.pickFolder = options.pickFolder
  if (options.printToPdf) ctx.printToPdf = options.printToPdf
  return ctx
}

/** `--home DIR` / `--home=DIR` values in an argument list (repeatable), in order. */
export function homesFromArgv(argv: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--home' && argv[i + 1]) out.push(argv[++i]!)
    else if (a.startsWith('--home=')) out.push(a.slice(7))
  }
  return out
}
