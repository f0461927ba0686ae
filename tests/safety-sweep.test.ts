/**
 * Issue 9 item 1: sources are never modified. Every read-only API method (list, open, session,
 * reveal, export, checkpoint list and preview, convert plans, and every method added later, see
 * tests/helpers/sweep.ts) runs over the fixture homes of every agent and over the demo library;
 * every file's hash, mode and mtime and every directory listing are identical afterwards, and no
 * `-wal`, `-shm` or `-journal` file appears beside a database.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApi } from '../src/main/api'
import { demoHomes, findAppRoot } from '../src/main/context'
import { allFixtureHomes } from './helpers/fixture-homes'
import { snapshotTree } from './helpers/snapshot'
import { neverResolved, runSweep, sweepContext, WRITE_METHODS } from './helpers/sweep'

const ROOT = findAppRoot()

describe('safety: every read-only API method leaves every source as it was', () => {
  it('sweeps the API over every agent’s fixture homes and the demo library', async () => {
    const homes = allFixtureHomes()
    const watched = [...new Set([...homes, ...demoHomes(join(ROOT, 'fixtures'))])]
    const before = new Map(watched.map((h) => [h, snapshotTree(h)]))

    const api = createApi(sweepContext(homes))
    const report = await runSweep(api, homes)

    const methods = new Set(report.calls.map((c) => c.method))
    console.log(`safety sweep: ${report.calls.length} calls over ${methods.size} read-only methods (${[...methods].join(', ')}); skipped writes: ${WRITE_METHODS.join(', ')}`)
    const failed = neverResolved(report)
    if (Object.keys(failed).length) console.log('safety sweep: methods that rejected every call:', failed)

    expect(report.unknown, 'API methods with no row in tests/helpers/sweep.ts READ_SWEEP and not in WRITE_METHODS').toEqual([])
    for (const m of ['getLibrary', 'getSession', 'revealSecrets', 'openHome', 'openDemo']) expect(failed[m], m).toBeUndefined()
    expect(report.calls.filter((c) => c.method === 'getSession' && c.result.ok).length).toBeGreaterThan(20)

    for (const home of watched) {
      const after = snapshotTree(home)
      const added = Object.keys(after).filter((p) => !(p in before.get(home)!))
      expect(added.filter((p) => /-(wal|shm|journal)$/.test(p)), `SQLite side files created in ${home}`).toEqual([])
      expect(after, `files changed in ${home}`).toEqual(before.get(home))
    }
  }, 240_000)
})
