/**
 * Test helper: a temp folder that tests lay out as homes (`mkdirs(root, 'a/b', ...)`).
 * Only imported by `*.test.ts`.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** A fresh temp folder (real path, so assertions match what `fs` reports). */
export function tempRoot(prefix: string): { root: string; cleanup: () => void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `sepia-${prefix}-`)))
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) }
}

/** Create folders (`a/b/c`, POSIX separators) under `base`; returns `base`. */
export function mkdirs(base: string, ...rels: string[]): string {
  for (const rel of rels) mkdirSync(join(base, ...rel.split('/')), { recursive: true })
  return base
}

/** Create a file (and its parent folders) under `base`. */
export function touch(base: string, rel: string, text = ''): void {
  const path = join(base, ...rel.split('/'))
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}
