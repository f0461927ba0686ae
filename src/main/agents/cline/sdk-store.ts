/**
 * Cline SDK store shapes and the small file-level helpers around them: the manifest
 * `<id>.json`, the transcript `<id>.messages.json`, and the `sessions` table of `db/sessions.db`.
 *
 * Sources: seed 000 "SDK manifest", "SDK messages file", "sessions.db and teams.db" (cline/cline
 * sdk/packages/core/src/session/models/session-manifest.ts:6-28, services/session-data.ts:334-359,
 * shared/src/db/sqlite-db.ts:188-273); seed 002 "Cline (CLI)"; `fixtures/real/cline/README.md`.
 */
import { join } from 'node:path'
import { isRecord, lineAt, salvageJsonArray, tryParseJson } from '../../util/json'
import { openSqliteReadOnly } from '../../util/sqlite'
import type { HookLineRef } from './secondary/hooks-log'
import type { IndexDocument, IndexedSession } from './secondary/search-index'
import { openRegularFile } from '../../util/regular-file'

/** The manifest `<id>.json` (fields the reader uses; every one optional, since files are hand-edited). */
export interface SdkManifest {
  version?: number
  session_id?: string
  source?: string
  pid?: number
  /** ISO 8601. */
  started_at?: string
  /** ISO 8601. */
  ended_at?: string
  exit_code?: number
  status?: string
  interactive?: boolean
  provider?: string
  model?: string
  cwd?: string
  workspace_root?: string
  team_name?: string
  prompt?: string
  metadata?: Record<string, unknown>
  /** Absolute path of the transcript as the writing machine saw it. */
  messages_path?: string
  [key: string]: unknown
}

/** One row of `sessions` in `db/sessions.db` (columns the reader uses). Times are ISO 8601 text. */
export interface SessionRow {
  session_id: string
  source?: string | null
  pid?: number | null
  started_at?: string | null
  ended_at?: string | null
  exit_code?: number | null
  status?: string | null
  /** 1 for an interactive session. */
  interactive?: number | null
  provider?: string | null
  model?: string | null
  cwd?: string | null
  workspace_root?: string | null
  team_name?: string | null
  parent_session_id?: string | null
  parent_agent_id?: string | null
  agent_id?: string | null
  conversation_id?: string | null
  /** 1 for a sub-agent session. */
  is_subagent?: number | null
  prompt?: string | null
  /** The manifest's `metadata` object as JSON text. */
  metadata_json?: string | null
  messages_path?: string | null
  updated_at?: string | null
}

/** Hints discovery leaves on an SDK {@link StoreRef} so `read` knows which file is which. */
export interface SdkHints {
  kind: 'sdk'
  /** Manifest path, when the session has one. */
  manifest?: string
  /** Transcript path, when it exists on disk. */
  messages?: string
  /** `db/sessions.db`, when the session's row was used. */
  db?: string
  /** The session's `sessions` row, when sessions.db has one. */
  row?: SessionRow
  /** `<id>.compaction.json` beside the manifest, when present (never read for nodes). */
  compaction?: string
  /** The transcript is a sub-agent file in its parent's folder (`agent_<id>.messages.json`...). */
  subagentFile?: boolean
  /** Neither a manifest nor a sessions.db row names this transcript (the CLI does not list it). */
  unindexed?: boolean
  /** Turns of this session in secondary sources, checked against the transcript on read (secondary/recover.ts). */
  secondary?: SecondaryHints
}

/** Secondary-source material discovery found for one session (see secondary/recover.ts). */
export interface SecondaryHints {
  /** Search-index documents of the session (only when the index may hold what the transcript lacks). */
  search?: { path: string; docs: IndexDocument[]; info?: IndexedSession; fts5: boolean }
  /** Byte ranges of the session's turn lines in the hook audit log. */
  hooks?: { path: string; lines: HookLineRef[] }
}

/** The columns read from `sessions` (older databases may lack some; see {@link readSessionRows}). */
const COLUMNS = [
  'session_id', 'source', 'pid', 'started_at', 'ended_at', 'exit_code', 'status', 'interactive', 'provider', 'model', 'cwd',
  'workspace_root', 'team_name', 'parent_session_id', 'parent_agent_id', 'agent_id', 'conversation_id',
  'is_subagent', 'prompt', 'metadata_json', 'messages_path', 'updated_at',
]

/**
 * Every row of `sessions` in a `sessions.db`, keyed by `session_id`. Opens a temporary copy
 * ({@link openSqliteReadOnly}); columns an older schema lacks are read as absent. Throws when the
 * file cannot be copied or is not a SQLite database with a `sessions` table.
 */
