/**
 * The Documents folder per OS, resolved the way Cline resolves it (Cline keeps
 * `Documents/Cline/{Rules,Workflows,MCP,Hooks,Agents,Plugins}` there; seed 000 "Documents folder",
 * apps/vscode/src/core/storage/documents-path.ts:6-40 and disk.ts:55-97).
 */
import { lazyRequire } from '../util/lazy-require'
import type { HomeOs } from '../../shared/ir'
import { envValue, pathApiFor } from './home'
import type { Env } from './index'
import { nodeFs, type FsProbe } from './probe'

// Loaded on first use: node:child_process is ~5-10 ms to load and a warm `sepia list` or `sepia search` never spawns (issue 15).
const childProcess = lazyRequire<typeof import('node:child_process')>('node:child_process')

/**
 * Runs a command and resolves its stdout, or null on any failure (missing binary, non-zero exit,
 * timeout). Must never reject.
 */
export type CommandRunner = (cmd: string, args: string[]) => Promise<string | null>

/** How long {@link defaultRunner} lets a command run, in ms. */
export const COMMAND_TIMEOUT_MS = 2_000

/**
 * {@link CommandRunner} over `child_process.execFile` (no shell), killed after
 * {@link COMMAND_TIMEOUT_MS}; resolves null on any error. Never rejects.
 */
export const defaultRunner: CommandRunner = (cmd, args) =>
  new Promise((resolve) => {
    try {
      childProcess().execFile(cmd, args, { timeout: COMMAND_TIMEOUT_MS, windowsHide: true, encoding: 'utf8' }, (err, stdout) => {
        resolve(err ? null : String(stdout))
      })
    } catch {
      resolve(null)
    }
  })

/**
 * The PowerShell call Cline makes on Windows (documents-path.ts:8-13). It returns the real
 * MyDocuments folder, which OneDrive folder backup moves to e.g. `C:\Users\ana\OneDrive\Documents`.
 */
export const POWERSHELL_MY_DOCUMENTS: readonly [string, readonly string[]] = [
  'powershell',
  ['-NoProfile', '-Command', '[System.Environment]::GetFolderPath([System.Environment+SpecialFolder]::MyDocuments)'],
]

/** The call Cline makes on Linux (documents-path.ts:22-28). */
export const XDG_USER_DIR_DOCUMENTS: readonly [string, readonly string[]] = ['xdg-user-dir', ['DOCUMENTS']]

/** Where a {@link DocumentsResult} came from. */
export type DocumentsSource =
  /** Windows: output of PowerShell `GetFolderPath(MyDocuments)`. */
  | 'powershell'
  /** Linux: output of `xdg-user-dir DOCUMENTS`. */
  | 'xdg-user-dir'
  /** Linux, copied home: `XDG_DOCUMENTS_DIR` in the home's `.config/user-dirs.dirs`. */
  | 'user-dirs.dirs'
  /** The OS default `<home>/Documents` (macOS always; fallback elsewhere). */
  | 'default'

/** The resolved Documents folder. */
export interface DocumentsResult {
  /** Absolute path of the Documents folder (whether or not it exists). */
  dir: string
  /** How it was found. */
  source: DocumentsSource
  /**
   * True when the Documents folder is the home itself: on headless Linux `xdg-user-dir DOCUMENTS`
   * prints `$HOME` when no documents dir is configured, so Cline's files land in `~/Cline/...`
   * instead of `~/Documents/Cline/...` (seed 000 "Documents folder", paths.ts:538-575).
   */
  isHome: boolean
  /** `<dir>/Cline`: Cline's Rules, Workflows, MCP, Hooks, Agents, Plugins (disk.ts:55-97). */
  clineDir: string
}

