/**
 * Symbolic link loops in a store's folders (a new-user pass, session 10): a link that leads back to
 * itself (`a -> b -> a`, `stat` fails with ELOOP) or to a folder that holds it (`p/loop -> ..`).
 * Discovery never follows either; it says so in a warning naming the link (`skipped: 1`, a file or
 * folder not read: health/report.ts `isUnreadFile`), and the rest of the store loads.
 */
import type { Dirent } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import { sep } from 'node:path'
import type { AgentId, Diagnostic } from '../../shared/ir'
import { pathApiFor } from '../platform/home'

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

/** The entries of one store folder, sorted for a discovery walker by {@link storeEntries}. */
export interface StoreEntries {
  /** Names of the sub-folders, a symbolic link to a folder included (never one that loops), in code-unit order. */
  folders: string[]
  /**
   * Names of everything else, in code-unit order: regular files, links to files, broken links,
   * FIFOs and devices (the walker's own check of a session file, `statSessionFile`, names the odd ones).
   */
  files: string[]
}

/**
 * Sort the `entries` of folder `dir` (from `readdir(dir, { withFileTypes: true })`) into folders
 * and files for `agent`'s discovery, following symbolic links one step (a `stat` per link; plain
 * entries cost nothing more than the listing). Not in either list, each with a warning naming it
 * (`skipped: 1`): a link that loops ({@link loopMessage}), a link to `dir` or a folder above it
 * ({@link ancestorLinkMessage}), and a folder whose name `fileLike` accepts, a folder named like a
 * session file ({@link folderNamedLikeFileMessage}). Never throws.
 */
export async function storeEntries(dir: string, entries: readonly Dirent[], agent: AgentId, diagnostics: Diagnostic[], fileLike?: (name: string) => boolean): Promise<StoreEntries> {
  const p = pathApiFor(dir)
  const folders: string[] = []
  const files: string[] = []
  const warn = (path: string, message: string): void => {
    diagnostics.push({ severity: 'warning', skipped: 1, path, message, agent })
  }
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const e of sorted) {
    const path = p.join(dir, e.name)
    let folder = e.isDirectory()
    if (!folder && e.isSymbolicLink()) {
      try {
        folder = (await stat(path)).isDirectory()
      } catch (err) {
        const loop = loopMessage(path, err)
        if (loop) {
          warn(path, loop)
          continue
        }
      }
      const up = folder ? await ancestorLinkMessage(path, dir) : undefined
      if (up) {
        warn(path, up)
        continue
      }
    }
    if (!folder) files.push(e.name)
    else if (fileLike?.(e.name)) warn(path, folderNamedLikeFileMessage(path))
    else folders.push(e.name)
  }
  return { folders, files }
}
