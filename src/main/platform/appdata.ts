/**
 * Per-user application-data roots per OS: where apps (VS Code and its forks, OpenCode, Kilo,
 * Devin...) keep their per-user folders.
 */
import type { HomeOs } from '../../shared/ir'
import { envValue, pathApiFor } from './home'
import type { Env } from './index'

/** The app-data roots of one home. All absolute paths; none is checked for existence. */
export interface AppDataRoots {
  /**
   * Per-user config root: Linux `$XDG_CONFIG_HOME` or `~/.config`; macOS
   * `~/Library/Application Support`; Windows `%APPDATA%` (Roaming), `<home>\AppData\Roaming` when
   * unset or for a copied home. This is where VS Code-family editors keep `<Product>/User`
   * (vscode src/vs/platform/environment/node/userDataPath.ts).
   */
  configRoot: string
  /**
   * Per-user data root: Linux `$XDG_DATA_HOME` or `~/.local/share` (Devin keeps
   * `devin/cli/sessions.db` there, seed 002); macOS `~/Library/Application Support`; Windows the
   * same Roaming folder as `configRoot` (where Electron apps put their user data).
   */
  dataRoot: string
  /** Windows only: `%LOCALAPPDATA%`, `<home>\AppData\Local` when unset or for a copied home. */
  localAppData?: string
  /**
   * `$XDG_CONFIG_HOME` or `<home>/.config` on every OS: the npm package `xdg-basedir` (used by
   * OpenCode and Kilo) is not platform-branched, so on Windows and macOS too they write under
   * `~/.config` (sst/opencode packages/core/src/global.ts).
   */
  xdgConfigHome: string
  /** `$XDG_DATA_HOME` or `<home>/.local/share` on every OS (OpenCode/Kilo data, see above). */
  xdgDataHome: string
}

/**
 * Resolve the app-data roots of a home.
 *
 * @param os whose layout the home follows
 * @param home absolute home path
 * @param env environment to honour (`XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `APPDATA`,
 *   `LOCALAPPDATA`); pass `{}` for a copied home so this machine's env is ignored
 */
export function resolveAppDataRoots(os: HomeOs, home: string, env: Env = {}): AppDataRoots {
  const p = pathApiFor(home)
  const xdgConfigHome = envValue(env, 'XDG_CONFIG_HOME') ?? p.join(home, '.config')
  const xdgDataHome = envValue(env, 'XDG_DATA_HOME') ?? p.join(home, '.local', 'share')
  if (os === 'win32') {
    const roaming = envValue(env, 'APPDATA') ?? p.join(home, 'AppData', 'Roaming')
    const local = envValue(env, 'LOCALAPPDATA') ?? p.join(home, 'AppData', 'Local')
    return { configRoot: roaming, dataRoot: roaming, localAppData: local, xdgConfigHome, xdgDataHome }
  }
  if (os === 'darwin') {
    const support = p.join(home, 'Library', 'Application Support')
    return { configRoot: support, dataRoot: support, xdgConfigHome, xdgDataHome }
  }
  return { configRoot: xdgConfigHome, dataRoot: xdgDataHome, xdgConfigHome, xdgDataHome }
}

/** The distinct roots of {@link AppDataRoots} in order config, data, local (for `HomeLayout.appDataRoots`). */
export function appDataRootList(roots: AppDataRoots): string[] {
  const list = [roots.configRoot, roots.dataRoot, roots.localAppData]
  return list.filter((r, i): r is string => !!r && list.indexOf(r) === i)
}
