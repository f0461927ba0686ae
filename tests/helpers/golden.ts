/**
 * Golden-file assertions (STYLE.md "Golden tests that refresh themselves"): the value is written
 * to `fixtures/goldens/<name>.json` when the file is missing or `UPDATE=1`, else compared with
 * `toEqual`. The repository root is replaced by `<repo>` in every string so goldens do not depend
 * on where the repository is cloned.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'

/** Absolute path of the repository root (two folders above this file). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Folder holding the golden files. */
export const GOLDENS_DIR = join(REPO_ROOT, 'fixtures', 'goldens')

/**
 * A JSON-stable copy of `value` with the repository root (in native and `/` spelling) replaced by
 * `<repo>` in every string; `undefined` members are dropped as `JSON.stringify` does.
 */
export function normalizeForGolden(value: unknown): unknown {
  const roots = [...new Set([REPO_ROOT, REPO_ROOT.replace(/\\/g, '/')])]
  return JSON.parse(JSON.stringify(value), (_key, v: unknown) => {
    if (typeof v !== 'string') return v
    let s = v
    for (const r of roots) s = s.split(r).join('<repo>')
    return s
  })
}

/**
 * Compare `value` with `fixtures/goldens/<name>.json` (e.g. `claude-code/<sessionId>`), writing
 * the file first when it is missing or the environment has `UPDATE=1`.
 */
export function expectGolden(name: string, value: unknown): void {
  const path = join(GOLDENS_DIR, `${name}.json`)
  const actual = normalizeForGolden(value)
  if (process.env.UPDATE === '1' || !existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, JSON.stringify(actual, null, 2) + '\n')
    return
  }
  const expected: unknown = JSON.parse(readFileSync(path, 'utf8'))
  expect(actual, `golden ${name}.json differs (run with UPDATE=1 to rewrite)`).toEqual(expected)
}
