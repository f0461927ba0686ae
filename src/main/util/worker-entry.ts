/**
 * Where a worker thread's code is, for a module at `here` (its `import.meta.url`): the catalog's
 * indexing workers (`catalog/pool.ts`) and the CLI's early freshness check
 * (`catalog/early-freshness.ts`) start theirs the same way.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The built worker `name` (e.g. `catalog-worker.js`) for a bundled module at `here`, or undefined.
 * The bundler (electron-vite / Rollup) may put the module in `out/main/chunks/*.js` while the
 * worker entry is `out/main/<name>`, so the module's own folder and its parent are both looked in
 * (issue 15: the built bundle never started its workers).
 */
export function builtWorkerFile(here: string, name: string): string | undefined {
  for (const rel of [`./${name}`, `../${name}`]) {
    const p = fileURLToPath(new URL(rel, here))
    if (existsSync(p)) return p
  }
  return undefined
}

/**
 * The code of an `eval: true` worker that runs the TypeScript source `file` (relative to `here`)
 * through tsx's loader (tests, tsx, `npx sepia` from a checkout). Throws when tsx is not installed.
 */
export function sourceWorkerCode(here: string, file: string): string {
  const target = new URL(file, here).href
  const tsxApi = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href
  return `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(target)}) })`
}
