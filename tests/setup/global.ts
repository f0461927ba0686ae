/**
 * Vitest global setup: a temporary Sepia data folder for the whole run; after the run, remove the temporary SQLite copies readers made during it
 * (`sepia-sqlite-*` in the temp folder). Test workers are torn down without a normal process exit,
 * so the readers' own exit-time cleanup does not always run there; in the app it does.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup(): () => void {
  const started = Date.now()
  // Tests never touch the user's own Sepia data folder (catalog, restores, recent homes).
  const dataDir = mkdtempSync(join(tmpdir(), 'sepia-test-data-'))
  process.env.SEPIA_DATA_DIR ??= dataDir
  return () => {
    rmSync(dataDir, { recursive: true, force: true })
    for (const name of readdirSync(tmpdir())) {
      if (!name.startsWith('sepia-sqlite-')) continue
      const p = join(tmpdir(), name)
      try {
        if (statSync(p).mtimeMs >= started - 1000) rmSync(p, { recursive: true, force: true })
      } catch {
        // already gone
      }
    }
  }
}
