/**
 * The home folder: how the running user's home is found, and which path flavour (POSIX or
 * Windows) a given home's paths are joined with.
 */
import { posix, win32, type PlatformPath } from 'node:path'
import type { Env } from './index'

/** Trimmed value of an env variable, or undefined when unset or blank. */
export function envValue(env: Env, name: string): string | undefined {
  const v = env[name]?.trim()
  return v ? v : undefined
}

/**
 * The running user's home folder, by Cline's rule (seed 000 "Per-user storage";
 * sdk/packages/shared/src/storage/paths.ts `resolveDefaultHomeDir`, lines 84-103 at the seed's
 * commit): `$HOME` (ignored when it is `~`), else `%USERPROFILE%`, else `%HOMEDRIVE%%HOMEPATH%`
 * (both needed, concatenated as is: `C:` + `\Users\ana`), else `osHomedir()`. Values are trimmed.
 * When even `osHomedir()` is empty or `~`, returns `~` as Cline does. Never throws.
 *
 * @param env the environment (`process.env` for the running user)
 * @param osHomedir `os.homedir` (injected so tests control it)
 */
export function resolveHome(env: Env, osHomedir: () => string): string {
  const home = envValue(env, 'HOME')
  if (home && home !== '~') return home
  const profile = envValue(env, 'USERPROFILE')
  if (profile) return profile
  const drive = envValue(env, 'HOMEDRIVE')
  const path = envValue(env, 'HOMEPATH')
  if (drive && path) return `${drive}${path}`
  let osHome = ''
  try {
    osHome = osHomedir().trim()
  } catch {
    osHome = ''
  }
  return osHome && osHome !== '~' ? osHome : '~'
}

/**
 * The path functions to join paths under `home` with. A home written as a Windows path
 * (`C:\...`, `C:/...` or a `\\server\share` UNC path) is the running user's own Windows home
 * and gets `path.win32`; every other home (including a Windows profile copied to a Linux or macOS
 * disk) is a POSIX path on this machine and gets `path.posix`. Pure: the flavour follows the
 * string, not `process.platform`, so the Windows rules are testable on Linux.
 */
export function pathApiFor(home: string): PlatformPath {
  return /^[A-Za-z]:([\\/]|$)/.test(home) || home.startsWith('\\\\') ? win32 : posix
}
