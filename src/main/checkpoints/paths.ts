/**
 * Keeping a restore inside its folder: a path a checkpoint names is turned into a path under the
 * target folder, or refused with plain words. Refused: `..` segments, absolute paths outside the
 * project, paths into `.git`, and any path whose existing parent folders go through a symbolic
 * link that leads outside the target (checked on disk right before reading or writing).
 */
import { lstat, readlink, realpath } from 'node:fs/promises'
import { dirname, isAbsolute, join, posix, relative, resolve, sep, win32 } from 'node:path'

/** A path result: the safe value, or why it was refused. */
export type Safe<T> = { ok: true; value: T } | { ok: false; reason: string }

const WINDOWS_ABS = /^[A-Za-z]:[\\/]|^\\\\/

/**
 * Turn a path as a checkpoint stores it into a relative POSIX path under the project.
 *
 * - Relative paths (git tree paths, Claude Code's `trackingPath`) are kept; `\` counts as a
 *   separator too, so a Windows-recorded `src\a.ts` works and `a\..\..\x` is caught.
 * - Absolute paths (older Claude Code `trackedFileBackups` keys) must lie inside `projectDir`
 *   (the folder the session recorded, in that machine's path syntax); anything else is refused.
 */
export function relativeCheckpointPath(stored: string, projectDir?: string): Safe<string> {
  if (stored === '' || stored.includes('\0')) return { ok: false, reason: 'The path is empty or holds a NUL character.' }
  let rel = stored
  const winAbs = WINDOWS_ABS.test(stored)
  if (winAbs || stored.startsWith('/')) {
    if (!projectDir) return { ok: false, reason: 'The path is absolute and the session recorded no project folder to place it in.' }
    const p = winAbs || WINDOWS_ABS.test(projectDir) ? win32 : posix
    const r = p.relative(projectDir, stored)
    if (r === '' || r.startsWith('..') || p.isAbsolute(r)) return { ok: false, reason: `The path is outside the project folder ${projectDir}; Sepia restores only inside it.` }
    rel = r
  }
  const parts = rel.split(/[\\/]+/).filter((s) => s !== '' && s !== '.')
  if (parts.length === 0) return { ok: false, reason: 'The path names the project folder itself, not a file.' }
  if (parts.some((s) => s === '..')) return { ok: false, reason: 'The path leaves the project folder (it goes through "..").' }
  if (/^[A-Za-z]:/.test(parts[0]!)) return { ok: false, reason: 'The path names a drive; Sepia restores only inside the project folder.' }
  if (parts.some((s) => s.toLowerCase() === '.git')) return { ok: false, reason: 'The path is inside the .git folder; Sepia never writes there.' }
  return { ok: true, value: parts.join('/') }
}

/** True when `child` is `root` or inside it (both absolute, same syntax). */
export function isInside(root: string, child: string): boolean {
  const r = relative(root, child)
  return r === '' || (!r.startsWith('..') && !isAbsolute(r))
}

async function realRoot(root: string): Promise<string> {
  try {
    return await realpath(root)
  } catch {
    return resolve(root) // export into a folder that does not exist yet
  }
}

/**
 * The absolute path of `rel` (from {@link relativeCheckpointPath}) under `root`, checked on disk:
 * every existing parent folder must be a real folder inside `root` (a symbolic link is followed
 * only when it stays inside), and the path itself must not be a folder. A symbolic link at the
 * path itself is fine: writes replace the link, they never follow it.
 */
export async function safeTargetPath(root: string, rel: string): Promise<Safe<string>> {
  const abs = join(root, ...rel.split('/'))
  const top = await realRoot(root)
  const parts = rel.split('/')
  let dir = root
  for (let i = 0; i < parts.length - 1; i++) {
    dir = join(dir, parts[i]!)
    let st
    try {
      st = await lstat(dir)
    } catch {
      break // the rest of the folders do not exist yet: they will be created
    }
    if (st.isSymbolicLink()) {
      let real: string
      try {
        real = await realpath(dir)
      } catch {
        return { ok: false, reason: `${dir} is a symbolic link to a place that does not exist.` }
      }
      if (!isInside(top, real)) return { ok: false, reason: `${dir} is a symbolic link to ${real}, outside the project folder; Sepia does not write through it.` }
      if (!(await lstat(real)).isDirectory()) return { ok: false, reason: `${dir} is a link to a file, not a folder.` }
    } else if (!st.isDirectory()) {
      return { ok: false, reason: `${dir} is a file on disk, where the checkpoint has a folder.` }
    }
  }
  try {
    const st = await lstat(abs)
    if (st.isDirectory()) return { ok: false, reason: `${abs} is a folder on disk, where the checkpoint has a file.` }
  } catch {
    // absent: fine
  }
  return { ok: true, value: abs }
}

/**
 * Check the target of a symbolic link a checkpoint holds: it must stay inside `root` once
 * resolved from the link's folder. Absolute targets are refused.
 */
export function safeLinkTarget(root: string, linkAbs: string, target: string): Safe<string> {
  if (target === '' || target.includes('\0')) return { ok: false, reason: 'The symbolic link has an empty target.' }
  if (isAbsolute(target) || WINDOWS_ABS.test(target)) return { ok: false, reason: `The symbolic link points to ${target}, an absolute path; Sepia restores only links that stay inside the project folder.` }
  const to = resolve(dirname(linkAbs), target.split(/[\\/]/).join(sep))
  if (!isInside(resolve(root), to)) return { ok: false, reason: `The symbolic link points to ${target}, outside the project folder.` }
  return { ok: true, value: target }
}

/** The target of a symbolic link on disk, or `undefined`. */
export async function linkTargetOf(abs: string): Promise<string | undefined> {
  try {
    return await readlink(abs)
  } catch {
    return undefined
  }
}
