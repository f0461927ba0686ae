/**
 * A data folder Sepia may not write (another user's, as a copied or shared setup leaves it) is said
 * in plain words naming the folder, never as Node's stack trace (tester pass of session 11:
 * "EPERM: operation not permitted, chmod ... at privateDir"). Runs the built CLI as user `nobody`
 * through util-linux `setpriv`, so it needs root (CI and this machine run as root) and skips,
 * saying why, otherwise.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openCatalog } from '../src/main/catalog/schema'
import { REPO_ROOT } from './helpers/golden'

const SEPIA = join(REPO_ROOT, 'bin', 'sepia.mjs')
const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups']

function skipReason(): string | undefined {
  if (process.platform === 'win32' || process.getuid?.() !== 0) return 'needs root to run the CLI as another user'
  if (!existsSync('/usr/bin/setpriv')) return 'needs util-linux setpriv'
  const r = spawnSync('/usr/bin/setpriv', [...NOBODY, process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(SEPIA)})`])
  if (r.status !== 0) return 'user nobody cannot read the repository here'
  return undefined
}

const skip = skipReason()
if (skip) console.warn(`Skipping: ${skip}`)

describe.skipIf(skip !== undefined)('a data folder of another user', () => {
  // Not the run's private tmpdir: user nobody must be able to reach the folder.
  const base = mkdtempSync('/tmp/sepia-unwritable-')
  afterAll(() => rmSync(base, { recursive: true, force: true }))

  it('is named in plain words, with no stack trace', () => {
    chmodSync(base, 0o755)
    const data = join(base, 'data')
    mkdirSync(data, { mode: 0o755 })
    chmodSync(data, 0o755)
    openCatalog(join(data, 'catalog.sqlite')).close()
    chmodSync(data, 0o755) // openCatalog made it private: another user's folder, readable by all
    const home = join(base, 'home')
    mkdirSync(home, { mode: 0o777 })
    chmodSync(home, 0o777)
    const r = spawnSync('/usr/bin/setpriv', [...NOBODY, process.execPath, SEPIA, 'list'], {
      env: { PATH: process.env['PATH'] ?? '', HOME: home, SEPIA_DATA_DIR: data },
      encoding: 'utf8',
    })
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toContain(`Sepia cannot write its data folder ${data}`)
    expect(r.stderr).toContain('SEPIA_DATA_DIR')
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })
})
