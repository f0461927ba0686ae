/**
 * Where agents keep their data under one home folder, per OS.
 *
 * Everything takes the platform, the environment and the home as parameters (never globals), so
 * the Windows, macOS and Linux rules are testable on one machine and a copied home folder (a
 * Windows profile copied to a Linux laptop) is read with its own OS's layout.
 */
import type { HomeOs } from '../../shared/ir'
import type { DocumentsResult } from './documents'
import type { GlobalStorageDir } from './vscode'

/** Environment variables, as `process.env`. */
export type Env = Readonly<Record<string, string | undefined>>

/**
 * The resolved layout of one home folder. All paths are paths on this machine's file system,
 * joined in the flavour of `home` (`pathApiFor`): an own Windows home `C:\Users\ana` gives
 * backslash paths; a copied Windows home read on Linux has POSIX paths (`os` says whose layout it
 * is). Env override values (`CLINE_DIR`...) are used as given. Built by `layoutForHome`.
 */
export interface HomeLayout {
  /** The home folder. */
  home: string
  /** Whose layout the folder follows. */
  os: HomeOs
  /** True when this is the running user's own home (env overrides apply only then). */
  isOwnHome: boolean
  /** Claude Code config dir: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
  claudeConfigDir: string
  /** Codex home: `CODEX_HOME`, else `~/.codex` (codex-rs core/src/config: find_codex_home). */
  codexHome: string
  /** Cline dir: `CLINE_DIR`, else `~/.cline` (seed 000 "~/.cline", paths.ts:151-160). */
  clineDir: string
  /** Cline data dir: `CLINE_DATA_DIR`, else `<clineDir>/data` (seed 000 "Transcript stores"). */
  clineDataDir: string
  /**
   * Per-user application data roots, distinct, in the order `configRoot`, `dataRoot`,
   * `localAppData` (e.g. `~/.config` + `~/.local/share`, `~/Library/Application Support`,
   * `%APPDATA%` + `%LOCALAPPDATA%`).
   */
  appDataRoots: string[]
  /**
   * Per-user config root: Linux `$XDG_CONFIG_HOME` or `~/.config`, macOS
   * `~/Library/Application Support`, Windows `%APPDATA%` (`<home>/AppData/Roaming` for a copied
   * home). VS Code-family editors keep `<Product>/User` here.
   */
  configRoot: string
  /**
   * Per-user data root: Linux `$XDG_DATA_HOME` or `~/.local/share` (Devin: `devin/cli`), macOS
   * `~/Library/Application Support`, Windows `%APPDATA%` (same as `configRoot`).
   */
  dataRoot: string
  /** Windows only: `%LOCALAPPDATA%` (`<home>/AppData/Local` for a copied home). */
  localAppData?: string
  /**
   * `$XDG_CONFIG_HOME` or `~/.config` on every OS: OpenCode and Kilo resolve it with the
   * `xdg-basedir` package, which is not platform-branched (also `~/.config` on Windows/macOS).
   */
  xdgConfigHome: string
  /** `$XDG_DATA_HOME` or `~/.local/share` on every OS (OpenCode/Kilo data; see `xdgConfigHome`). */
  xdgDataHome: string
  /** Every VS Code-family `User/globalStorage` folder that exists (Code, Insiders, VSCodium, Cursor, Windsurf...). */
  globalStorageDirs: string[]
  /** The same folders as `globalStorageDirs`, with the editor's name and install kind. */
  globalStorage: GlobalStorageDir[]
  /** The Documents folder (seed 000 "Documents folder"); always set by `layoutForHome`. */
  documentsDir?: string
  /** How the Documents folder was found, and Cline's folder in it (`~/Cline` on headless Linux). */
  documents: DocumentsResult
}

export { layoutForHome, ownHomeLayout, type LayoutOptions } from './layout'
export { resolveHome, pathApiFor } from './home'
export { resolveDocuments, defaultRunner, type CommandRunner, type DocumentsResult, type DocumentsSource } from './documents'
export { resolveAppDataRoots, type AppDataRoots } from './appdata'
export { findGlobalStorageDirs, VSCODE_FAMILY, type EditorProduct, type GlobalStorageDir } from './vscode'
export { detectHomeOs } from './detect'
export { currentMachine, toHomeOs, type Machine } from './machine'
export { nodeFs, type FsProbe } from './probe'
