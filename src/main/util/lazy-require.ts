/**
 * Packages loaded on first use (issue 15): `diff`, `fflate` and `fzstd` cost ~10–40 ms each to
 * load, and a warm `sepia list` or `sepia search` needs none of them (only exports, checkpoint
 * previews, zip bundles and Zed's compressed threads do). `src/cli/startup.test.ts` checks that
 * the CLI's static import graph does not reach them. Node's `node:child_process` is loaded the same
 * way by the few modules that spawn (platform/documents.ts, platform/terminal.ts, OpenCode's
 * project lookup): ~5-10 ms, and neither command spawns anything; `node:zlib` likewise by the
 * archive's blob store (archive/blobs.ts: ~5-8 ms, and neither command writes or reads a blob).
 */
import { createRequire } from 'node:module'

const requirePackage = createRequire(import.meta.url)

/** A getter that `require`s package `id` the first time it is called (CommonJS build of the package). */
export function lazyRequire<T>(id: string): () => T {
  let mod: T | undefined
  return () => (mod ??= requirePackage(id) as T)
}
