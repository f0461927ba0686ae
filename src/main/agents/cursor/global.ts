/**
 * Cursor IDE global store scan (`<user dir>/User/globalStorage/state.vscdb`): which composers
 * exist, without reading a single bubble.
 *
 * Facts (shared/formats/cursor-devin-atif-acp.md §A2–§A5, §F1, §F12, §F13, §F17):
 * - `cursorDiskKV` `composerData:<composerId>` = one session document; queried as a key range
 *   (`key >= 'composerData:' AND key < 'composerData;'`, never `SELECT *`), with the few fields
 *   discovery needs extracted in SQL (`json_valid` guards each row: one bad row must not abort
 *   the query). Rows that are NULL, BLOB or not JSON are decoded in JS or skipped with a diagnostic.
 * - `bubbleId:task-<toolCallId>:<bubbleId>` = a `task_v2` sub-agent's bubbles (keys only here).
 * - Optional SQL table `composerHeaders(composerId, workspaceId, isSubagent, value…)` (3.15.6) and
 *   `ItemTable['composer.composerHeaders']` = `{allComposers:[header…]}` (3.0+): project and
 *   parent links. Either can be missing or hold fewer rows than `composerData`.
 */
import { statSync } from 'node:fs'
import type { Diagnostic } from '../../../shared/ir'
import { arr, decodeCell, type Json, num, obj, str, text } from './common/json'
import { withSnapshot, type StoreSnapshot } from './common/snapshot'
import { plural } from '../../../shared/plural'
import { reportStrayChatRows } from './item-rows'

/** What discovery knows about one `composerData:<id>` row. */
export interface ComposerInfo {
  id: string
  name?: string
  /** ms since epoch. */
  createdAt?: number
  lastUpdatedAt?: number
  /** Length of `fullConversationHeadersOnly`, when that field is an array. */
  headerCount?: number
  /** Length of an inline `conversation[]` (or `conversation.messages[]`), when present. */
  inlineCount?: number
  workspaceIdentifier?: unknown
  workspaceUri?: string
  /** `subComposerIds` ∪ `subagentComposerIds`. */
  subIds: string[]
  /** `subagentInfo.parentComposerId`. */
  parentId?: string
  /** Byte length of the value. */
  size: number
  /**
   * Set when `fullConversationHeadersOnly` or `conversation` is present with a type no Cursor
   * version writes (not a list; e.g. a damaged row): with no messages counted, the composer would
   * look like an unsent draft, so discovery names the row instead of skipping it silently.
   */
  damaged?: string
  /** The document's own `composerId` when it is not the id in the row's key (a damaged key or document). */
  otherId?: string
}

/** A header from the `composerHeaders` table or `ItemTable['composer.composerHeaders']`. */
export interface HeaderInfo {
  workspaceId?: string
  workspaceIdentifier?: unknown
  isSubagent?: boolean
  parentId?: string
}

/** Everything discovery takes from one global database. */
export interface GlobalIndex {
  db: string
  composers: Map<string, ComposerInfo>
  /** `composerHeaders` SQL table rows, by composer id. */
  tableHeaders: Map<string, HeaderInfo>
  /** `ItemTable['composer.composerHeaders'].allComposers`, by composer id. */
  itemHeaders: Map<string, HeaderInfo>
  /** Composer ids of `bubbleId:task-<toolCallId>:…` rows → bubble count. */
  tasks: Map<string, number>
  /** Legacy chat-pane values in the global `ItemTable` (very old installs), by key. */
  itemChats: Map<string, unknown>
}

