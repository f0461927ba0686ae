/**
 * V8's compile cache for the CLI's modules (issue 15): every `sepia` command compiles ~1.3 MB of
 * bundle chunks before it runs (~30-60 ms of a warm `sepia list`/`sepia search`; BENCHMARKS.md).
 * Node 22.1+ (and the Node of Electron 41) keep compiled code on disk with
 * `module.enableCompileCache(dir)`; Node 20 has no such call and nothing happens there.
 * bin/sepia.mjs calls {@link enableCliCompileCache} with Node's call (built entry
 * out/main/compile-cache.js) before it loads anything else, only when the call exists.
 *
 * The cache is `<app data dir>/compile-cache` (`SEPIA_DATA_DIR` or the per-OS folder of
 * `defaultAppDataDir`, which holds the catalog): Sepia's own folder, never a home it reads. It is
 * used only when that folder exists already (a command never creates Sepia's data folder just for
 * a cache). Node checks each entry against the module's source text, so an edited or rebuilt
 * bundle is compiled again; `NODE_DISABLE_COMPILE_CACHE=1` turns it off as for any Node program.
 */
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { defaultAppDataDir } from '../main/context'
import { resolveHome } from '../main/platform/home'

/** The cache folder's name inside the app data folder. */
export const COMPILE_CACHE_DIR = 'compile-cache'

type EnableCompileCache = (dir: string) => unknown

/**
 * Turn the compile cache on in `<app data dir>/compile-cache`; resolves the folder, or undefined
 * when it stays off (no such call in this Node, no app data folder yet, the call failed).
 */
export function enableCliCompileCache(env: NodeJS.ProcessEnv, enable: EnableCompileCache | undefined): string | undefined {
  if (!enable) return undefined
  const platform = process.platform === 'win32' ? 'win32' : process.platform === 'darwin' ? 'darwin' : 'linux'
  const data = defaultAppDataDir(platform, env, resolveHome(env, homedir))
  if (!existsSync(data)) return undefined
  const dir = join(data, COMPILE_CACHE_DIR)
  try {
    enable(dir)
  } catch {
    return undefined
  }
  return dir
}
