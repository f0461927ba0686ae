/**
 * A catalog filled by other reading code is read again (reader-key.ts): a fixed reader reaches the
 * sessions of a warm catalog whose files did not change, the old rows stay listed until then, and
 * archived rows are left alone. Homes are copies of the real fixture homes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { READER_SOURCES, READERS_META, readersKey, readersSourceHash, staleReadsOnReaderChange } from './reader-key'
import { openCatalog } from './schema'
import { copyFreshHome, listFresh } from '../../../tests/helpers/fresh-home'

let dir: string
let home: string
let catalogPath: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sepia-readers-'))
  home = join(dir, 'home')
  copyFreshHome(home)
  catalogPath = join(dir, 'data', 'catalog.sqlite')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A fresh process's `sepia list` on the catalog; counts the sessions each agent read. */
async function list(): Promise<{ sessions: number; reads: number; titles: string[] }> {
  const r = await listFresh(home, catalogPath)
  return { sessions: r.sessions.length, reads: [...r.reads.values()].reduce((a, b) => a + b, 0), titles: r.sessions.map((s) => s.title ?? '').sort() }
}

function setReadersMeta(value: string | undefined): void {
  const db = openCatalog(catalogPath)
  if (value === undefined) db.prepare('DELETE FROM meta WHERE key = ?').run(READERS_META)
  else db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(READERS_META, value)
  db.close()
}

describe('the reading code a catalog was filled by', () => {
  it('is recorded; the same code reads nothing again, other code reads every session again and lists the same', async () => {
    const first = await list()
    expect(first.sessions).toBeGreaterThan(0)
    expect(first.reads).toBeGreaterThan(0)
    expect((await list()).reads).toBe(0)
    // Written by another Sepia (the key is recorded by any open, so set it after the open's check).
    const db = openCatalog(catalogPath)
    expect(db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(READERS_META)?.value).toBe(readersKey())
    const rows = (db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n
    expect(staleReadsOnReaderChange(db, 'older-reader')).toBe(rows)
    expect(db.prepare(`SELECT count(*) AS n FROM meta WHERE key LIKE 'fresh:%'`).get()).toEqual({ n: 0 })
    db.close()
    const again = await list()
    expect(again.reads).toBe(first.reads)
    expect(again.sessions).toBe(first.sessions)
    expect(again.titles).toEqual(first.titles)
    expect((await list()).reads).toBe(0)
  })

  it('an older catalog that records no key is read again once', async () => {
    const first = await list()
    setReadersMeta(undefined)
    expect((await list()).reads).toBe(first.reads)
    expect((await list()).reads).toBe(0)
  })

  it('leaves archived rows and rows waiting for their message rows as they are', () => {
    mkdirSync(join(dir, 'data'), { recursive: true })
    const db = openCatalog(catalogPath)
    const put = db.prepare(
      `INSERT INTO sessions(home, agent, session_id, format, size, mtime_ms, stamp, ref, summary, gen) VALUES ('/h', 'claude-code', ?, 'f', 1, 1, ?, '{}', '{}', 1)`,
    )
    put.run('a', 'archived:1:2:/h/a.jsonl')
    put.run('b', 'rows-pending:10:20:/h/b.jsonl')
    put.run('c', '10:20:/h/c.jsonl\u0000/h/c2.jsonl')
    expect(staleReadsOnReaderChange(db, 'k2')).toBe(1)
    const stamps = db.prepare('SELECT session_id AS id, stamp FROM sessions ORDER BY session_id').all()
    expect(stamps).toEqual([
      { id: 'a', stamp: 'archived:1:2:/h/a.jsonl' },
      { id: 'b', stamp: 'rows-pending:10:20:/h/b.jsonl' },
      { id: 'c', stamp: '-1:20:/h/c.jsonl\u0000/h/c2.jsonl' }, // the files are still those of the stamp
    ])
    expect(staleReadsOnReaderChange(db, 'k2')).toBe(0)
    db.close()
  })

  it('the key is a hash of the reading sources: a change to one reader file changes it', () => {
    const src = join(dir, 'src')
    for (const s of READER_SOURCES) {
      const p = join(src, s)
      if (s.endsWith('.ts')) {
        mkdirSync(join(p, '..'), { recursive: true })
        writeFileSync(p, `// ${s}\n`)
      } else mkdirSync(join(p, 'x'), { recursive: true })
    }
    writeFileSync(join(src, 'main/agents/x/read.ts'), 'export {}\n')
    writeFileSync(join(src, 'main/agents/x/read.test.ts'), 'one\n')
    const k1 = readersSourceHash(src)
    writeFileSync(join(src, 'main/agents/x/read.test.ts'), 'two\n') // tests are not reading code
    expect(readersSourceHash(src)).toBe(k1)
    writeFileSync(join(src, 'main/agents/x/read.ts'), 'export const fixed = 1\n')
    expect(readersSourceHash(src)).not.toBe(k1)
    expect(readersKey()).toMatch(/^[0-9a-f]{16}$/)
  })
})