/** Discovery query: composer rows by key range, a few fields extracted per row (json_valid-guarded). */
export const COMPOSER_SQL = `SELECT key, typeof(value) AS t, length(value) AS len,
  CASE WHEN typeof(value) = 'text' THEN CASE WHEN json_valid(value) THEN json_type(value) END END AS jt,
  CASE WHEN typeof(value) = 'text' THEN CASE WHEN json_valid(value) THEN json_extract(value,
    '$.name', '$.createdAt', '$.lastUpdatedAt', '$.workspaceIdentifier', '$.workspaceUri',
    '$.subComposerIds', '$.subagentComposerIds', '$.subagentInfo', '$.composerId') END END AS f,
  CASE WHEN typeof(value) = 'text' THEN CASE WHEN json_valid(value) THEN json_type(value, '$.fullConversationHeadersOnly') END END AS ht,
  CASE WHEN typeof(value) = 'text' THEN CASE WHEN json_valid(value) THEN json_array_length(value, '$.fullConversationHeadersOnly') END END AS nh,
  CASE WHEN typeof(value) = 'text' THEN CASE WHEN json_valid(value) THEN json_type(value, '$.conversation') END END AS ct,
  CASE WHEN typeof(value) = 'text' THEN CASE WHEN json_valid(value) THEN coalesce(json_array_length(value, '$.conversation.messages'), json_array_length(value, '$.conversation')) END END AS nc
FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;'`

const VALUE_SQL = 'SELECT value FROM cursorDiskKV WHERE key = ?'

/** Ids listed in a string array field. */
function ids(value: unknown): string[] {
  return (arr(value) ?? []).filter((x): x is string => typeof x === 'string' && x !== '')
}

/** A {@link ComposerInfo} from the extracted fields (SQL) or a parsed document (JS). */
function info(id: string, size: number, f: unknown[], headerType: string | null, nh: number | null, ct: string | null, nc: number | null): ComposerInfo {
  const [name, createdAt, lastUpdatedAt, wsId, wsUri, sub1, sub2, subagentInfo, composerId] = f
  const c: ComposerInfo = { id, size, subIds: [...new Set([...ids(sub1), ...ids(sub2)])] }
  if (text(name)) c.name = name as string
  const created = num(createdAt)
  if (created !== undefined) c.createdAt = created
  const updated = num(lastUpdatedAt)
  if (updated !== undefined) c.lastUpdatedAt = updated
  if (headerType === 'array' && nh !== null) c.headerCount = nh
  if ((ct === 'array' || ct === 'object') && nc !== null) c.inlineCount = nc
  const bad = [
    headerType !== null && headerType !== 'array' && headerType !== 'null' ? `fullConversationHeadersOnly is ${headerType}, not a list` : undefined,
    ct !== null && ct !== 'null' && nc === null ? `conversation is ${ct === 'object' ? 'an object with no messages list' : ct}, not a list` : undefined,
  ].filter((x): x is string => x !== undefined)
  // A draft has `fullConversationHeadersOnly: []` (§F2); a document with neither list is no draft
  // (e.g. a damaged field name) and must not be skipped quietly as one.
  if (headerType === null && ct === null) bad.push('it has neither fullConversationHeadersOnly nor conversation')
  if (bad.length) c.damaged = bad.join('; ')
  if (typeof composerId === 'string' && composerId !== id) c.otherId = composerId
  if (wsId !== undefined && wsId !== null) c.workspaceIdentifier = wsId
  if (text(wsUri)) c.workspaceUri = wsUri as string
  const parent = str(obj(subagentInfo)?.parentComposerId)
  if (parent) c.parentId = parent
  return c
}

/** The same fields taken from a document parsed in JS (BLOB, Python-literal rows). */
function infoFromDoc(id: string, size: number, doc: Json): ComposerInfo {
  const h = doc.fullConversationHeadersOnly
  const conv = doc.conversation
  const convList = arr(conv) ?? arr(obj(conv)?.messages)
  /** The json_type SQLite would give, for the damaged-row check. */
  const typeOf = (v: unknown): string | null => (v === undefined ? null : v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'string' ? 'text' : typeof v === 'number' ? 'real' : typeof v === 'boolean' ? 'true' : 'text')
  return info(
    id,
    size,
    [doc.name, doc.createdAt, doc.lastUpdatedAt, doc.workspaceIdentifier, doc.workspaceUri, doc.subComposerIds, doc.subagentComposerIds, doc.subagentInfo, doc.composerId],
    typeOf(h),
    Array.isArray(h) ? h.length : null,
    convList ? (Array.isArray(conv) ? 'array' : 'object') : typeOf(conv),
    convList ? convList.length : null,
  )
}