export function readSessionRows(dbPath: string): Map<string, SessionRow> {
  const handle = openSqliteReadOnly(dbPath)
  try {
    const present = new Set(
      (handle.db.prepare('PRAGMA table_info(sessions)').all() as { name: string }[]).map((c) => c.name),
    )
    if (!present.has('session_id')) throw new Error('no sessions table')
    const cols = COLUMNS.filter((c) => present.has(c))
    const rows = handle.db.prepare(`SELECT ${cols.join(', ')} FROM sessions`).all() as SessionRow[]
    const out = new Map<string, SessionRow>()
    for (const r of rows) if (typeof r.session_id === 'string') out.set(r.session_id, r)
    return out
  } finally {
    handle.close()
  }
}

/**
 * Map a recorded absolute path under `.../sessions/` (a manifest's or row's `messages_path`,
 * written on the original machine, possibly with Windows separators) onto this home's
 * `sessionsDir`. Returns undefined when the path has no `sessions/` segment.
 */
export function localSessionsPath(recorded: unknown, sessionsDir: string): string | undefined {
  if (typeof recorded !== 'string' || recorded === '') return undefined
  const norm = recorded.replace(/\\/g, '/')
  const idx = norm.lastIndexOf('/sessions/')
  if (idx < 0) return undefined
  const rest = norm.slice(idx + '/sessions/'.length).split('/').filter((p) => p !== '' && p !== '..' && p !== '.')
  return rest.length ? join(sessionsDir, ...rest) : undefined
}

/** Ids found in the first bytes of a messages file, without parsing all of it. */
export interface MessagesHead {
  /** Top-level `sessionId` (or `origin.sessionId`). */
  sessionId?: string
  /** `origin.parentThreadId`: the parent session of a sub-agent transcript. */
  parentThreadId?: string
}

/**
 * Peek at the first 16 KiB of a `*.messages.json` for `sessionId` and `origin.parentThreadId`
 * (they precede `messages` in the files the SDK writes, session-data.ts:334-359). Cheap enough for
 * discovery; `read` parses the whole file. Returns `{}` on any error.
 */
export async function peekMessagesHead(path: string): Promise<MessagesHead> {
  let fh
  try {
    fh = await openRegularFile(path)
    const buf = Buffer.alloc(16 * 1024)
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    const text = buf.subarray(0, bytesRead).toString('utf8')
    const head = text.split(/"messages"\s*:/)[0] ?? text
    const out: MessagesHead = {}
    const sid = /"sessionId"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(head)
    if (sid?.[1]) out.sessionId = JSON.parse(`"${sid[1]}"`) as string
    const parent = /"parentThreadId"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(head)
    if (parent?.[1]) out.parentThreadId = JSON.parse(`"${parent[1]}"`) as string
    return out
  } catch {
    return {}
  } finally {
    await fh?.close()
  }
}

/** Parse an ISO 8601 time into ms since epoch; undefined when absent or unparseable. */
export function isoToMs(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : undefined
}

/** What {@link parseMessagesText} found in a messages file. */
export interface ParsedMessages {
  /** The top-level object (version, sessionId, origin...), when the file is one. */
  transcript?: Record<string, unknown>
  /** The messages, all of them or those before a cut. */
  messages: unknown[]
  /** What was wrong, when anything was (line is 1-based). */
  problem?: { severity: 'error' | 'warning'; line?: number; message: string }
}

/**
 * Parse the text of a `<id>.messages.json` ({version, sessionId, origin, messages: [...]}, or a
 * bare array). A cut or damaged file keeps the messages before the cut ({@link salvageJsonArray}
 * on the `messages` array) and reports the line. Never throws.
 */
export function parseMessagesText(text: string): ParsedMessages {
  const v = tryParseJson(text)
  if (isRecord(v)) {
    if (Array.isArray(v.messages)) return { transcript: v, messages: v.messages }
    return { transcript: v, messages: [], problem: { severity: 'error', message: 'The transcript has no "messages" array; no messages shown.' } }
  }
  if (Array.isArray(v)) return { messages: v }
  const key = /"messages"\s*:\s*\[/.exec(text)
  if (!key) return { messages: [], problem: { severity: 'error', line: 1, message: 'The transcript is not valid JSON and has no "messages" array; no messages shown.' } }
  const start = key.index + key[0].length - 1
  const s = salvageJsonArray(text.slice(start))
  const line = lineAt(text, start + (s.errorOffset ?? 0))
  return {
    messages: s.items,
    problem: {
      severity: s.complete ? 'warning' : 'error',
      line,
      message: s.complete
        ? 'The transcript is damaged after its messages; all messages were kept.'
        : `The transcript is cut or damaged at line ${line} (${s.error}); kept the ${s.items.length} messages before it.`,
    },
  }
}
