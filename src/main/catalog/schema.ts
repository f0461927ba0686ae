/**
 * The catalog database: a cache of what the readers found, in `<appDataDir>/catalog.sqlite`
 * (better-sqlite3). Deleting it loses nothing: every row is rebuilt from the stores.
 *
 * Tables (all times ms since epoch, tokens integers, cost USD):
 * - `sessions`: one row per (home, agent, session id) with the list fields, usage totals, the
 *   StoreRef it was read from (`ref`), its files' total size and newest mtime (`stamp`: the refresh
 *   key), the link results of the last link pass and `gen` (the change counter when last written).
 * - `files`: the source files of each session with size and mtime.
 * - `messages`: one row per IR node that has text: node id, role, time, model, tool names and the
 *   text that is searchable (capped, see `extract.ts`). `mid` is AUTOINCREMENT: never handed out
 *   twice, so an index entry left for a deleted row can never name another message.
 * - `fts_pending`: rows not yet in the full-text index (written with the rows, same transaction;
 *   the search phase of a refresh fills the index in the background); `fts_deleted`: mids whose
 *   rows were deleted, for the index to drop (`seq` AUTOINCREMENT, in commit order).
 * - `skeletons`: the link skeleton of each session (`extract.ts` `skeletonOf`), out of the
 *   `sessions` row the listing reads: part 0 is the skeleton session JSON, parts 1.. (the
 *   streaming path, `stream.ts`) JSON arrays of further nodes of up to ~1 MB each, so a large
 *   session's skeleton is never one ~100 MB string.
 * - `usage`: one row per node that records token usage (for aggregations by day/model/...).
 * - `removed`: sessions deleted from the catalog, with the `gen` of their removal (for `getChanges`).
 * - `meta`: key/value (the `gen` counter, the homes fully indexed, `catalog_id`: random, made
 *   with the catalog, the id its full-text index must carry).
 * - `list_cache`: per session row (`sid`), its summary as the list sends it (masked, links
 *   applied) and the row version and masking code it is valid for (`key`, `summary-mask.ts`).
 *
 * The full-text index is its own database file, `search.sqlite` beside the catalog (WAL), attached
 * to every catalog connection as schema `search` (so `fts` in a query names it). One file would
 * have one writer: the index's inserts (~11 s of a cold index of the bench corpus) waited for the
 * rows' write lock and held it (BENCHMARKS.md "Search ready, session 10" and "session 11"). It holds
 * - `fts`: `messages.text` as `ftsText` makes it (CJK runs as bigrams, `search/cjk.ts`), rowid =
 *   `messages.mid`: a contentless FTS5 table (`content=''`, `contentless_delete=1`, SQLite ≥ 3.43;
 *   better-sqlite3 12 bundles 3.53), so the text is stored once, in `messages`, where snippets are
 *   cut from it (`search/snippet.ts`); a row leaves the index by `DELETE ... WHERE rowid = ?`,
 *   without reading its text back. Searches join its rowids to `messages`: an entry whose row is
 *   gone (its delete still queued) drops out there.
 * - `meta`: `catalog_id` (the catalog it indexes), `through_mid` (every queued mid at or below it
 *   is in `fts`) and `deleted_through` (every `fts_deleted.seq` at or below it is applied), moved
 *   in the same transaction as the index (`CatalogStore.ftsStep`, which then drops those queue
 *   entries in a second, catalog, transaction; a crash between the two is harmless).
 * An index that is missing, not a database, of another {@link SEARCH_VERSION} or of another
 * catalog is emptied and every row queued again ({@link syncSearch}): deleting either file
 * loses nothing.
 *
 * Secondary indexes are only those a query's plan uses (EXPLAIN QUERY PLAN, issue 15): v8 dropped
 * `sessions_gen` (`changedSince` seeks `sessions_project` by home instead) and `sessions_parent`
 * (no query of the catalog filters on `parent_session_id`).
 *
 * Tokenizer: `unicode61 remove_diacritics 2` with its default separators, so `src/main/lib.ts`
 * is indexed as `src main lib ts` and a query for a path or `snake_case` name is run as a phrase
 * of those tokens (see `search/query.ts`). Measured on 50 MB of code-like text (BENCHMARKS.md):
 * unicode61 8.9 MB/s and 82 MB of index; `tokenchars '_-./'` 11.3 MB/s but a search for
 * `library` then misses `src/main/library.ts`; `prefix='2 3'` 4.6 MB/s; trigram 1.6 MB/s and
 * 179 MB. Prefix queries (`getSess*`) run on the plain index.
 */