function scanComposers(s: StoreSnapshot, db: string, out: GlobalIndex, diagnostics: Diagnostic[]): void {
  type Row = { key: string; t: string; len: number | null; jt: string | null; f: string | null; ht: string | null; nh: number | null; ct: string | null; nc: number | null }
  const seen = new Set<string>()
  for (const r of s.prepare(COMPOSER_SQL).iterate() as IterableIterator<Row>) {
    const id = r.key.slice('composerData:'.length)
    seen.add(id)
    if (r.jt === 'object' && r.f !== null) {
      out.composers.set(id, info(id, r.len ?? 0, JSON.parse(r.f) as unknown[], r.ht, r.nh, r.ct, r.nc))
      continue
    }
    const cell = decodeCell((s.prepare(VALUE_SQL).get(r.key) as { value: unknown } | undefined)?.value ?? null)
    const doc = obj(cell.value)
    if (cell.problem !== undefined || !doc) {
      const why = cell.problem ?? 'value is not a JSON object'
      diagnostics.push({ severity: 'warning', path: db, message: `cursorDiskKV row "${r.key}": ${why}; the composer is skipped`, agent: 'cursor' })
      continue
    }
    out.composers.set(id, infoFromDoc(id, r.len ?? 0, doc))
  }
  for (const c of out.composers.values()) {
    if (c.otherId !== undefined) diagnostics.push({ severity: 'warning', path: db, message: `cursorDiskKV row "composerData:${c.id}" holds the document of composer ${c.otherId} (a damaged key or document); listed as ${c.id}`, agent: 'cursor' })
  }
  reportStrayComposerRows(s, db, out.composers, diagnostics)
  reportIndexDamage(s, db, seen, diagnostics)
}

/**
 * Databases up to this many bytes get the key-index check of {@link reportIndexDamage} (a scan of
 * the table's leaf pages; measured in tests/fuzz/REPORT.md). Larger ones (real global stores reach
 * 1–2.3 GB, §F17) are not checked: index damage there stays unseen.
 */
export const INDEX_CHECK_MAX_BYTES = 64 * 2 ** 20

/** The composer keys as the table holds them, read past the key index (`NOT INDEXED`: a scan of the table's rows, keys only). */
const TABLE_COMPOSER_KEYS_SQL = "SELECT key FROM cursorDiskKV NOT INDEXED WHERE key >= 'composerData:' AND key < 'composerData;'"

/**
 * Issue 16 (fuzz seed 202): discovery reads the composer keys through the `cursorDiskKV` key
 * index (`sqlite_autoindex_cursorDiskKV_1`). A damaged index page (a flipped byte in a key, so
 * the keys are out of order) makes the range scan skip rows with no SQLite error, and `PRAGMA
 * quick_check` still says "ok" (only `integrity_check` compares an index with its table). SQLite
 * pages have no checksum. For a database under {@link INDEX_CHECK_MAX_BYTES}, the composer keys
 * of the table are read again without the index; keys the index did not give are one warning
 * naming the database and the count (their composers are not listed: every later read of the
 * row goes through the same index). `seen`: the composer ids the index scan gave.
 */
