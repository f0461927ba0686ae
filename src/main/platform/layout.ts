/**
 * Build the {@link HomeLayout} of one home folder: the user's own (env overrides honoured,
 * commands run for the Documents folder) or a copied one (its own OS's layout, this machine's env
 * ignored, no commands run).
 */
import type { HomeOs } from '../../shared/ir'
import { appDataRootList, resolveAppDataRoots } from './appdata'
import { detectHomeOs } from './detect'
import { defaultRunner, resolveDocuments, type CommandRunner } from './documents'
import { envValue, pathApiFor, resolveHome } from './home'
import type { Env, HomeLayout } from './index'
import { currentMachine, type Machine } from './machine'
import { nodeFs, type FsProbe } from './probe'
import { findGlobalStorageDirs } from './vscode'

/** Options for {@link layoutForHome}. */
export interface LayoutOptions {
  /** Absolute path of the home folder. */
  home: string
  /** Whose layout it is; detected from the folder's content ({@link detectHomeOs}) when absent. */
  os?: HomeOs
  /** Environment; only honoured when `isOwnHome` (a copied home ignores this machine's env). */
  env?: Env
  /** True for the running user's own home. Default false. */
  isOwnHome?: boolean
  /**
   * Command runner for the Documents folder (PowerShell / xdg-user-dir); used only when
   * `isOwnHome`, defaulting then to `defaultRunner` (execFile, 2 s timeout).
   */
  run?: CommandRunner
  /** File probe (existence checks, `user-dirs.dirs`); defaults to the real disk. */
  fs?: FsProbe
}

/**
 * Resolve the layout of a home folder. Never throws; missing folders simply are not listed.
 *
 * Env overrides, own home only: `CLAUDE_CONFIG_DIR` moves `~/.claude` (Claude Code), `CLINE_DIR`
 * moves `~/.cline` and `CLINE_DATA_DIR` moves `<clineDir>/data` (seed 000 "~/.cline" and
 * "Transcript stores"; sdk/packages/shared/src/storage/paths.ts `resolveClineDir`,
 * `resolveClineDataDir`); values are trimmed and used as given; blank values are ignored.
 * `XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `APPDATA`, `LOCALAPPDATA`, `VSCODE_APPDATA` and
 * `VSCODE_PORTABLE` are honoured the same way (see `appdata.ts`, `vscode.ts`).
 */
export async function layoutForHome(opts: LayoutOptions): Promise<HomeLayout> {
  const home = opts.home
  const fs = opts.fs ?? nodeFs
  const isOwnHome = opts.isOwnHome === true
  const os = opts.os ?? detectHomeOs(home, fs)
  const env: Env = isOwnHome ? (opts.env ?? {}) : {}
  const p = pathApiFor(home)

  const claudeConfigDir = envValue(env, 'CLAUDE_CONFIG_DIR') ?? p.join(home, '.claude')
  const codexHome = envValue(env, 'CODEX_HOME') ?? p.join(home, '.codex')
  const clineDir = envValue(env, 'CLINE_DIR') ?? p.join(home, '.cline')
  const clineDataDir = envValue(env, 'CLINE_DATA_DIR') ?? p.join(clineDir, 'data')

  const roots = resolveAppDataRoots(os, home, env)
  const globalStorage = findGlobalStorageDirs({ home, roots: [roots.configRoot], env, fs })
  const documents = await resolveDocuments({
    os,
    home,
    env,
    fs,
    ...(isOwnHome ? { run: opts.run ?? defaultRunner } : {}),
  })

  const layout: HomeLayout = {
    home,
    os,
    isOwnHome,
    claudeConfigDir,
    codexHome,
    clineDir,
    clineDataDir,
    appDataRoots: appDataRootList(roots),
    configRoot: roots.configRoot,
    dataRoot: roots.dataRoot,
    xdgConfigHome: roots.xdgConfigHome,
    xdgDataHome: roots.xdgDataHome,
    globalStorageDirs: globalStorage.map((g) => g.dir),
    globalStorage,
    documentsDir: documents.dir,
    documents,
  }
  if (roots.localAppData !== undefined) layout.localAppData = roots.localAppData
  return layout
}

/**
 * The running user's own home layout: home by {@link resolveHome} (seed 000 "Per-user storage"),
 * the machine's OS (not detected), its env applied, its command runner used for Documents.
 *
 * @param machine defaults to {@link currentMachine} (the app entry); tests pass a fake machine
 */
export async function ownHomeLayout(machine: Machine = currentMachine()): Promise<HomeLayout> {
  const home = resolveHome(machine.env, machine.homedir)
  return layoutForHome({ home, os: machine.os, env: machine.env, isOwnHome: true, run: machine.run })
}
