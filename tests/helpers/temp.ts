/**
 * Scaffolding a test file sets up once: temporary folders removed after its tests, and environment
 * variables set for its tests and put back after them (vitest `beforeAll`/`afterAll`, so call
 * these at the top level of the file or in a `describe`). The folders are made in `os.tmpdir()`,
 * which the global setup (tests/setup/global.ts) points at a folder of the run's own.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'

/** A `temp(prefix)` that makes a new folder `<tmpdir>/<prefix>XXXXXX`; every one is removed after the file's tests. */
export function tempDirs(): (prefix: string) => string {
  const made: string[] = []
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true })
  })
  return (prefix) => {
    const d = mkdtempSync(join(tmpdir(), prefix))
    made.push(d)
    return d
  }
}

/** Set the environment variables `values()` gives before the file's tests; after them, put back what each was (or remove it). */
export function useEnv(values: () => Record<string, string>): void {
  const saved = new Map<string, string | undefined>()
  beforeAll(() => {
    for (const [k, v] of Object.entries(values())) {
      if (!saved.has(k)) saved.set(k, process.env[k])
      process.env[k] = v
    }
  })
  afterAll(() => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  })
}