function reportIndexDamage(s: StoreSnapshot, db: string, seen: Set<string>, diagnostics: Diagnostic[]): void {
  let size: number
  try {
    size = statSync(db).size
  } catch {
    return
  }
  if (size > INDEX_CHECK_MAX_BYTES) return
  const missing: string[] = []
  try {
    for (const { key } of s.prepare(TABLE_COMPOSER_KEYS_SQL).iterate() as IterableIterator<{ key: unknown }>) {
      if (typeof key !== 'string') continue
      const id = key.slice('composerData:'.length)
      if (!seen.has(id)) missing.push(id)
    }
  } catch (e) {
    diagnostics.push({ severity: 'warning', path: db, message: `the database is damaged: reading the cursorDiskKV table past its key index failed (${(e as Error).message}); some chats may be missing`, agent: 'cursor' })
    return
  }
  if (!missing.length) return
  const shown = missing.slice(0, 5).join(', ') + (missing.length > 5 ? ', …' : '')
  diagnostics.push({ severity: 'warning', path: db, message: `the database is damaged: the cursorDiskKV key index lacks ${plural(missing.length, 'composerData row')} the table holds (${shown}); ${plural(missing.length, 'chat')} may be missing`, agent: 'cursor' })
}

/**
 * Rows whose key was damaged, found through the key index without reading any value: keys that
 * are not TEXT (NULL, numbers, BLOBs), text keys with no `:` (the keys that hold sessions are
 * `<kind>:<id>…`, §A3; a key cut short, or a number stored as text in this TEXT column, has none;
 * the few Cursor keys without one are flags and UI state) and text keys holding a character no
 * Cursor key has (space, control, non-ASCII: GLOB `[^!-~]`). Only these few values are read.
 */
const STRAY_KV_SQL = `SELECT rowid AS rowid, key, typeof(key) AS keyType FROM cursorDiskKV
WHERE typeof(key) != 'text' OR instr(key, ':') = 0 OR key GLOB '*[^!-~]*'`

/**
 * Issue 16: a `composerData:<id>` row whose key was damaged hides its session with no error.
 * Each damaged-key row holding a composer document (an object with a `composerId`) is a warning
 * naming the row; the composer is not listed (its bubbles are keyed by the id, which the key lost).
 */
function reportStrayComposerRows(s: StoreSnapshot, db: string, composers: Map<string, ComposerInfo>, diagnostics: Diagnostic[]): void {
  type Row = { rowid: number; key: unknown; keyType: string }
  const value = s.prepare('SELECT value FROM cursorDiskKV WHERE rowid = ?')
  for (const r of s.prepare(STRAY_KV_SQL).iterate() as IterableIterator<Row>) {
    const doc = obj(decodeCell((value.get(r.rowid) as { value: unknown } | undefined)?.value ?? null).value)
    const id = str(doc?.composerId)
    if (!id || composers.has(id)) continue // a stray copy of a listed composer hides nothing
    const key = r.keyType === 'text' ? JSON.stringify(r.key) : r.keyType === 'blob' ? `a ${(r.key as Buffer).length}-byte BLOB` : r.keyType === 'null' ? 'NULL' : `the number ${String(r.key)}`
    diagnostics.push({ severity: 'warning', path: db, message: `cursorDiskKV row ${r.rowid} (key ${key}) holds composer ${id} under a damaged key; the composer is not listed`, agent: 'cursor' })
  }
}

function headerInfo(h: Json): HeaderInfo {
  const out: HeaderInfo = {}
  if (h.workspaceIdentifier !== undefined) out.workspaceIdentifier = h.workspaceIdentifier
  const parent = str(obj(h.subagentInfo)?.parentComposerId)
  if (parent) out.parentId = parent
  return out
}

function scanHeaders(s: StoreSnapshot, db: string, out: GlobalIndex, diagnostics: Diagnostic[], tables: Set<string>): void {
  if (tables.has('composerHeaders')) {
    type Row = { composerId: string | null; workspaceId: string | null; isSubagent: number | null; value: unknown }
    for (const r of s.prepare('SELECT composerId, workspaceId, isSubagent, value FROM composerHeaders').iterate() as IterableIterator<Row>) {
      if (!r.composerId) continue
      const v = obj(decodeCell(r.value).value)
      const h: HeaderInfo = v ? headerInfo(v) : {}
      if (text(r.workspaceId)) h.workspaceId = r.workspaceId!
      if (r.isSubagent !== null) h.isSubagent = r.isSubagent === 1
      out.tableHeaders.set(r.composerId, h)
    }
  }
  if (!tables.has('ItemTable')) return
  const row = s.prepare("SELECT value FROM ItemTable WHERE key = 'composer.composerHeaders'").get() as { value: unknown } | undefined
  if (!row) return
  const cell = decodeCell(row.value)
  const list = arr(obj(cell.value)?.allComposers) ?? arr(cell.value)
  if (!list) {
    diagnostics.push({ severity: 'warning', path: db, message: `ItemTable row "composer.composerHeaders": ${cell.problem ?? 'no allComposers list'}; ignored`, agent: 'cursor' })
    return
  }
  for (const h of list) {
    const o = obj(h)
    const id = str(o?.composerId)
    if (o && id) out.itemHeaders.set(id, headerInfo(o))
  }
}