/** Options for {@link resolveDocuments}. */
export interface DocumentsOptions {
  /** Whose layout the home follows. */
  os: HomeOs
  /** Absolute path of the home folder. */
  home: string
  /** Environment; only `XDG_CONFIG_HOME` is read (to find `user-dirs.dirs` when no runner). */
  env?: Env
  /**
   * Command runner. Give it only for the running user's own home; when absent no command runs
   * (a copied home) and the result is read from files under the home or is the OS default.
   */
  run?: CommandRunner
  /** File probe for `user-dirs.dirs`; defaults to the real disk. */
  fs?: FsProbe
}

/**
 * Resolve the Documents folder of a home. Never throws.
 *
 * - win32: with a runner, PowerShell MyDocuments (trimmed: CRLF, BOM); else `<home>\Documents`.
 * - linux: with a runner, `xdg-user-dir DOCUMENTS` (trimmed); a failing or empty call gives
 *   `<home>/Documents` as in Cline. Without a runner (copied home), `XDG_DOCUMENTS_DIR` from
 *   `<home>/.config/user-dirs.dirs` — the file `xdg-user-dir` itself reads — with `$HOME`
 *   replaced by the copied home; a file without that entry means `xdg-user-dir` would have printed
 *   `$HOME` (the headless case); no file, or an absolute path of the other machine, gives the default.
 * - darwin: `<home>/Documents`.
 */
export async function resolveDocuments(opts: DocumentsOptions): Promise<DocumentsResult> {
  const { os, home, run } = opts
  const p = pathApiFor(home)
  const result = (dir: string, source: DocumentsSource): DocumentsResult => {
    const isHome = samePath(p.normalize(dir), p.normalize(home), os === 'win32')
    return { dir, source, isHome, clineDir: p.join(dir, 'Cline') }
  }
  const fallback = result(p.join(home, 'Documents'), 'default')
  if (os === 'win32' && run) {
    const out = await safeRun(run, POWERSHELL_MY_DOCUMENTS)
    return out ? result(out, 'powershell') : fallback
  }
  if (os === 'linux' && run) {
    const out = await safeRun(run, XDG_USER_DIR_DOCUMENTS)
    return out ? result(out, 'xdg-user-dir') : fallback
  }
  if (os === 'linux') {
    const configHome = envValue(opts.env ?? {}, 'XDG_CONFIG_HOME') ?? p.join(home, '.config')
    const text = (opts.fs ?? nodeFs).readText(p.join(configHome, 'user-dirs.dirs'))
    if (text === null) return fallback
    const value = parseUserDirs(text).DOCUMENTS
    if (value === undefined) return result(home, 'user-dirs.dirs')
    if (value === '$HOME' || value === '$HOME/') return result(home, 'user-dirs.dirs')
    if (value.startsWith('$HOME/')) return result(p.join(home, value.slice('$HOME/'.length)), 'user-dirs.dirs')
    return fallback
  }
  return fallback
}

/**
 * Parse an xdg-user-dirs `user-dirs.dirs` file (`XDG_<NAME>_DIR="$HOME/..."` or `"/abs"` lines,
 * `#` comments; format of xdg-user-dirs' `user-dirs.dirs(5)`). Returns NAME → raw value (quotes
 * and backslash escapes removed, `$HOME` kept). Later lines win, as the shell's `.` would do.
 */
export function parseUserDirs(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*XDG_([A-Z0-9_]+)_DIR\s*=\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(raw)
    if (m && m[1] !== undefined && m[2] !== undefined) out[m[1]] = m[2].replace(/\\(.)/g, '$1')
  }
  return out
}

async function safeRun(run: CommandRunner, [cmd, args]: readonly [string, readonly string[]]): Promise<string | null> {
  try {
    const out = await run(cmd, [...args])
    const trimmed = out?.trim()
    return trimmed ? trimmed : null
  } catch {
    return null
  }
}

/** Equal paths, ignoring trailing separators (and case on Windows, whose file system ignores it). */
function samePath(a: string, b: string, ignoreCase: boolean): boolean {
  const strip = (s: string) => {
    const t = s.length > 1 ? s.replace(/[\\/]+$/, '') : s
    return ignoreCase ? t.toLowerCase() : t
  }
  return strip(a) === strip(b)
}