import Database from 'better-sqlite3'
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { SepiaError } from '../../shared/api'
import { ftsText } from '../search/cjk'
import { staleReadsOnReaderChange } from './reader-key'

/**
 * Version of the catalog's schema; a catalog with another version is emptied and rebuilt. 6: the
 * search index holds masked text (issue 16), and readers mark CLI-injected records (issue 14).
 * 7: a session's `diagnostic_count` counts problems only, not `info` notes (issue 17).
 * 8: contentless full-text index with CJK bigrams, skeletons in their own table (issue 15).
 * 9: the full-text index in its own file, `messages.mid` AUTOINCREMENT, `fts_deleted`, `catalog_id` (issue 15).
 */
export const SCHEMA_VERSION = 9

/** Name of the SQL function giving the text the full-text index holds for a message's text (`ftsText`). */
export const FTS_TEXT_FUNCTION = 'sepia_fts_text'

/** File name of the catalog inside the app data folder. */
export const CATALOG_FILE = 'catalog.sqlite'

/** File name of the full-text index, beside the catalog (see the module docstring). */
export const SEARCH_FILE = 'search.sqlite'

/** Schema name the full-text index is attached as on every catalog connection. */
export const SEARCH_SCHEMA = 'search'

/**
 * Version of `search.sqlite`'s schema (its `user_version`); an index of another version is
 * emptied and every message row queued for it again. 1: issue 15, the index out of the catalog.
 */
export const SEARCH_VERSION = 1

const SEARCH_DDL = `
CREATE VIRTUAL TABLE IF NOT EXISTS ${SEARCH_SCHEMA}.fts USING fts5(text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE TABLE IF NOT EXISTS ${SEARCH_SCHEMA}.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`

const DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
  sid INTEGER PRIMARY KEY,
  home TEXT NOT NULL,
  agent TEXT NOT NULL,
  session_id TEXT NOT NULL,
  format TEXT NOT NULL,
  project TEXT,
  title TEXT,
  created_at INTEGER,
  last_activity_at INTEGER,
  model TEXT,
  models TEXT,
  message_count INTEGER NOT NULL DEFAULT 0,
  tool_call_count INTEGER NOT NULL DEFAULT 0,
  node_count INTEGER NOT NULL DEFAULT 0,
  diagnostic_count INTEGER NOT NULL DEFAULT 0,
  parent_session_id TEXT,
  parent_tool_call_id TEXT,
  child_session_ids TEXT,
  call_links TEXT,
  link_agent_name TEXT,
  input_tokens INTEGER,
  output_tokens INTEGER,
  cache_read_tokens INTEGER,
  cache_write_tokens INTEGER,
  thinking_tokens INTEGER,
  cost REAL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  stamp TEXT NOT NULL,
  ref TEXT NOT NULL,
  summary TEXT NOT NULL,
  diagnostics TEXT,
  credentials TEXT,
  gen INTEGER NOT NULL,
  UNIQUE (home, agent, session_id)
);
CREATE TABLE IF NOT EXISTS files (
  sid INTEGER NOT NULL,
  path TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  PRIMARY KEY (sid, path)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS messages (
  mid INTEGER PRIMARY KEY AUTOINCREMENT,
  sid INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  node_id TEXT NOT NULL,
  role TEXT NOT NULL,
  created_at INTEGER,
  model TEXT,
  tool_names TEXT,
  sig TEXT NOT NULL,
  text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_sid ON messages(sid, seq);
CREATE TABLE IF NOT EXISTS usage (
  mid INTEGER PRIMARY KEY,
  sid INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  created_at INTEGER,
  model TEXT,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens INTEGER NOT NULL DEFAULT 0,
  cache_write_tokens INTEGER NOT NULL DEFAULT 0,
  thinking_tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL
);
CREATE INDEX IF NOT EXISTS usage_sid ON usage(sid, seq);
CREATE TABLE IF NOT EXISTS skeletons (sid INTEGER NOT NULL, part INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (sid, part));
CREATE TABLE IF NOT EXISTS fts_pending (mid INTEGER PRIMARY KEY);
CREATE TABLE IF NOT EXISTS fts_deleted (seq INTEGER PRIMARY KEY AUTOINCREMENT, mid INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS removed (home TEXT NOT NULL, agent TEXT NOT NULL, session_id TEXT NOT NULL, gen INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS removed_gen ON removed(gen);
INSERT OR IGNORE INTO meta(key, value) VALUES ('gen', '0');
INSERT OR IGNORE INTO meta(key, value) VALUES ('catalog_id', lower(hex(randomblob(16))));
`

/**
 * Indexes for the search's filters (search/plan.ts), which read only them: `sessions` rows are
 * large (summary, ref) and so are `messages` rows (their text is inline).
 * - `sessions_project`: the sessions of a project/agent filter (a scan of the `sessions` rows
 *   takes ~70 ms for 10k sessions).
 * - `messages_meta`: a message's session, role, time, model and tools by `mid`, ~1 µs per match
 *   against ~4 µs for the row (~45 bytes per message).
 * - `sessions_list` (covering) and `sessions_extras` (partial: rows with diagnostics or credential
 *   files): the list reads its 10k rows' keys from them, not the wide rows (`CatalogStore.listForList`).
 * - `list_cache`: the list's masked summaries (a cache table, see `summary-mask.ts`).
 * Created by every open rather than in DDL, so a catalog written before them gets them without a
 * version bump and a rebuild (once: ~1 s per 200k messages; afterwards a no-op, no write lock).
 */
const INDEXES = `
CREATE INDEX IF NOT EXISTS sessions_project ON sessions(home, project, agent);
CREATE INDEX IF NOT EXISTS messages_meta ON messages(mid, sid, role, created_at, model, tool_names);
CREATE INDEX IF NOT EXISTS sessions_list ON sessions(home, sid, gen, agent, session_id, last_activity_at, created_at);
CREATE INDEX IF NOT EXISTS sessions_extras ON sessions(home) WHERE diagnostics IS NOT NULL OR credentials IS NOT NULL;
CREATE TABLE IF NOT EXISTS list_cache (sid INTEGER PRIMARY KEY, key TEXT NOT NULL, json TEXT NOT NULL);
`

const DROP = `
DROP TABLE IF EXISTS main.list_cache;
DROP TABLE IF EXISTS main.fts;
DROP TABLE IF EXISTS main.fts_pending;
DROP TABLE IF EXISTS main.fts_deleted;
DROP TABLE IF EXISTS main.skeletons;
DROP TABLE IF EXISTS main.usage;
DROP TABLE IF EXISTS main.messages;
DROP TABLE IF EXISTS main.files;
DROP TABLE IF EXISTS main.sessions;
DROP TABLE IF EXISTS main.removed;
DROP TABLE IF EXISTS main.meta;
`

/** How long a statement waits for another process's write lock (better-sqlite3 `timeout`, ms). */
export const BUSY_TIMEOUT_MS = 10_000

/** Connections whose `.immediate()` transactions lock only the catalog (the index is attached, see {@link retryingTransactions}). */
const lockMainOnly = new WeakSet<Database.Database>()

/** A write that changes nothing: as a transaction's first statement it takes the catalog's write lock only. */
const LOCK_MAIN = 'UPDATE main.meta SET value = value WHERE 0'

/** Times an outermost transaction is run again after `SQLITE_BUSY_SNAPSHOT` before the error is thrown. */
const SNAPSHOT_RETRIES = 50

/**
 * Make every outermost `db.transaction(fn)` (and its `.deferred/.immediate/.exclusive`) start over
 * when SQLite answers `SQLITE_BUSY_SNAPSHOT`: in WAL mode a transaction that began by reading and
 * then writes fails at once (the busy timeout does not apply) when another connection — a second
 * Sepia process, a worker — committed in between (sqlite.org/rescode.html#busy_snapshot; issue 14:
 * `sepia convert` crashed in the FTS step). The transaction was rolled back, so running `fn` again
 * from the start is what SQLite asks for. Nested calls (savepoints) are left alone: their outer
 * transaction retries. Once the index is attached (`search.sqlite`, {@link openCatalog}), an
 * outermost `.immediate()` is `BEGIN` plus a write that changes nothing in the catalog: SQLite's
 * `BEGIN IMMEDIATE` takes the write lock of every attached database, so every catalog writer
 * would otherwise wait for the index's writer, which is what the second file is for. Returns `db`.
 */
export function retryingTransactions(db: Database.Database): Database.Database {
  const original = db.transaction.bind(db)
  const pause = new Int32Array(new SharedArrayBuffer(4))
  let lockStatement: Database.Statement | undefined
  const retrying = <F extends (...args: never[]) => unknown>(run: F): F =>
    ((...args: Parameters<F>) => {
      for (let attempt = 0; ; attempt++) {
        const outer = !db.inTransaction
        try {
          return run(...args)
        } catch (e) {
          if (!outer || attempt >= SNAPSHOT_RETRIES || (e as { code?: unknown }).code !== 'SQLITE_BUSY_SNAPSHOT') throw e
          Atomics.wait(pause, 0, 0, Math.min(2 + attempt * 2, 50))
        }
      }
    }) as F
  db.transaction = ((fn: (...args: never[]) => unknown) => {
    const tx = original(fn)
    const wrapped = retrying(tx) as unknown as typeof tx
    wrapped.deferred = retrying(tx.deferred)
    let lockFirst = false
    const locked = original((...args: never[]) => {
      if (lockFirst) {
        lockFirst = false
        ;(lockStatement ??= db.prepare(LOCK_MAIN)).run()
      }
      return fn(...args)
    })
    wrapped.immediate = retrying(((...args: never[]) => {
      if (!lockMainOnly.has(db) || db.inTransaction) return tx.immediate(...args)
      lockFirst = true
      try {
        return locked.deferred(...args)
      } finally {
        lockFirst = false
      }
    }) as typeof tx.immediate)
    wrapped.exclusive = retrying(tx.exclusive)
    wrapped.default = retrying(tx.default)
    return wrapped
  }) as typeof db.transaction
  return db
}

/**
 * Create `dir` (and parents) and make it private to the user (0700); no-op where modes do not
 * exist. A folder of another owner (EPERM: only its owner may change its mode) is left as it is:
 * whether Sepia can write there is for the open that follows to find out ({@link openCatalog}).
 */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (process.platform !== 'win32') chmodIfOwned(dir, 0o700)
}

/** `chmod`, except on a file or folder of another owner (EPERM), which is left as it is. */
function chmodIfOwned(path: string, mode: number): void {
  try {
    chmodSync(path, mode)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') throw e
  }
}

/** Error codes of a data folder or catalog file Sepia may not write (Node's and SQLite's). */
const NOT_WRITABLE = /^(EACCES|EPERM|EROFS|SQLITE_CANTOPEN|SQLITE_READONLY|SQLITE_PERM|SQLITE_AUTH)/

/**
 * {@link openCatalogFile}, with a data folder or catalog Sepia may not write (permissions, a
 * read-only disk) reported in plain words naming the folder: SepiaError `CANNOT_WRITE`. Other
 * errors (a file that is not a database...) are thrown as SQLite or Node raised them.
 */
export function openCatalog(path: string): Database.Database {
  try {
    return openCatalogFile(path)
  } catch (e) {
    const code = (e as { code?: unknown }).code
    if (path === ':memory:' || typeof code !== 'string' || !NOT_WRITABLE.test(code)) throw e
    const dir = dirname(path)
    throw new SepiaError({
      code: 'CANNOT_WRITE',
      path: dir,
      message: `Sepia cannot write its data folder ${dir} (${(e as Error).message}). Make the folder and its files yours and writable, or set SEPIA_DATA_DIR to a folder you can write.`,
    })
  }
}

/**
 * Open (creating when absent) the catalog at `path`, or an in-memory catalog for `':memory:'`.
 * Sets WAL mode (readers never wait for the indexer), a 10 s busy timeout and transactions that
 * start over on `SQLITE_BUSY_SNAPSHOT` ({@link retryingTransactions}; several processes —
 * the app, a CLI, workers — may share one catalog) and creates or upgrades the schema: a catalog
 * of another {@link SCHEMA_VERSION} is emptied (it is a cache); adds the search indexes when
 * missing; makes every row stale when the catalog was filled by other reading code
 * ({@link staleReadsOnReaderChange}, reader-key.ts); attaches the full-text index
 * (`search.sqlite` beside the catalog, schema `search`; made again when missing, not a database,
 * or not this catalog's, {@link syncSearch}). Throws the SQLite error when the catalog file cannot
 * be opened or is not a database.
 */
function openCatalogFile(path: string): Database.Database {
  if (path !== ':memory:') privateDir(dirname(path))
  const db = retryingTransactions(new Database(path, { timeout: BUSY_TIMEOUT_MS }))
  // The catalog holds transcript text: readable by the user only (issue 16).
  if (path !== ':memory:') for (const f of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(f)) chmodIfOwned(f, 0o600)
  try {
    db.function(FTS_TEXT_FUNCTION, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? ftsText(text) : text))
    if (path !== ':memory:') db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('cache_size = -32768')
    db.pragma('temp_store = MEMORY')
    const version = db.pragma('user_version', { simple: true }) as number
    if (version !== SCHEMA_VERSION) {
      db.transaction(() => {
        const again = db.pragma('user_version', { simple: true }) as number
        if (again === SCHEMA_VERSION) return
        db.exec(DROP)
        db.exec(DDL)
        db.pragma(`user_version = ${SCHEMA_VERSION}`)
      }).immediate()
    }
    db.exec(INDEXES)
    staleReadsOnReaderChange(db)
    attachSearch(db, path)
  } catch (e) {
    db.close()
    throw e
  }
  return db
}

/** Path of the full-text index of the catalog at `catalogPath` ({@link SEARCH_FILE} beside it; `':memory:'` for an in-memory catalog). */
export function searchPathOf(catalogPath: string): string {
  return catalogPath === ':memory:' ? ':memory:' : join(dirname(catalogPath), SEARCH_FILE)
}

function attach(db: Database.Database, path: string): void {
  db.prepare(`ATTACH DATABASE ? AS ${SEARCH_SCHEMA}`).run(path)
  // Throws SQLITE_NOTADB (or SQLITE_CORRUPT) when the file is not a database.
  db.prepare(`SELECT count(*) FROM ${SEARCH_SCHEMA}.sqlite_master`).get()
}

/**
 * Attach the full-text index (`search.sqlite` beside the catalog, WAL) to a catalog connection as
 * schema {@link SEARCH_SCHEMA}, so `fts` (not in the catalog) names it in every query. A file that
 * is not a database is removed (with its log) and created again; then {@link syncSearch}.
 */
function attachSearch(db: Database.Database, catalogPath: string): void {
  const path = searchPathOf(catalogPath)
  const anew = (): void => {
    if (db.prepare('SELECT 1 FROM pragma_database_list WHERE name = ?').get(SEARCH_SCHEMA)) db.exec(`DETACH DATABASE ${SEARCH_SCHEMA}`)
    for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true })
    attach(db, path)
  }
  try {
    attach(db, path)
  } catch (e) {
    if (path === ':memory:' || !isCorruptError(e)) throw e
    anew()
  }
  // A text step that met a damaged page ({@link markSearchDamaged}) asked for a new index: made here,
  // before this connection uses it, and filled again from the catalog by syncSearch (the new file names no catalog).
  if (path !== ':memory:' && db.prepare(`SELECT 1 FROM main.meta WHERE key = '${SEARCH_DAMAGED_META}'`).get() !== undefined) {
    anew()
    db.prepare(`DELETE FROM main.meta WHERE key = '${SEARCH_DAMAGED_META}'`).run()
  }
  const setUp = (): void => {
    if (path !== ':memory:') {
      for (const f of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(f)) chmodIfOwned(f, 0o600)
      db.pragma(`${SEARCH_SCHEMA}.journal_mode = WAL`)
    }
    db.pragma(`${SEARCH_SCHEMA}.synchronous = NORMAL`)
    db.pragma(`${SEARCH_SCHEMA}.cache_size = -32768`)
    lockMainOnly.add(db)
    syncSearch(db)
  }
  try {
    setUp()
  } catch (e) {
    // A damaged page in the index's own tables (its header whole): made again, as a file that is not a database.
    if (path === ':memory:' || !isCorruptError(e)) throw e
    anew()
    setUp()
  }
}

/** `main.meta` key set when a text step found the index damaged: the next open makes a new index ({@link attachSearch}). */
const SEARCH_DAMAGED_META = 'search_damaged'

/** True for SQLite's answer to a file that is not a database or a page that is damaged (`SQLITE_NOTADB`, `SQLITE_CORRUPT*`). */
export function isCorruptError(e: unknown): boolean {
  const code = (e as { code?: unknown } | undefined)?.code
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))
}

/**
 * Record in the catalog that its full-text index (`search.sqlite`) has a damaged page (a text step
 * or a search answered `SQLITE_CORRUPT`): the index cannot be trusted or filled, so the next
 * {@link openCatalog} removes it and builds it again from the catalog's rows. Never throws (the
 * caller reports the original error).
 */
export function markSearchDamaged(db: Database.Database): void {
  try {
    db.prepare(`INSERT OR REPLACE INTO main.meta (key, value) VALUES ('${SEARCH_DAMAGED_META}', '1')`).run()
  } catch {
    // the catalog itself cannot be written: the error the caller reports says enough
  }
}

/** The catalog's `catalog_id` (random, made with the catalog: the index names the catalog it indexes). */
function catalogIdOf(db: Database.Database): string | undefined {
  return db.prepare(`SELECT value FROM main.meta WHERE key = 'catalog_id'`).pluck().get() as string | undefined
}

/**
 * True when the attached index is of {@link SEARCH_VERSION}, has its tables and indexes this
 * catalog (its `meta.catalog_id` is the catalog's).
 */
export function searchMatches(db: Database.Database): boolean {
  if (db.pragma(`${SEARCH_SCHEMA}.user_version`, { simple: true }) !== SEARCH_VERSION) return false
  const tables = db.prepare(`SELECT count(*) FROM ${SEARCH_SCHEMA}.sqlite_master WHERE name IN ('fts', 'meta')`).pluck().get() as number
  if (tables !== 2) return false
  const id = db.prepare(`SELECT value FROM ${SEARCH_SCHEMA}.meta WHERE key = 'catalog_id'`).pluck().get() as string | undefined
  return id !== undefined && id === catalogIdOf(db)
}

/**
 * Make the attached index one of this catalog: when it is missing, of another version or of
 * another catalog (`catalog_id`), every message row with text is queued again (`fts_pending`, one
 * catalog transaction, committed first), then the index is emptied and given the catalog's id, with
 * `through_mid` and `deleted_through` 0 (one index transaction). Each step checks again under its
 * lock, so two processes doing this at once, or a crash between the two commits, leave the same
 * state (a crash after the first: the index still names no catalog, so the next open does both
 * again). No-op when the index matches.
 */
export function syncSearch(db: Database.Database): void {
  if (searchMatches(db)) return
  db.transaction(() => {
    if (searchMatches(db)) return
    db.prepare('DELETE FROM main.fts_pending').run()
    db.prepare('INSERT INTO main.fts_pending (mid) SELECT mid FROM main.messages WHERE octet_length(text) > 0').run()
  }).immediate()
  db.transaction(() => {
    // The index's write lock first (a write that changes nothing), then the checks.
    db.exec(`CREATE TABLE IF NOT EXISTS ${SEARCH_SCHEMA}.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`)
    db.prepare(`UPDATE ${SEARCH_SCHEMA}.meta SET value = value WHERE 0`).run()
    if (searchMatches(db)) return
    db.exec(`DROP TABLE IF EXISTS ${SEARCH_SCHEMA}.fts; DROP TABLE IF EXISTS ${SEARCH_SCHEMA}.meta;`)
    db.exec(SEARCH_DDL)
    const put = db.prepare(`INSERT INTO ${SEARCH_SCHEMA}.meta (key, value) VALUES (?, ?)`)
    put.run('catalog_id', catalogIdOf(db) ?? '')
    put.run('through_mid', '0')
    put.run('deleted_through', '0')
    db.pragma(`${SEARCH_SCHEMA}.user_version = ${SEARCH_VERSION}`)
  })()
}
