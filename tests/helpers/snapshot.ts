/**
 * A snapshot of a folder tree (every file's sha256, every directory entry) to prove a read changed
 * nothing: no byte, no new `-wal`/`-shm`/`-journal` file, no new folder.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, lstatSync } from 'node:fs'
import { join, relative } from 'node:path'

/** Map of relative path → `dir`, `link` or the file's sha256 and mode. */
export function snapshotTree(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      const rel = relative(root, p)
      if (e.isDirectory()) {
        out[rel] = 'dir'
        walk(p)
      } else if (e.isSymbolicLink()) out[rel] = 'link'
      else out[rel] = `${createHash('sha256').update(readFileSync(p)).digest('hex')} ${lstatSync(p).mode.toString(8)} ${lstatSync(p).mtimeMs}`
    }
  }
  walk(root)
  return out
}
