/**
 * Project paths across machines (issue 19 "Move to another machine or folder": "any OS to any OS
 * (Windows, macOS, Linux, WSL paths)"). Pure string work: nothing here touches the disk, so a
 * Windows path is handled the same on a Linux machine.
 *
 * Path styles:
 * - `windows`: a drive path `C:\Users\ana\proj` (or `C:/Users/...`) or a UNC path `\\server\share\...`;
 *   compared without regard to case (NTFS folders are case-insensitive) and to `\` versus `/`;
 * - `posix`: everything else — Linux `/home/ana/proj`, macOS `/Users/ana/proj`, WSL's view of a
 *   Windows drive `/mnt/c/Users/ana/proj`; compared exactly.
 */

/** How a path is spelled. */
export type PathStyle = 'windows' | 'posix'

/** The style of an absolute path (see the module comment). */
export function pathStyleOf(p: string): PathStyle {
  return /^[A-Za-z]:([\\/]|$)/.test(p) || /^\\\\[^\\]/.test(p) ? 'windows' : 'posix'
}

/** True for an absolute path in either style. */
export function isAbsoluteAnyStyle(p: string): boolean {
  return pathStyleOf(p) === 'windows' || p.startsWith('/')
}

/** `p` without trailing separators (a root such as `/` or `C:\` is kept). */
function trimEnd(p: string, style: PathStyle): string {
  const re = style === 'windows' ? /[\\/]+$/ : /\/+$/
  const t = p.replace(re, '')
  if (t === '') return style === 'windows' ? p : '/'
  if (style === 'windows' && /^[A-Za-z]:$/.test(t)) return `${t}\\`
  return t
}

/** The separator a style writes. */
export const separatorOf = (style: PathStyle): string => (style === 'windows' ? '\\' : '/')

/**
 * The part of `p` below `root`, as its segments, or undefined when `p` is not `root` or inside it.
 * Windows paths compare case-insensitively with either separator.
 */
