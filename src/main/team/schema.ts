/**
 * The team catalog's schema on PostgreSQL (15+), versioned with migrations. It holds what
 * `sepia push` sends from each machine's catalog (src/main/catalog/schema.ts is the SQLite side):
 * never raw store files, never unmasked text.
 *
 * Tables (times ms since epoch as bigint, tokens bigint, cost USD as double precision):
 * - `schema_version`: one row per applied migration (`version`, `applied_at`).
 * - `machines`: one row per pushing machine (`machine`, the name given to `--machine`, default the
 *   host name): its home path, OS and the time of its last completed push.
 * - `sessions`: one row per (machine, agent, session id): list fields, the masked
 *   `SessionSummary` as JSON (`summary`), link results, and `hash`, the content hash of everything
 *   the push sent for it (a push skips a session whose hash is unchanged).
 * - `messages`: one row per message with searchable text (masked, capped as in the SQLite
 *   catalog) and `tsv`, its tokens as a `tsvector` (built by Sepia with the SQLite catalog's
 *   tokenizer rules, see `tsquery.ts`) under a GIN index; `text` also has a `pg_trgm` GIN index
 *   (substring search for CJK text, which has no word separators).
 * - `usage`: one row per message that records token usage.
 *
 * Rows of a session are replaced in one transaction (`push.ts`): a reader sees a session's old rows
 * or its new ones, never a mix. Deleting a session deletes its messages and usage (foreign keys).
 */
import pg from 'pg'
import { SepiaError } from '../../shared/api'
import { maskUrl, teamError } from './url'

/** One migration: `version` and the statements that bring the schema from `version - 1` to it. */
interface Migration {
  version: number
  sql: string
}

/** Migrations in order; never edit an applied one, add the next. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE machines (
  machine text PRIMARY KEY,
  home text NOT NULL,
  os text NOT NULL,
  pushed_at bigint
);
CREATE TABLE sessions (
  sid bigserial PRIMARY KEY,
  machine text NOT NULL REFERENCES machines(machine) ON DELETE CASCADE,
  agent text NOT NULL,
  session_id text NOT NULL,
  format text NOT NULL,
  project text,
  title text,
  created_at bigint,
  last_activity_at bigint,
  model text,
  message_count integer NOT NULL DEFAULT 0,
  tool_call_count integer NOT NULL DEFAULT 0,
  node_count integer NOT NULL DEFAULT 0,
  parent_session_id text,
  summary jsonb NOT NULL,
  links jsonb,
  diagnostics jsonb,
  hash text NOT NULL,
  pushed_at bigint NOT NULL,
  UNIQUE (machine, agent, session_id)
);
CREATE INDEX sessions_project ON sessions(machine, project, agent);
CREATE TABLE messages (
  mid bigserial PRIMARY KEY,
  sid bigint NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
  seq integer NOT NULL,
  node_id text NOT NULL,
  role text NOT NULL,
  created_at bigint,
  model text,
  tool_names text NOT NULL DEFAULT '',
  text text NOT NULL,
  tsv tsvector NOT NULL
);
CREATE INDEX messages_sid ON messages(sid, seq);
CREATE INDEX messages_tsv ON messages USING gin(tsv);
CREATE INDEX messages_trgm ON messages USING gin(text gin_trgm_ops);
CREATE TABLE usage (
  mid bigint PRIMARY KEY REFERENCES messages(mid) ON DELETE CASCADE,
  sid bigint NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
  seq integer NOT NULL,
  created_at bigint,
  model text,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  cache_read_tokens bigint NOT NULL DEFAULT 0,
  cache_write_tokens bigint NOT NULL DEFAULT 0,
  thinking_tokens bigint NOT NULL DEFAULT 0,
  cost double precision
);
CREATE INDEX usage_sid ON usage(sid, seq);
`,
  },
]

/** The schema version this build writes and reads. */
export const TEAM_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version

/** Lock id (pg_advisory_xact_lock) that serialises migrations between concurrent pushes. */
const MIGRATE_LOCK = 0x5e914

/**
 * A connection pool to `url` (node-postgres reads `PGPASSWORD` and the other libpq variables).
 * `max`: connections kept (the app: a few; a push: one).
 */
export function teamPool(url: string, max = 4): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, application_name: 'sepia' })
  // An idle connection the server drops must not crash the process; the next query reconnects.
  pool.on('error', () => undefined)
  return pool
}

/** The applied schema version (0: none yet). */
export async function schemaVersion(db: pg.Pool | pg.PoolClient): Promise<number> {
  const exists = await db.query(`SELECT to_regclass('schema_version') IS NOT NULL AS ok`)
  if (!exists.rows[0]?.ok) return 0
  const r = await db.query('SELECT coalesce(max(version), 0) AS v FROM schema_version')
  return Number(r.rows[0]?.v ?? 0)
}

/**
 * Bring the schema at `url` to {@link TEAM_SCHEMA_VERSION}, each migration in its own transaction
 * under an advisory lock (two pushes starting together migrate once). Rejects `READ_FAILED` (URL
 * masked) when the server cannot be reached, and `BAD_ARGUMENT` when the database has a newer
 * schema than this build knows.
 */
export async function migrate(pool: pg.Pool, url: string): Promise<number> {
  let client: pg.PoolClient
  try {
    client = await pool.connect()
  } catch (e) {
    throw teamError(e, url, 'connect to')
  }
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK])
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())')
    let version = await schemaVersion(client)
    if (version > TEAM_SCHEMA_VERSION) {
      throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The team catalog at ${maskUrl(url)} has schema version ${version}; this Sepia knows up to ${TEAM_SCHEMA_VERSION}. Update Sepia.` })
    }
    for (const m of MIGRATIONS) {
      if (m.version <= version) continue
      await client.query(m.sql)
      await client.query('INSERT INTO schema_version (version) VALUES ($1)', [m.version])
      version = m.version
    }
    await client.query('COMMIT')
    return version
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw teamError(e, url, 'set up')
  } finally {
    client.release()
  }
}

/**
 * Check that the database at `url` holds a team catalog this build can read (read-only: nothing
 * is created). Rejects `NOT_FOUND` when it has no schema yet (nobody pushed), `BAD_ARGUMENT` for a
 * newer one, `READ_FAILED` when unreachable.
 */
export async function checkReadable(pool: pg.Pool, url: string): Promise<void> {
  let version: number
  try {
    version = await schemaVersion(pool)
  } catch (e) {
    throw teamError(e, url, 'read')
  }
  if (version === 0) throw new SepiaError({ code: 'NOT_FOUND', message: `The database at ${maskUrl(url)} holds no team catalog yet. Run "sepia push --to <url>" on a machine first.` })
  if (version > TEAM_SCHEMA_VERSION) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `The team catalog at ${maskUrl(url)} has schema version ${version}; this Sepia reads up to ${TEAM_SCHEMA_VERSION}. Update Sepia.` })
}
