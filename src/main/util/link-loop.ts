/**
 * Symbolic link loops in a store's folders (a new-user pass, session 10): a link that leads back to
 * itself (`a -> b -> a`, `stat` fails with ELOOP) or to a folder that holds it (`p/loop -> ..`).
 * Discovery never follows either; it says so in a warning naming the link (`skipped: 1`, a file or
 * folder not read: health/report.ts `isUnreadFile`), and the rest of the store loads.
 */
import { realpath } from 'node:fs/promises'
import { sep } from 'node:path'

/** Plain words for a link `stat` could not follow because it loops (ELOOP), or undefined for any other error. */
export function loopMessage(path: string, e: unknown): string | undefined {
  if ((e as NodeJS.ErrnoException | undefined)?.code !== 'ELOOP') return undefined
  return `${path} is a symbolic link loop (it leads back to itself); Sepia did not follow it, so it was skipped.`
}

/**
 * Plain words when `path`, a symbolic link to a folder inside folder `dir`, leads to `dir` itself or
 * a folder above it (following it would list the same folders again and again), else undefined.
 */
export async function ancestorLinkMessage(path: string, dir: string): Promise<string | undefined> {
  let target: string
  let here: string
  try {
    ;[target, here] = await Promise.all([realpath(path), realpath(dir)])
  } catch {
    return undefined
  }
  const inside = here === target || here.startsWith(target.endsWith(sep) ? target : target + sep)
  if (!inside) return undefined
  return `${path} is a symbolic link to ${target}, a folder that holds it (a loop); Sepia did not follow it, so it was skipped.`
}

/** Plain words for a folder named like a session file (`<id>.jsonl/`): not read. */
export function folderNamedLikeFileMessage(path: string): string {
  return `${path} is a folder, not a session file; Sepia reads only regular files, so it was skipped.`
}
