/**
 * The `-wal` frame check (`walFrames`) against the real WAL-only store: every frame verifies;
 * a flipped byte inside a page is found at its frame, as SQLite would stop there.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../../tests/helpers/golden'
import { walFrames } from './db'

const WAL = join(REPO_ROOT, 'fixtures/public-real/crush/exabgp-wal-only/home/Code/github.com/exa-networks/exabgp/main/.crush/crush.db-wal')

describe('crush -wal frame check', () => {
  it('verifies every frame of the real WAL, and finds a flipped byte at its frame', () => {
    const buf = readFileSync(WAL)
    const pageSize = buf.readUInt32BE(8)
    const frames = Math.floor((buf.length - 32) / (24 + pageSize))
    expect(walFrames(WAL)).toEqual({ frames, valid: frames })
    const tmp = join(mkdtempSync(join(tmpdir(), 'sepia-wal-')), 'c.db-wal')
    copyFileSync(WAL, tmp)
    const bad = Buffer.from(buf)
    const at = 32 + 5 * (24 + pageSize) + 24 + 100
    bad[at] = bad[at]! ^ 0xff
    writeFileSync(tmp, bad)
    expect(walFrames(tmp)).toEqual({ frames, valid: 5 })
  })
})
