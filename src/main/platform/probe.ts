/**
 * The small, synchronous file-system view the platform module needs (does a path exist, is it a
 * folder, what text does a small file hold). Injected so tests can fake it; the default reads the
 * real disk. Never throws: an unreadable path simply "does not exist".
 */
import { readFileSync, statSync } from 'node:fs'

/** Read-only file-system probe. All methods swallow errors (EACCES, ENOENT...) and answer "no". */
export interface FsProbe {
  /** True when `path` exists (file, folder or anything else). */
  exists(path: string): boolean
  /** True when `path` is a folder (symlinks followed). */
  isDir(path: string): boolean
  /** UTF-8 text of a small file, or null when it cannot be read. */
  readText(path: string): string | null
}

/** {@link FsProbe} over `node:fs`; never writes. */
export const nodeFs: FsProbe = {
  exists(path) {
    try {
      statSync(path)
      return true
    } catch {
      return false
    }
  },
  isDir(path) {
    try {
      return statSync(path).isDirectory()
    } catch {
      return false
    }
  },
  readText(path) {
    try {
      return readFileSync(path, 'utf8')
    } catch {
      return null
    }
  },
}
