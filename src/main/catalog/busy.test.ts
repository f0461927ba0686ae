/**
 * Issue 14: two connections writing one catalog file. In WAL mode a transaction that read first
 * and then writes fails with SQLITE_BUSY_SNAPSHOT when the other connection committed in between
 * (the busy timeout does not apply); `openCatalog`'s transactions start over instead.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openCatalog } from './schema'
import { CatalogStore } from './store'

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))
const catalogFile = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'sepia-busy-'))
  dirs.push(d)
  return join(d, 'catalog.sqlite')
}

describe('catalog writes from two connections', () => {
  it('a plain connection fails with SQLITE_BUSY_SNAPSHOT (the failure being fixed)', () => {
    const file = catalogFile()
    openCatalog(file).close()
    const a = new Database(file)
    const b = new Database(file)
    a.prepare('SELECT count(*) FROM meta').get()
    const tx = a.transaction(() => {
      a.prepare('SELECT count(*) FROM meta').get() // the read snapshot
      b.prepare("INSERT INTO meta (key, value) VALUES ('b', '1')").run() // the other process commits
      a.prepare("INSERT INTO meta (key, value) VALUES ('a', '1')").run()
    })
    expect(() => tx()).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY_SNAPSHOT' }))
    a.close()
    b.close()
  })

  it('openCatalog restarts the transaction and both writes land', () => {
    const file = catalogFile()
    const a = openCatalog(file)
    const b = openCatalog(file)
    let attempts = 0
    const tx = a.transaction(() => {
      attempts++
      a.prepare('SELECT count(*) FROM meta').get()
      if (attempts === 1) b.prepare("INSERT INTO meta (key, value) VALUES ('b', '1')").run()
      a.prepare("INSERT INTO meta (key, value) VALUES ('a', '1')").run()
    })
    tx()
    expect(attempts).toBe(2)
    const keys = (b.prepare("SELECT key FROM meta WHERE key IN ('a', 'b') ORDER BY key").all() as { key: string }[]).map((r) => r.key)
    expect(keys).toEqual(['a', 'b'])
    a.close()
    b.close()
  })

  it('the FTS step writes while another connection holds an open read snapshot', () => {
    const file = catalogFile()
    const a = openCatalog(file)
    const b = openCatalog(file)
    const store = new CatalogStore(a)
    b.exec("INSERT INTO fts_pending (mid) VALUES (1), (2)")
    // b: a read snapshot left open, then a write committed by a third connection
    b.exec('BEGIN')
    b.prepare('SELECT count(*) FROM meta').get()
    const c = openCatalog(file)
    c.prepare("INSERT INTO meta (key, value) VALUES ('c', '1')").run()
    expect(store.ftsStep(10)).toBe(2)
    b.exec('COMMIT')
    expect((b.prepare('SELECT count(*) AS n FROM fts_pending').get() as { n: number }).n).toBe(0)
    a.close()
    b.close()
    c.close()
  })
})
