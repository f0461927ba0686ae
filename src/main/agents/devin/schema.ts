/**
 * The schema of Devin CLI's `sessions.db` (refinery migrations; schema 17 at CLI 3000.11.3), shared
 * by the fixture generator (`fixtures.ts`, test-only) and the writer (`write.ts`), which creates a
 * missing database with it.
 *
 * Sources:
 * - DDL and migration names 1-17: `shared/formats/cursor-devin-atif-acp.md` C2 (verbatim in shape;
 *   `app_state('schema_compat_version','0')` from C2 and the C6 recipe);
 * - refinery checksums of migrations 1-16: a public Devin store adapter pinned to CLI 3000.6.7
 *   (search index id 63289183360; the CLI's store at schema 16). Refinery stores
 *   `checksum` = SipHash-1-3 of (name, version, SQL) as a decimal u64 and, by default, refuses to
 *   start when an applied migration's checksum differs from the binary's ("divergent"), so a
 *   history row with an invented checksum would stop the real CLI. The checksum of migration 17
 *   (`subagent_heads`) is published nowhere we could find, hence {@link newDatabaseSchema}.
 */

/** Migration names 1..17 (C2), index = version - 1. */
export const MIGRATIONS = [
  'initial_schema', 'add_thinking_column', 'add_prompt_history', 'add_metadata_column', 'message_forest',
  'add_node_metadata', 'add_shell_context', 'add_session_cogs', 'add_rendered_commits', 'add_workspace_dirs',
  'add_prompt_history_is_shell', 'add_app_state', 'rename_permission_mode_to_agent_mode', 'tool_call_state',
  'add_hidden_column', 'add_session_json_metadata', 'subagent_heads',
] as const

/** Refinery checksums of migrations 1..16 as stored by the CLI (see the module comment). */
export const MIGRATION_CHECKSUMS: readonly string[] = [
  '9244923949255133246', '14224532003883382682', '12622061916787456317', '10743897110053661924',
  '9668121967925007678', '8078921727324108560', '258551201440621856', '105359765896368723',
  '3762685451217257726', '10474887258761036276', '11375493059147639310', '14171664772219278324',
  '14037567567567316550', '9276893574920127698', '3632756168171233470', '4954231843905863386',
]

/** Schema 17 DDL (C2), one `CREATE TABLE` per table, in migration order. */
export const SCHEMA_17_TABLES: readonly string[] = [
  `CREATE TABLE refinery_schema_history(version int4 PRIMARY KEY, name VARCHAR(255), applied_on VARCHAR(255), checksum VARCHAR(255))`,
  `CREATE TABLE sessions (
  id TEXT PRIMARY KEY, working_directory TEXT NOT NULL, backend_type TEXT NOT NULL,
  model TEXT NOT NULL, agent_mode TEXT NOT NULL,
  created_at INTEGER NOT NULL, last_activity_at INTEGER NOT NULL,
  title TEXT, main_chain_id INTEGER, shell_last_seen_index INTEGER DEFAULT 0, cogs_json TEXT,
  workspace_dirs TEXT, hidden INTEGER NOT NULL DEFAULT 0, metadata TEXT)`,
  `CREATE TABLE prompt_history (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL,
  timestamp INTEGER NOT NULL, session_id TEXT NOT NULL, is_shell INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE message_nodes (row_id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
  node_id INTEGER NOT NULL, parent_node_id INTEGER, chat_message TEXT NOT NULL,
  created_at INTEGER NOT NULL, metadata TEXT,
  FOREIGN KEY (session_id) REFERENCES sessions(id), UNIQUE(session_id, node_id))`,
  `CREATE TABLE rendered_commits (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
  sequence_number INTEGER NOT NULL, rendered_html TEXT NOT NULL, created_at INTEGER NOT NULL,
  FOREIGN KEY (session_id) REFERENCES sessions(id), UNIQUE(session_id, sequence_number))`,
  `CREATE TABLE app_state (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)`,
  `CREATE TABLE tool_call_state (session_id TEXT NOT NULL, tool_call_id TEXT NOT NULL,
  tool_call_json TEXT, tool_call_update_json TEXT,
  PRIMARY KEY (session_id, tool_call_id), FOREIGN KEY (session_id) REFERENCES sessions(id))`,
  `CREATE TABLE subagent_heads (session_id TEXT NOT NULL, agent_id TEXT NOT NULL,
  chain_node_id INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, agent_id), FOREIGN KEY (session_id) REFERENCES sessions(id))`,
]

/** Schema 17 as one script (the fixture generator's form). */
export const SCHEMA_17 = SCHEMA_17_TABLES.map((s) => `${s};`).join('\n') + '\n'

/** The table migration 17 (`subagent_heads`) adds: the CLI creates it itself on a schema-16 store. */
export const MIGRATION_17_TABLE = 'subagent_heads'

/** Highest migration a database created by Sepia records (the last one with a known checksum). */
export const NEW_DB_VERSION = MIGRATION_CHECKSUMS.length

const sq = (s: string) => `'${s.replace(/'/g, "''")}'`

/**
 * Statements that create a missing `sessions.db`: the C2 tables of migrations 1..16 (every table
 * but `subagent_heads`), their 16 `refinery_schema_history` rows with the CLI's own checksums and
 * `app_state('schema_compat_version','0')`. A real CLI at schema 17 then applies only migration
 * 17 itself (adds `subagent_heads`), as on any store an older CLI wrote; it never re-runs 1..16,
 * and no history row carries a checksum it would reject. `appliedOn` is an RFC 3339 time.
 */
export function newDatabaseSchema(appliedOn: string): string[] {
  const tables = SCHEMA_17_TABLES.filter((s) => !s.startsWith(`CREATE TABLE ${MIGRATION_17_TABLE} `))
  const history = MIGRATION_CHECKSUMS.map(
    (sum, i) => `INSERT INTO refinery_schema_history (version, name, applied_on, checksum) VALUES (${i + 1}, ${sq(MIGRATIONS[i]!)}, ${sq(appliedOn)}, ${sq(sum)})`,
  )
  return [...tables, ...history, `INSERT INTO app_state (key, value) VALUES ('schema_compat_version', '0')`]
}
