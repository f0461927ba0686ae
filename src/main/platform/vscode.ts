/**
 * Every VS Code-family editor's `User/globalStorage` folder (where extensions such as Cline,
 * `saoudrizwan.claude-dev`, keep their data; seed 000 "VS Code extension").
 *
 * A desktop editor keeps its user data at `<configRoot>/<product folder>/User` (vscode
 * src/vs/platform/environment/node/userDataPath.ts: `VSCODE_APPDATA`, else `%APPDATA%` /
 * `~/Library/Application Support` / `$XDG_CONFIG_HOME` or `~/.config`, joined with the product's
 * `nameShort`); a remote server (SSH, WSL, dev containers, tunnels) keeps it at
 * `~/<serverDataFolderName>/data/User`, and GitHub Codespaces and dev containers at
 * `~/.vscode-remote/data/User` (the container's `remoteUserDataDir`; Codespaces' home is
 * `/home/codespace`); a portable install at `$VSCODE_PORTABLE/user-data/User`;
 * a Flatpak at `~/.var/app/<app id>/config/<product folder>/User`.
 */
import { pathApiFor, envValue } from './home'
import type { Env } from './index'
import { nodeFs, type FsProbe } from './probe'

/** One VS Code-family product. */
export interface EditorProduct {
  /** Display name. */
  name: string
  /** Folder under the config root (product.json `nameShort`, or `code-oss-dev` for dev builds). */
  folder: string
  /** Remote-server data folder under the home (product.json `serverDataFolderName`), if any. */
  serverDir?: string
  /**
   * Other remote data folders under the home holding `data/User` (`.vscode-remote`: GitHub
   * Codespaces and dev containers), listed after `serverDir` as kind `server`.
   */
  otherServerDirs?: readonly string[]
  /** Flatpak application id on Linux (Flathub), if packaged there. */
  flatpakId?: string
}

/**
 * The VS Code family, as data. Folder names are the products' `nameShort` / `serverDataFolderName`
 * (VS Code, Code - OSS and Void product.json; VSCodium, Cursor, Windsurf as documented by their
 * remote-SSH setups). The server folders of the other forks follow the same `.<product>-server`
 * pattern but are not verified from their product.json; a name that does not exist on a machine
 * costs one `stat` and is simply not listed.
 */
export const VSCODE_FAMILY: readonly EditorProduct[] = [
  { name: 'VS Code', folder: 'Code', serverDir: '.vscode-server', otherServerDirs: ['.vscode-remote'], flatpakId: 'com.visualstudio.code' },
  { name: 'VS Code Insiders', folder: 'Code - Insiders', serverDir: '.vscode-server-insiders' },
  { name: 'VS Code Exploration', folder: 'Code - Exploration' },
  { name: 'Code - OSS', folder: 'Code - OSS', serverDir: '.vscode-server-oss', flatpakId: 'com.visualstudio.code-oss' },
  { name: 'Code - OSS (distro package)', folder: 'code-oss' },
  { name: 'Code - OSS (dev build)', folder: 'code-oss-dev' },
  { name: 'VSCodium', folder: 'VSCodium', serverDir: '.vscodium-server', flatpakId: 'com.vscodium.codium' },
  { name: 'VSCodium Insiders', folder: 'VSCodium - Insiders', serverDir: '.vscodium-server-insiders', flatpakId: 'com.vscodium.codium-insiders' },
  { name: 'Cursor', folder: 'Cursor', serverDir: '.cursor-server' },
  { name: 'Windsurf', folder: 'Windsurf', serverDir: '.windsurf-server' },
  { name: 'Windsurf Next', folder: 'Windsurf - Next', serverDir: '.windsurf-next-server' },
  { name: 'Trae', folder: 'Trae', serverDir: '.trae-server' },
  { name: 'Trae CN', folder: 'Trae CN', serverDir: '.trae-cn-server' },
  { name: 'Kiro', folder: 'Kiro', serverDir: '.kiro-server' },
  { name: 'Positron', folder: 'Positron', serverDir: '.positron-server' },
  { name: 'Void', folder: 'Void', serverDir: '.void-server' },
  { name: 'PearAI', folder: 'PearAI', serverDir: '.pearai-server' },
  { name: 'Antigravity', folder: 'Antigravity', serverDir: '.antigravity-server' },
]

/** How a globalStorage folder's editor was installed. */
export type EditorInstallKind = 'desktop' | 'server' | 'portable' | 'flatpak'

/** One `User/globalStorage` folder that exists. */
export interface GlobalStorageDir {
  /** {@link EditorProduct.name}, or `VS Code (portable)`. */
  editor: string
  kind: EditorInstallKind
  /** Absolute path of the `globalStorage` folder. */
  dir: string
}

/** Options for {@link findGlobalStorageDirs}. */
export interface GlobalStorageOptions {
  /** Absolute home path. */
  home: string
  /** Roots holding `<Product>/User` (normally `[AppDataRoots.configRoot]`). */
  roots: readonly string[]
  /**
   * Environment of the running user (`VSCODE_APPDATA` adds a root, `VSCODE_PORTABLE` a portable
   * install); pass `{}` for a copied home.
   */
  env?: Env
  /** Product table; defaults to {@link VSCODE_FAMILY}. */
  products?: readonly EditorProduct[]
  /** File probe; defaults to the real disk. */
  fs?: FsProbe
}

/**
 * List every existing `User/globalStorage` folder of the VS Code family under a home, in the
 * order: desktop editors (per root, table order), portable install, remote servers, Flatpaks.
 * Each path appears once. Never throws; unreadable folders are left out.
 */
export function findGlobalStorageDirs(opts: GlobalStorageOptions): GlobalStorageDir[] {
  const { home } = opts
  const p = pathApiFor(home)
  const fs = opts.fs ?? nodeFs
  const env = opts.env ?? {}
  const products = opts.products ?? VSCODE_FAMILY
  const found: GlobalStorageDir[] = []
  const seen = new Set<string>()
  const add = (editor: string, kind: EditorInstallKind, dir: string) => {
    if (seen.has(dir) || !fs.isDir(dir)) return
    seen.add(dir)
    found.push({ editor, kind, dir })
  }
  const vscodeAppData = envValue(env, 'VSCODE_APPDATA')
  const roots = [...(vscodeAppData ? [vscodeAppData] : []), ...opts.roots]
  for (const root of roots) {
    for (const prod of products) add(prod.name, 'desktop', p.join(root, prod.folder, 'User', 'globalStorage'))
  }
  const portable = envValue(env, 'VSCODE_PORTABLE')
  if (portable) add('VS Code (portable)', 'portable', p.join(portable, 'user-data', 'User', 'globalStorage'))
  for (const prod of products) {
    for (const dir of [...(prod.serverDir ? [prod.serverDir] : []), ...(prod.otherServerDirs ?? [])]) {
      add(prod.name, 'server', p.join(home, dir, 'data', 'User', 'globalStorage'))
    }
  }
  for (const prod of products) {
    if (prod.flatpakId) {
      add(prod.name, 'flatpak', p.join(home, '.var', 'app', prod.flatpakId, 'config', prod.folder, 'User', 'globalStorage'))
    }
  }
  return found
}
