/**
 * Workspace URIs → project paths, as Cursor's (VS Code's) `workspace.json` and
 * `workspaceIdentifier.uri` record them (shared/formats/cursor-devin-atif-acp.md §A6, §F15).
 *
 * - `file:///home/ana/src/x` → `/home/ana/src/x`
 * - `file:///c%3A/Users/ana/x` (Windows; `%3A`, `%20` percent-encoded) → `c:\Users\ana\x`, the
 *   way VS Code's `uri.fsPath` spells it (drive letter as written, backslashes)
 * - `file://server/share/x` (UNC) → `\\server\share\x`
 * - `vscode-remote://ssh-remote%2Bhost/home/u/x` → `/home/u/x` on remote `ssh-remote+host`
 */
import { obj, str, text } from './json'

/** A project folder: its path (in the recording machine's syntax) and, for remotes, the authority. */
export interface ProjectPath {
  path: string
  /** Decoded remote authority (`ssh-remote+host`, `dev-container+…`, `wsl+Ubuntu`) for `vscode-remote` URIs. */
  remote?: string
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** `/c:/Users/x` (a URI path of a Windows drive) → `c:\Users\x`; other paths unchanged. */
export function windowsDrivePath(path: string): string {
  const m = /^\/([A-Za-z]:)(\/.*)?$/.exec(path)
  return m ? m[1]! + (m[2] ?? '\\').replace(/\//g, '\\') : path
}

/** A folder URI → its path; undefined for schemes that are not files or remotes, or unparsable text. */
export function uriToPath(uri: string): ProjectPath | undefined {
  const m = /^([A-Za-z][\w+.-]*):\/\/([^/]*)(\/.*)?$/.exec(uri.trim())
  if (!m) return undefined
  const scheme = m[1]!.toLowerCase()
  const authority = decode(m[2]!)
  const path = decode(m[3] ?? '/')
  if (scheme === 'file') {
    if (authority !== '' && authority !== 'localhost') return { path: `\\\\${authority}${path.replace(/\//g, '\\')}` }
    return { path: windowsDrivePath(path) }
  }
  if (scheme === 'vscode-remote' || scheme === 'vscode-vfs') return authority ? { path, remote: authority } : { path }
  return undefined
}

/**
 * The folder of a `workspaceIdentifier.uri` object (`{$mid, fsPath, _sep?, external, path,
 * scheme, authority?}`): `fsPath`, else `path` (drive paths turned to Windows syntax), else
 * `external` decoded. Remote schemes keep their authority.
 */
export function uriObjectToPath(value: unknown): ProjectPath | undefined {
  const u = obj(value)
  if (!u) return typeof value === 'string' ? uriToPath(value) : undefined
  const scheme = str(u.scheme)?.toLowerCase()
  const authority = text(u.authority)
  if (scheme !== undefined && scheme !== 'file') {
    const external = text(u.external)
    if (external) return uriToPath(external)
    const p = text(u.path)
    if (p === undefined) return undefined
    return authority ? { path: p, remote: decode(authority) } : { path: p }
  }
  const fsPath = text(u.fsPath)
  if (fsPath) return { path: fsPath }
  const path = text(u.path)
  if (path) return { path: windowsDrivePath(path) }
  const external = text(u.external)
  return external ? uriToPath(external) : undefined
}