function scanTasks(s: StoreSnapshot, out: GlobalIndex): void {
  const rows = s.prepare("SELECT key FROM cursorDiskKV WHERE key >= 'bubbleId:task-' AND key < 'bubbleId:task.'").iterate() as IterableIterator<{ key: string }>
  for (const { key } of rows) {
    const last = key.lastIndexOf(':')
    if (last <= 'bubbleId:'.length) continue
    const id = key.slice('bubbleId:'.length, last)
    out.tasks.set(id, (out.tasks.get(id) ?? 0) + 1)
  }
}

/** Legacy chat keys (shared with the workspace scan). */
export const CHAT_KEYS = ['workbench.panel.aichat.view.aichat.chatdata', 'workbench.panel.chat.view.chat.chatdata'] as const

function scanItemChats(s: StoreSnapshot, db: string, out: GlobalIndex, diagnostics: Diagnostic[]): void {
  for (const key of CHAT_KEYS) {
    const row = s.prepare('SELECT value FROM ItemTable WHERE key = ?').get(key) as { value: unknown } | undefined
    if (!row) continue
    const cell = decodeCell(row.value)
    if (cell.problem !== undefined) diagnostics.push({ severity: 'warning', path: db, message: `ItemTable row "${key}": ${cell.problem}; the chats it lists are skipped`, agent: 'cursor' })
    else out.itemChats.set(key, cell.value)
  }
  reportStrayChatRows(s.db, db, diagnostics)
}

/**
 * Scan one global `state.vscdb` (through a read-only copy). Throws when the file cannot be copied
 * or is not a SQLite database; bad rows are diagnostics.
 */
export function scanGlobal(db: string, diagnostics: Diagnostic[]): GlobalIndex {
  const out: GlobalIndex = { db, composers: new Map(), tableHeaders: new Map(), itemHeaders: new Map(), tasks: new Map(), itemChats: new Map() }
  withSnapshot(db, (s) => {
    const tables = new Set((s.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name))
    if (tables.has('cursorDiskKV')) {
      scanComposers(s, db, out, diagnostics)
      scanTasks(s, out)
    }
    scanHeaders(s, db, out, diagnostics, tables)
    if (tables.has('ItemTable')) scanItemChats(s, db, out, diagnostics)
    // An empty (0-byte) or foreign file opens as a database with no tables: say so (issue 16).
    if (!tables.has('cursorDiskKV') && !tables.has('ItemTable')) diagnostics.push({ severity: 'warning', path: db, message: `${db} has neither a cursorDiskKV nor an ItemTable table (empty or not a Cursor database); no sessions read from it`, agent: 'cursor' })
  })
  return out
}

/**
 * The composer ids of one global `state.vscdb` (keys only, one index range scan), so the agent
 * CLI reader can leave IDE chats' `agent-transcripts` to the IDE reader (§B1, §F20: a transcript id
 * can match either stack; the store wins). Throws when the database cannot be copied or opened.
 */
export function ideComposerIds(db: string): Set<string> {
  return withSnapshot(db, (s) => {
    const has = s.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cursorDiskKV'").get()
    if (!has) return new Set<string>()
    const rows = s.prepare("SELECT key FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;'").all() as { key: string }[]
    return new Set(rows.map((r) => r.key.slice('composerData:'.length)))
  })
}
