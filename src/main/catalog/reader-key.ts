/**
 * The catalog is a cache of what the readers made of each session file; a new Sepia whose readers
 * read a file differently (a fixed reader) must not keep showing the old reading of a file that has
 * not changed since. The catalog records the key of the reading code it was filled by (`meta`
 * `readers`); a catalog opened by other reading code has every row's refresh stamp made stale and
 * its freshness snapshots dropped ({@link staleReadsOnReaderChange}), so the next refresh reads
 * every session again while the old rows stay listed until then (the app opens as fast as before;
 * an emptied catalog would show nothing until the whole cold index had run).
 *
 * What counts as reading code: every non-test source of `src/main/agents/` (discovery and
 * readers), `src/main/ir/` (the IR builders), `src/shared/ir.ts` and the catalog's own
 * row makers `src/main/catalog/extract.ts` and `link.ts` ({@link READER_SOURCES}).
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type Database from 'better-sqlite3'

/** Set by the build (`electron.vite.config.ts`): {@link readersSourceHash} of the source tree. */
declare const __SEPIA_READERS_HASH__: string | undefined

/** The reading code, relative to `src/` (folders are walked; `*.test.ts` aside). */
export const READER_SOURCES = ['main/agents', 'main/ir', 'shared/ir.ts', 'main/catalog/extract.ts', 'main/catalog/link.ts'] as const

/** `meta` key of the reading code's key the catalog was filled by. */
export const READERS_META = 'readers'

/**
 * The hash of {@link READER_SOURCES} under `srcDir` (the repository's `src/`): each file's path
 * and bytes, in path order. Hex, 16 characters. Throws when a source is missing (a tree that is
 * not Sepia's sources).
 */
export function readersSourceHash(srcDir: string): string {
  const files: string[] = []
  const walk = (rel: string): void => {
    const abs = join(srcDir, rel)
    if (statSync(abs).isDirectory()) {
      for (const n of readdirSync(abs).sort()) walk(`${rel}/${n}`)
    } else if (rel.endsWith('.ts') && !rel.endsWith('.test.ts')) files.push(rel)
  }
  for (const s of READER_SOURCES) walk(s)
  const h = createHash('sha256')
  for (const f of files) h.update(f).update('\0').update(readFileSync(join(srcDir, f))).update('\0')
  return h.digest('hex').slice(0, 16)
}

let key: string | null | undefined

/**
 * The key of this build's reading code: the hash the build computed, else (tsx sources, tests)
 * the same hash of the source tree around this module, else null (unknown: a catalog is then
 * never made stale by this process).
 */
export function readersKey(): string | null {
  if (key !== undefined) return key
  if (typeof __SEPIA_READERS_HASH__ === 'string' && __SEPIA_READERS_HASH__ !== '') return (key = __SEPIA_READERS_HASH__)
  try {
    key = readersSourceHash(fileURLToPath(new URL('../../', import.meta.url)))
  } catch {
    key = null
  }
  return key
}

/**
 * When the catalog `db` was filled by other reading code than `readerKey` (or records none, an
 * older catalog), make every read row stale: its refresh stamp (`size:mtimeMs:files`, store.ts
 * `stampOf`) gets size `-1`, which no file has, so the next refresh reads it again; the freshness
 * snapshots (`fresh:*`) are dropped so that refresh discovers every store. Rows read from the
 * archive (`archived:` stamps) and rows still waiting for their message rows (`rows-pending:`) are
 * left as they are. Records `readerKey`. Returns how many rows were made stale. No-op for a null key.
 */
export function staleReadsOnReaderChange(db: Database.Database, readerKey: string | null = readersKey()): number {
  if (readerKey === null) return 0
  const get = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?')
  if (get.get(READERS_META)?.value === readerKey) return 0
  let n = 0
  db.transaction(() => {
    if (get.get(READERS_META)?.value === readerKey) return // another process did it meanwhile
    // In JavaScript, not SQL: a stamp's file list is separated by NUL, where SQLite's substr() stops.
    const set = db.prepare<[string, number]>('UPDATE sessions SET stamp = ? WHERE sid = ?')
    for (const r of db.prepare<[], { sid: number; stamp: string }>('SELECT sid, stamp FROM sessions').all()) {
      const colon = r.stamp.indexOf(':')
      if (colon <= 0 || r.stamp.startsWith('archived:') || r.stamp.startsWith('rows-pending:') || r.stamp.startsWith('-1:')) continue
      set.run(`-1${r.stamp.slice(colon)}`, r.sid)
      n++
    }
    db.prepare(`DELETE FROM meta WHERE key LIKE 'fresh:%'`).run()
    db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(READERS_META, readerKey)
  }).immediate()
  return n
}
