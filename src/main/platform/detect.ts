/**
 * Which OS a home folder's layout follows, detected from its content, so a copied home (a Windows
 * profile copied to a Linux laptop, a macOS home restored from a backup) is read with its own
 * OS's layout.
 */
import type { HomeOs } from '../../shared/ir'
import { pathApiFor } from './home'
import { nodeFs, type FsProbe } from './probe'

/**
 * Marker paths per OS, relative to the home, checked in this order (first match wins).
 * Windows profiles hold `AppData\Roaming`, `AppData\Local` and the registry hive `NTUSER.DAT`;
 * macOS homes hold `Library/Application Support` and `Library/Preferences`.
 */
export const HOME_OS_MARKERS: ReadonlyArray<{ os: HomeOs; paths: readonly (readonly string[])[] }> = [
  { os: 'win32', paths: [['AppData', 'Roaming'], ['AppData', 'Local'], ['NTUSER.DAT'], ['ntuser.dat']] },
  { os: 'darwin', paths: [['Library', 'Application Support'], ['Library', 'Preferences']] },
]

/**
 * Detect whose layout a home follows: `win32` when it has `AppData/Roaming`, `AppData/Local` or
 * `NTUSER.DAT`; else `darwin` when it has `Library/Application Support` or `Library/Preferences`;
 * else `linux` (also for a missing or unreadable folder). Never throws.
 *
 * @param home absolute home path
 * @param fs file probe; defaults to the real disk
 */
export function detectHomeOs(home: string, fs: FsProbe = nodeFs): HomeOs {
  const p = pathApiFor(home)
  for (const { os, paths } of HOME_OS_MARKERS) {
    if (paths.some((parts) => fs.exists(p.join(home, ...parts)))) return os
  }
  return 'linux'
}
