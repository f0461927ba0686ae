/**
 * Damaged `ItemTable` rows that would hide chats (issue 16, "every dropped or skipped thing has a
 * diagnostic"). The legacy readers find chat data by exact key (`composer.composerData`,
 * `workbench.panel.aichat.view.aichat.chatdata`, `workbench.panel.chat.view.chat.chatdata`:
 * shared/formats/cursor-devin-atif-acp.md §A4, §A5.4). When a row's key is damaged (cut short,
 * a stray byte, NULL, a number), its chats vanish without an error. This scan names:
 * - every row whose key is not TEXT (VS Code's `ItemTable` declares `key TEXT UNIQUE`, so such a
 *   row is damage whatever it holds);
 * - every row under another TEXT key whose value has the shape of Cursor chat data (a list of
 *   composers with `composerId`s and messages, or of tabs with ids and bubbles).
 * Their chats are not listed (Sepia cannot tell which key the row had); the diagnostic gives the
 * row id, the key as stored and how many chats it holds.
 */
import type Database from 'better-sqlite3'
import type { Diagnostic } from '../../../shared/ir'
import { arr, decodeCell, obj, str } from './common/json'
import { plural } from '../../../shared/plural'
import { chatTabs, composerList, inlineMessages, tabId } from './workspaces'

/** The keys the readers take chat data from (workspace and very old global `ItemTable`). */
export const CHAT_ROW_KEYS = ['composer.composerData', 'workbench.panel.aichat.view.aichat.chatdata', 'workbench.panel.chat.view.chat.chatdata'] as const

/**
 * Candidate rows: every row with a key that is not TEXT, and rows under other keys whose value holds
 * the words every chat value holds (a value with none of them cannot hide a chat; the global
 * `composer.composerHeaders` list is read on its own, global.ts). `rowid` is SQLite's row number.
 */
const STRAY_SQL = `SELECT rowid AS rowid, key, typeof(key) AS keyType, value
FROM ItemTable
WHERE typeof(key) != 'text'
   OR (key NOT IN (${[...CHAT_ROW_KEYS, 'composer.composerHeaders'].map((k) => `'${k}'`).join(', ')})
       AND (instr(value, 'allComposers') > 0 OR instr(value, 'chatSessions') > 0 OR (instr(value, 'tabs') > 0 AND instr(value, 'bubbles') > 0)))`

/** Number of chats with messages a value holds, in either legacy shape (0 when it is neither). */
export function chatCount(value: unknown): number {
  let n = 0
  const list = composerList(value)
  for (const c of list ?? []) {
    const o = obj(c)
    if (o && str(o.composerId) && (inlineMessages(o)?.length ?? 0) > 0) n++
  }
  for (const t of chatTabs(value) ?? []) {
    const o = obj(t)
    if (o && tabId(o) && ((arr(o.bubbles) ?? arr(o.messages))?.length ?? 0) > 0) n++
  }
  return n
}

/** The key as stored, for a message: text quoted (cut at 80 characters), other types by type. */
function showKey(key: unknown, type: string): string {
  if (type === 'text') return JSON.stringify(String(key).length > 80 ? `${String(key).slice(0, 80)}…` : key)
  if (type === 'null') return 'NULL'
  if (type === 'blob') return `a ${(key as Buffer).length}-byte BLOB`
  return `the ${type === 'integer' ? 'integer' : 'number'} ${String(key)}`
}

/**
 * Push one warning per damaged chat row of `db`'s `ItemTable` (see the file comment) onto
 * `diagnostics`, each naming the file (`path`), the row id and what it hides. `db` is an open
 * handle on the database at `path` with an `ItemTable` table. Never throws (a query that fails is
 * itself a diagnostic).
 */
export function reportStrayChatRows(db: Database.Database, path: string, diagnostics: Diagnostic[]): void {
  type Row = { rowid: number; key: unknown; keyType: string; value: unknown }
  try {
    for (const r of db.prepare(STRAY_SQL).iterate() as IterableIterator<Row>) {
      const chats = r.value === null ? 0 : chatCount(decodeCell(r.value).value)
      const key = showKey(r.key, r.keyType)
      if (r.keyType !== 'text') {
        const hides = chats > 0 ? `; it holds ${plural(chats, 'chat')}, not listed` : ''
        diagnostics.push({ severity: 'warning', path, message: `ItemTable row ${r.rowid} has ${key} as its key, not text (a damaged row); skipped${hides}`, agent: 'cursor' })
      } else if (chats > 0) {
        diagnostics.push({ severity: 'warning', path, message: `ItemTable row ${r.rowid} (key ${key}) holds ${plural(chats, 'Cursor chat')} under a key Cursor does not use (a damaged key?); ${chats === 1 ? 'it is' : 'they are'} not listed`, agent: 'cursor' })
      }
    }
  } catch (e) {
    diagnostics.push({ severity: 'warning', path, message: `cannot scan ItemTable for damaged chat rows: ${(e as Error).message}`, agent: 'cursor' })
  }
}