export function segmentsBelow(p: string, root: string): string[] | undefined {
  const style = pathStyleOf(root)
  if (pathStyleOf(p) !== style) return undefined
  const r = trimEnd(root, style)
  const norm = (s: string) => (style === 'windows' ? s.replace(/\//g, '\\').toLowerCase() : s)
  const np = norm(p)
  const nr = norm(r)
  const sep = separatorOf(style)
  if (np === nr || np === `${nr}${sep}`) return []
  const prefix = nr.endsWith(sep) ? nr : `${nr}${sep}`
  if (!np.startsWith(prefix)) return undefined
  return p.slice(prefix.length).split(style === 'windows' ? /[\\/]+/ : /\/+/).filter((s) => s !== '')
}

/**
 * `p` moved from project folder `from` to project folder `to`: `from` or anything inside it is
 * re-rooted at `to`, written with `to`'s separators (`/home/ana/src/x/a.ts` from `/home/ana/src/x`
 * to `C:\Users\ana\x` → `C:\Users\ana\x\a.ts`). Any other path is returned unchanged.
 */
export function remapPath(p: string, from: string, to: string): string {
  if (p.startsWith('file://')) {
    // Codex `item_completed` CommandExecution records its cwd as a file URL (`file:///home/ana/x`).
    const path = pathOfFileUrl(p)
    if (path === undefined) return p
    const moved = remapPath(path, from, to)
    return moved === path ? p : fileUrlOf(moved)
  }
  const below = segmentsBelow(p, from)
  if (below === undefined) return p
  const style = pathStyleOf(to)
  const base = trimEnd(to, style)
  if (below.length === 0) return base
  const sep = separatorOf(style)
  return (base.endsWith(sep) ? base : base + sep) + below.join(sep)
}

/** The path of a `file://` URL (`file:///C:/x` → `C:/x`, `file:///home/x` → `/home/x`), or undefined. */
export function pathOfFileUrl(u: string): string | undefined {
  const m = /^file:\/\/(?:localhost)?(\/.*)$/i.exec(u)
  if (!m) return undefined
  let path: string
  try {
    path = decodeURIComponent(m[1]!)
  } catch {
    return undefined
  }
  return /^\/[A-Za-z]:(\/|$)/.test(path) ? path.slice(1) : path
}

/** A `file://` URL of an absolute path (Windows `C:\x` → `file:///C:/x`). */
export function fileUrlOf(p: string): string {
  const windows = pathStyleOf(p) === 'windows'
  const segs = (windows ? p.replace(/\\/g, '/') : p).split('/').map((s, i) => (windows && i === 0 ? s : encodeURIComponent(s)))
  return windows ? `file:///${segs.join('/')}` : `file://${segs.join('/')}`
}

/**
 * WSL's path of a Windows drive path (`C:\Users\ana\x` → `/mnt/c/Users/ana/x`), or undefined for a
 * UNC or non-Windows path. WSL mounts drive `X:` at `/mnt/x` by default (`automount.root` in
 * `/etc/wsl.conf` can change it; pass `mountRoot` then).
 */
export function wslPathOfWindows(p: string, mountRoot = '/mnt'): string | undefined {
  const m = /^([A-Za-z]):(?:[\\/](.*))?$/.exec(p)
  if (!m) return undefined
  const rest = (m[2] ?? '').split(/[\\/]+/).filter((s) => s !== '')
  return [`${mountRoot.replace(/\/+$/, '')}/${m[1]!.toLowerCase()}`, ...rest].join('/')
}

/** The Windows path of a WSL drive mount path (`/mnt/c/Users/ana` → `C:\Users\ana`), or undefined. */
export function windowsPathOfWsl(p: string, mountRoot = '/mnt'): string | undefined {
  const root = mountRoot.replace(/\/+$/, '')
  const m = new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/([a-z])(?:/(.*))?$`, 'i').exec(p)
  if (!m) return undefined
  const rest = (m[2] ?? '').split('/').filter((s) => s !== '')
  return `${m[1]!.toUpperCase()}:\\${rest.join('\\')}`
}

/**
 * A copy of the JSON value `v` with every project path re-rooted ({@link remapPath}) under the
 * keys that record a folder: `cwd` (Claude Code records, Codex `session_meta`/`turn_context`),
 * `realParentDir` (Claude Code `file-history-snapshot` backups), `runtime_workspace_roots` and
 * `writable_roots` (Codex, lists), `workspace_root` (Cline SDK manifests and rows), and the `<cwd>` of Codex's `<environment_context>` text. Strings under other keys (tool inputs, message text) are left
 * as they were: they are what happened, not where the session lives. `rebase(key, value)` may
 * replace a value first (store paths such as Cline's `messages_path`, which name the agent's own
 * folder, not the project).
 */
export function remapJsonPaths(v: unknown, from: string, to: string, key?: string, rebase?: (key: string, value: string) => string | undefined): unknown {
  if (typeof v === 'string') {
    const rebased = key !== undefined ? rebase?.(key, v) : undefined
    if (rebased !== undefined) return rebased
    if (key !== undefined && PATH_KEYS.has(key)) return remapPath(v, from, to)
    // Codex's `<environment_context><cwd>…</cwd>` user message names the folder the turn ran in.
    if (v.includes('<environment_context>')) return v.replace(/<cwd>([^<]*)<\/cwd>/g, (_m, p: string) => `<cwd>${remapPath(p, from, to)}</cwd>`)
    return v
  }
  if (Array.isArray(v)) return v.map((x) => remapJsonPaths(x, from, to, key !== undefined && LIST_KEYS.has(key) ? key : undefined, rebase))
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) out[k] = remapJsonPaths(x, from, to, k, rebase)
    return out
  }
  return v
}

const PATH_KEYS = new Set(['cwd', 'realParentDir', 'runtime_workspace_roots', 'writable_roots', 'workspace_root'])
const LIST_KEYS = new Set(['runtime_workspace_roots', 'writable_roots'])
