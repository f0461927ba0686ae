/**
 * Vitest global setup: one temporary folder for the whole run, removed after it, so the tests
 * leave nothing behind in the system's temp folder.
 *
 * The run folder (`sepia-test-run-*` in the system temp folder) becomes `TMPDIR`, `TEMP` and `TMP`
 * before the test workers start; the workers (forked after this runs) inherit that environment, so
 * every `os.tmpdir()` of a test, of the code under test and of the processes the tests spawn
 * (CLI runs, Chromium, PostgreSQL's test cluster, the readers' temporary SQLite copies) lands in it.
 * The folder is short (`/tmp/sepia-test-run-XXXXXX`), so Unix socket paths under it (PostgreSQL's
 * `.s.PGSQL.5432` in its own `sepia-pg-*` folder, Chromium's singleton socket) stay far below the
 * ~107-byte limit. Test workers are torn down without a normal process exit, so whatever their
 * exit-time cleanup would have removed goes with the folder.
 *
 * A crashed or killed run leaves its one folder; a later run removes the run folders older than a
 * day (a run still going on next to it is younger than that and keeps its folder).
 *
 * Also inside the run folder: a Sepia data folder (`SEPIA_DATA_DIR`, unless set), so tests never
 * touch the user's own catalog, restores or recent homes; and Chromium's config folder
 * (`CHROME_CONFIG_HOME`), so the browser tests and PDF exports leave nothing in `~/.config/chromium`.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const PREFIX = 'sepia-test-run-'
const STALE_MS = 24 * 60 * 60 * 1000

/** Remove the run folders in `base` that a run left more than a day ago. */
function removeStale(base: string): void {
  for (const name of readdirSync(base)) {
    if (!name.startsWith(PREFIX)) continue
    const p = join(base, name)
    try {
      if (Date.now() - statSync(p).mtimeMs > STALE_MS) rmSync(p, { recursive: true, force: true })
    } catch {
      // gone already, or not ours to remove
    }
  }
}

export default function setup(): () => void {
  const base = tmpdir()
  removeStale(base)
  const run = mkdtempSync(join(base, PREFIX))
  // Others may pass through (not list): as root, the PostgreSQL test cluster runs as `nobody`
  // (tests/helpers/postgres.ts) in a folder under this one.
  chmodSync(run, 0o711)
  const saved = { TMPDIR: process.env.TMPDIR, TEMP: process.env.TEMP, TMP: process.env.TMP, SEPIA_DATA_DIR: process.env.SEPIA_DATA_DIR, CHROME_CONFIG_HOME: process.env.CHROME_CONFIG_HOME }
  process.env.TMPDIR = process.env.TEMP = process.env.TMP = run
  // Chromium keeps its crash-report database in its default profile folder (`~/.config/chromium`)
  // whatever `--user-data-dir` says; CHROME_CONFIG_HOME moves that folder (Chromium only).
  process.env.CHROME_CONFIG_HOME = join(run, 'chrome-config')
  process.env.SEPIA_DATA_DIR ??= mkdtempSync(join(run, 'sepia-test-data-'))
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
    try {
      rmSync(run, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    } catch (e) {
      console.warn(`could not remove the test run folder ${run} (the next run removes it after a day): ${String(e)}`)
    }
  }
}
