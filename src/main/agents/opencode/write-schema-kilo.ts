/**
 * The schema of Kilo Code CLI 7.7.7's `kilo.db` (fixtures/real/kilo/home/.local/share/kilo/kilo.db,
 * `sqlite_master`): OpenCode 1.18.33's (`write-schema.ts`) with two tables changed
 * (`session_context_epoch` gained `agent`, `replacement_seq`, `revision`; `session_message.seq` is
 * nullable), Kilo's own tables and indexes added, and four more migrations applied. Used only when
 * the database does not exist yet.
 */
import { OPENCODE_DB_TABLES, OPENCODE_MIGRATIONS } from './write-schema'

/** Kilo's versions of OpenCode tables, by table name. */
const CHANGED: readonly string[] = [
  `CREATE TABLE "session_context_epoch" (
    "session_id" text PRIMARY KEY,
    "baseline" text NOT NULL,
    "snapshot" text NOT NULL,
    "baseline_seq" integer NOT NULL, "agent" text DEFAULT 'build' NOT NULL, "replacement_seq" integer, "revision" integer DEFAULT 0 NOT NULL,
    CONSTRAINT "fk_session_context_epoch_session_id_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE
  )`,
  `CREATE TABLE "session_message" (
    "id" text PRIMARY KEY,
    "session_id" text NOT NULL,
    "type" text NOT NULL,
    "seq" integer,
    "time_created" integer NOT NULL,
    "time_updated" integer NOT NULL,
    "data" text NOT NULL,
    CONSTRAINT "fk_session_message_session_id_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE
  )`,
]

/** Tables and indexes only Kilo has. */
const ADDED: readonly string[] = [
  `CREATE TABLE "kilo_board_message" (
    "id" text PRIMARY KEY,
    "board_root_session_id" text NOT NULL,
    "seq" integer NOT NULL,
    "time_created" integer NOT NULL,
    "sender_session_id" text NOT NULL,
    "recipient" text NOT NULL,
    "type" text NOT NULL,
    "body" text NOT NULL,
    "reply_to" text,
    "source_message_id" text NOT NULL,
    "source_call_id" text NOT NULL,
    CONSTRAINT "fk_kilo_board_message_board_root_session_id_kilo_board_root_session_id_fk" FOREIGN KEY ("board_root_session_id") REFERENCES "kilo_board"("root_session_id") ON DELETE CASCADE
  )`,
  `CREATE TABLE "kilo_board" (
    "root_session_id" text PRIMARY KEY,
    "objective" text NOT NULL,
    "objective_message_id" text,
    "next_seq" integer DEFAULT 1 NOT NULL,
    "cleared_seq" integer DEFAULT 0 NOT NULL,
    "message_count" integer DEFAULT 0 NOT NULL,
    "message_bytes" integer DEFAULT 0 NOT NULL,
    "time_created" integer NOT NULL,
    "time_updated" integer NOT NULL,
    CONSTRAINT "fk_kilo_board_root_session_id_session_id_fk" FOREIGN KEY ("root_session_id") REFERENCES "session"("id") ON DELETE CASCADE
  )`,
  `CREATE UNIQUE INDEX "kilo_board_message_board_seq_idx" ON "kilo_board_message" ("board_root_session_id","seq")`,
  `CREATE INDEX "recall_message_role_idx" ON "message" ("id",json_extract("data", '$.role'),coalesce(json_extract("data", '$.parentID'), ''))`,
  `CREATE INDEX "part_session_step_finish_idx" ON "part" ("session_id") WHERE json_valid("part"."data") AND json_extract("part"."data", '$.type') = 'step-finish'`,
  `CREATE INDEX "recall_part_search_idx" ON "part" ("session_id","id","message_id",json_extract("data", '$.type'),CASE WHEN json_extract("data", '$.type') = 'text' THEN coalesce(json_extract("data", '$.text'), '') WHEN json_extract("data", '$.type') = 'file' THEN trim(coalesce(json_extract("data", '$.filename'), '') || ' ' || CASE WHEN coalesce(json_extract("data", '$.url'), '') NOT LIKE 'data:%' THEN coalesce(json_extract("data", '$.url'), '') ELSE '' END || ' ' || coalesce(json_extract("data", '$.source.path'), '') || ' ' || coalesce(json_extract("data", '$.source.name'), '') || ' ' || CASE WHEN coalesce(json_extract("data", '$.source.uri'), '') NOT LIKE 'data:%' THEN coalesce(json_extract("data", '$.source.uri'), '') ELSE '' END || ' ' || coalesce(json_extract("data", '$.source.clientName'), '')) ELSE coalesce(json_extract("data", '$.state.error'), '') END) WHERE json_valid("part"."data") AND ((json_extract("part"."data", '$.type') = 'text' AND coalesce(json_extract("part"."data", '$.synthetic'), 0) = 0 AND coalesce(json_extract("part"."data", '$.ignored'), 0) = 0) OR json_extract("part"."data", '$.type') = 'file' OR (json_extract("part"."data", '$.type') = 'tool' AND json_extract("part"."data", '$.state.status') = 'error'))`,
]

const tableName = (stmt: string): string | undefined => /^CREATE (?:TABLE|INDEX) (?:IF NOT EXISTS )?"([^"]+)"/.exec(stmt)?.[1]

/** `CREATE` statements of kilo.db (Kilo Code CLI 7.7.7). */
export const KILO_DB_TABLES: readonly string[] = [
  ...OPENCODE_DB_TABLES.map((s) => CHANGED.find((c) => tableName(c) === tableName(s)) ?? s),
  ...ADDED,
]

/** Names of the migrations Kilo Code CLI 7.7.7 had applied (`migration.id`), in order. */
export const KILO_MIGRATIONS: readonly string[] = [
  ...OPENCODE_MIGRATIONS,
  '20260714141136_session-message-legacy-writer-compat',
  '20260828074139_kilocode_board',
  '20260903104806_kilocode_board_reset',
  '20260907102000_kilocode_model_usage_index',
]
