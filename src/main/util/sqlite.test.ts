/** openSqliteReadOnly reads a copy: nothing appears next to the source, the copy is removed. */
import Database from 'better-sqlite3'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSqliteReadOnly } from './sqlite'

describe('openSqliteReadOnly', () => {
  it('reads a WAL database, including uncheckpointed rows, without touching the source folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-sqlite-test-'))
    const path = join(dir, 'store.db')
    const writer = new Database(path)
    writer.pragma('journal_mode = WAL')
    writer.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2)')
    // keep the writer open so the rows stay in the -wal file
    expect(existsSync(path + '-wal')).toBe(true)
    const before = readdirSync(dir).sort()
    const h = openSqliteReadOnly(path)
    expect(h.db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 })
    const copyDir = dirname(h.db.name)
    expect(copyDir).not.toBe(dir)
    h.close()
    h.close()
    expect(existsSync(copyDir)).toBe(false)
    expect(readdirSync(dir).sort()).toEqual(before)
    writer.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('throws for a file that is not a database and leaves no temp folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-sqlite-test-'))
    const path = join(dir, 'bad.db')
    writeFileSync(path, 'not sqlite')
    expect(() => openSqliteReadOnly(path)).toThrow(/not a database/)
    expect(readdirSync(dir)).toEqual(['bad.db'])
    rmSync(dir, { recursive: true, force: true })
  })
})
