/**
 * The write turn of the rows pass folds the write-ahead log after the turn, not inside it
 * (`rows.ts` `useWriteTurn` with a connection, `inTurn`; issue 15): the connection's automatic
 * checkpoint is off, each turn is followed by a PASSIVE checkpoint, and what was committed is
 * in the catalog file once the last connection closes, as before.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { inTurn, newWriteTurn, useWriteTurn, withTurn } from './rows'
import { openCatalog } from './schema'

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

describe('the write turn and the checkpoints', () => {
  it('checkpoints after each turn, outside it, and keeps every commit', () => {
    const d = mkdtempSync(join(tmpdir(), 'sepia-turn-'))
    dirs.push(d)
    const file = join(d, 'catalog.sqlite')
    const db = openCatalog(file)
    const other = openCatalog(file)
    const turn = newWriteTurn()
    useWriteTurn(turn, db)
    try {
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
      // The other connection keeps SQLite's automatic checkpoint.
      expect(other.pragma('wal_autocheckpoint', { simple: true })).toBe(1000)
      let heldDuringFn = false
      const flag = new Int32Array(turn)
      const put = db.prepare('INSERT INTO meta(key, value) VALUES (?, ?)')
      for (let i = 0; i < 50; i++) {
        inTurn(() => {
          heldDuringFn = Atomics.load(flag, 0) === 1
          db.transaction(() => put.run(`k${i}`, 'x'.repeat(20_000)))()
        })
        expect(heldDuringFn).toBe(true)
        expect(Atomics.load(flag, 0)).toBe(0)
      }
      // Each turn's checkpoint copied the whole log into the file, so the next commit wrote the log
      // from its start again: it holds one commit's pages (~5 of 4 KB), not the 50 commits' ~250.
      const [r] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[]
      expect(r!.log).toBeLessThan(30)
      // A turn taken by another thread's code (main's `withTurn`) is the same lock.
      withTurn(turn, () => expect(Atomics.load(flag, 0)).toBe(1))
      expect(other.prepare("SELECT count(*) FROM meta WHERE key LIKE 'k%'").pluck().get()).toBe(50)
    } finally {
      useWriteTurn(undefined)
      db.close()
      other.close()
    }
    const again = openCatalog(file)
    expect(again.prepare("SELECT count(*) FROM meta WHERE key LIKE 'k%'").pluck().get()).toBe(50)
    again.close()
  })
})
