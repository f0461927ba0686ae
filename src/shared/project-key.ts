/**
 * Which recorded project folders are the same folder. Windows paths are compared without regard
 * to case or slash direction (NTFS folders are case-insensitive, and the Codex VS Code extension
 * records `c:\Users\…` where the CLI records `C:\Users\…` for the same folder: public-real
 * `codex/vscode-windows-041`). POSIX paths stay case-sensitive. No Node imports: the renderer
 * uses it too.
 */

/** True for `C:\…`, `c:/…` and UNC `\\server\share…` paths. */
export function isWindowsPath(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\')
}

/**
 * A key equal for two recordings of one folder: Windows paths lowercased with `\` separators and
 * no trailing separator; other paths without a trailing `/`. `undefined` or blank gives ''.
 */
export function projectKey(path: string | undefined): string {
  const p = path?.trim() ?? ''
  if (!p) return ''
  if (isWindowsPath(p)) return p.replace(/\//g, '\\').replace(/\\+$/, '').toLowerCase() || p
  return p.length > 1 ? p.replace(/\/+$/, '') : p
}
