/**
 * Which files of a restore preview are selected: by default every file that would change (not the
 * `unchanged` ones, which have nothing to do). Pure.
 */
import type { RestoreFilePreview } from '../../../shared/checkpoints'

/** The paths selected by default: every file whose status is not `unchanged`. */
export function defaultSelection(files: readonly RestoreFilePreview[]): Set<string> {
  return new Set(files.filter((f) => f.status !== 'unchanged').map((f) => f.path))
}

/** All paths (select all), or none. */
export function selectAll(files: readonly RestoreFilePreview[], on: boolean): Set<string> {
  return on ? new Set(files.map((f) => f.path)) : new Set()
}

/** `set` with `path` added or removed. A new Set (for reactivity). */
export function toggle(set: ReadonlySet<string>, path: string, on: boolean): Set<string> {
  const out = new Set(set)
  if (on) out.add(path)
  else out.delete(path)
  return out
}

/** The selected paths in preview order (what `restoreCheckpoint` gets as `files`). */
export function selectedPaths(files: readonly RestoreFilePreview[], set: ReadonlySet<string>): string[] {
  return files.filter((f) => set.has(f.path)).map((f) => f.path)
}

/** True when two paths name the same folder (trailing separators and `\` vs `/` ignored). */
export function sameFolder(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '')
  return norm(a) === norm(b)
}
