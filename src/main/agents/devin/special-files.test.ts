/**
 * Issue 16 (a silent drop found by `npm run fuzz`): `sessions.db` replaced by a link to
 * `/dev/zero` was taken for an absent database, so every session it held vanished with no word.
 * Now it is a warning naming the file, and the transcripts still load.
 */
import { readdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDevinDbs } from './db'
import { storeDir } from '../../../../tests/builders/devin/fixtures'
import { writeMainHome } from '../../../../tests/builders/devin/fixtures-homes'
import { readHome, tempHome } from '../../../../tests/builders/devin/testing'

const homes: string[] = []
afterAll(() => {
  closeDevinDbs()
  for (const h of homes) rmSync(h, { recursive: true, force: true })
})

describe('devin: a store file that is not a regular file (issue 16)', () => {
  it.skipIf(process.platform === 'win32')('sessions.db as a link to /dev/zero: a warning naming it; the transcripts still load', async () => {
    const home = tempHome()
    homes.push(home)
    writeMainHome(home)
    const db = join(storeDir(home), 'sessions.db')
    rmSync(db)
    symlinkSync('/dev/zero', db)
    const r = await readHome(home)
    const named = r.diagnostics.filter((d) => d.path === db && d.severity === 'warning')
    expect(named.map((d) => d.message)).toEqual([expect.stringContaining('is not a regular file')])
    // Every transcript file of the fixture is still read (ATIF sessions: one per file).
    const transcripts = readdirSync(join(storeDir(home), 'transcripts')).filter((n) => n.endsWith('.json'))
    expect(r.sessions.length).toBeGreaterThan(0)
    expect(r.sessions.length).toBeLessThanOrEqual(transcripts.length)
  })
})
