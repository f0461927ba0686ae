/**
 * Cursor IDE workspace stores (`<user dir>/User/workspaceStorage/<id>/{state.vscdb, workspace.json}`):
 * the folder each workspace is, which composers it lists, and the oldest chat data.
 *
 * Facts (shared/formats/cursor-devin-atif-acp.md §A3 "Workspace ItemTable", §A4, §A5.1, §A5.4,
 * §A6, §F11, §F15, §F16):
 * - `workspace.json` = `{"folder": "<uri>"}` (single folder), `{"workspace": "<uri of a
 *   .code-workspace>"}` (multi-root: no single project folder) or a remote URI; may be missing
 *   (no-folder windows). The dir name cannot be derived from the path.
 * - `ItemTable['composer.composerData']` = `{allComposers:[{composerId, name, createdAt, …,
 *   conversation?}], selectedComposerIds, lastFocusedComposerIds}` — membership, and before
 *   Cursor 0.43 the conversations themselves. After 3.0 a stub without `allComposers`; one doc
 *   describes a bare array: both accepted. Values can be double-encoded JSON strings.
 * - `ItemTable['workbench.panel.composerChatViewPane.<guid>']`: keys/values embed composer ids.
 * - `ItemTable['workbench.panel.aichat.view.aichat.chatdata']` (and `…chat.view.chat.chatdata`)
 *   = `{tabs|chatSessions:[{tabId, chatTitle, lastSendTime, bubbles[]}]}`: the oldest chat pane.
 */
import { existsSync, statSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import type { PlatformPath } from 'node:path'
import type { Diagnostic } from '../../../shared/ir'
import { folderNamedLikeFileMessage, loopMessage, storeEntries } from '../link-loop'
import { openSqliteReadOnly } from '../../util/sqlite'
import { arr, decodeCell, type Json, obj, str, text } from './common/json'
import { type ProjectPath, uriToPath } from './common/uri'
import { CHAT_KEYS } from './global'
import { readRegularFile } from '../../util/regular-file'
import { reportStrayChatRows } from './item-rows'

/** One chat-pane tab or inline workspace composer found in a workspace `ItemTable`. */
export interface LegacyChat {
  /** `pane` = chat-pane tab; `composer` = inline `composer.composerData` entry. */
  kind: 'pane' | 'composer'
  id: string
  /** ItemTable key holding it. */
  key: string
  messages: number
}

/** One `workspaceStorage/<id>` folder. */
export interface WorkspaceInfo {
  id: string
  dir: string
  /** `state.vscdb`, when present. */
  db?: string
  /** `workspace.json`, when present. */
  jsonPath?: string
  /** The `folder` (or remote) as a path; absent for multi-root, no-folder or unreadable. */
  folder?: ProjectPath
  /** The URI `workspace.json` recorded (`folder` or `workspace`). */
  uri?: string
  /** Composer ids the workspace lists (`allComposers`, `selectedComposerIds`, `lastFocusedComposerIds`). */
  members: Set<string>
  /** Ids found in `composerChatViewPane` keys and values. */
  paneIds: Set<string>
  chats: LegacyChat[]
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
/** Fields of the post-3.0 `composer.composerData` stub (§A5.4: selection lists and migration flags). */
const STUB_KEYS = ['selectedComposerId', 'selectedComposerIds', 'lastFocusedComposerIds', 'composerDataVersion', 'hasMigratedComposerData', 'hasMigratedMultipleComposers']
const PANE_SQL = "SELECT key, value FROM ItemTable WHERE key >= 'workbench.panel.composerChatViewPane.' AND key < 'workbench.panel.composerChatViewPane/'"

/** The composer list of a `composer.composerData` value (`{allComposers}` or a bare array). */
export function composerList(value: unknown): unknown[] | undefined {
  return arr(value) ?? arr(obj(value)?.allComposers)
}

/** The tab list of a chat-pane value (`tabs`, or `chatSessions` in some versions). */
export function chatTabs(value: unknown): unknown[] | undefined {
  const v = obj(value)
  return arr(v?.tabs) ?? arr(v?.chatSessions)
}

/** A tab's id (`tabId`, `id`, `sessionId`). */
export function tabId(tab: Json): string | undefined {
  return text(tab.tabId) ?? text(tab.id) ?? text(tab.sessionId)
}

/** Messages of an inline composer: `conversation[]` or `conversation.messages[]`. */
export function inlineMessages(composer: Json): unknown[] | undefined {
  return arr(composer.conversation) ?? arr(obj(composer.conversation)?.messages)
}

async function readWorkspaceJson(ws: WorkspaceInfo, path: string, diagnostics: Diagnostic[]): Promise<void> {
  let raw: string
  try {
    raw = await readRegularFile(path)
  } catch {
    return
  }
  ws.jsonPath = path
  const doc = obj(decodeCell(raw).value)
  if (!doc) {
    diagnostics.push({ severity: 'warning', path, message: 'workspace.json is not a JSON object; the workspace has no project folder', agent: 'cursor' })
    return
  }
  const folder = text(doc.folder)
  const uri = folder ?? text(doc.workspace)
  if (uri !== undefined) ws.uri = uri
  if (folder !== undefined) {
    const p = uriToPath(folder)
    if (p) ws.folder = p
  }
}

/** A chat row whose JSON parsed but has not the shape Cursor writes: what it hides is named, not dropped (issue 16). */
function shapeProblem(diagnostics: Diagnostic[], db: string, key: string, what: string): void {
  diagnostics.push({ severity: 'warning', path: db, message: `ItemTable row "${key}" ${what}; the chats it lists may be missing`, agent: 'cursor' })
}

function scanItemTable(ws: WorkspaceInfo, db: string, diagnostics: Diagnostic[]): void {
  const h = openSqliteReadOnly(db)
  try {
    // `+key`: read the table, not the key index. A damaged index page answers "no such row" with
    // no error, which hid every chat of the workspace (issue 16, npm run fuzz); workspace tables are small.
    const get = h.db.prepare('SELECT value FROM ItemTable WHERE +key = ?')
    const composers = get.get('composer.composerData') as { value: unknown } | undefined
    if (composers) {
      const cell = decodeCell(composers.value)
      if (cell.problem) diagnostics.push({ severity: 'warning', path: db, message: `ItemTable row "composer.composerData": ${cell.problem}; ignored`, agent: 'cursor' })
      const v = obj(cell.value)
      for (const k of ['selectedComposerIds', 'lastFocusedComposerIds']) for (const id of arr(v?.[k]) ?? []) if (typeof id === 'string') ws.members.add(id)
      const list = composerList(cell.value)
      // Newer stores keep only the selection here ({selectedComposerIds}); a value that is no object,
      // or an allComposers that is no list, is damage.
      if (!cell.problem && list === undefined && (v === undefined || v.allComposers !== undefined)) shapeProblem(diagnostics, db, 'composer.composerData', 'has no allComposers list')
      // The post-3.0 stub still has the selection lists or the migration flags (§A5.4); an object with none of them is damage.
      else if (!cell.problem && list === undefined && v && !STUB_KEYS.some((k) => k in v)) shapeProblem(diagnostics, db, 'composer.composerData', `has no allComposers list and none of the fields of Cursor's stub (${Object.keys(v).slice(0, 3).join(', ') || 'an empty object'})`)
      // Cursor writes an object; the bare-array shape comes from one secondary doc (§A5.4). An empty
      // one lists nothing at all, so it is named (a value replaced by damage looks the same).
      if (!cell.problem && Array.isArray(cell.value) && cell.value.length === 0) shapeProblem(diagnostics, db, 'composer.composerData', 'is an empty list, not the object Cursor writes')
      for (const [i, c] of (list ?? []).entries()) {
        const o = obj(c)
        const id = str(o?.composerId)
        if (!o || !id) {
          shapeProblem(diagnostics, db, 'composer.composerData', `composer ${i + 1} has no composerId`)
          continue
        }
        ws.members.add(id)
        const msgs = inlineMessages(o)
        if (!msgs && o.conversation !== undefined) shapeProblem(diagnostics, db, 'composer.composerData', `composer ${id}: conversation is not a list`)
        if (msgs && msgs.length > 0) ws.chats.push({ kind: 'composer', id, key: 'composer.composerData', messages: msgs.length })
      }
    }
    for (const key of CHAT_KEYS) {
      const row = get.get(key) as { value: unknown } | undefined
      if (!row) continue
      const cell = decodeCell(row.value)
      if (cell.problem) diagnostics.push({ severity: 'warning', path: db, message: `ItemTable row "${key}": ${cell.problem}; ignored`, agent: 'cursor' })
      const tabs = chatTabs(cell.value)
      if (!cell.problem && tabs === undefined) shapeProblem(diagnostics, db, key, 'has no tabs list')
      for (const [i, tab] of (tabs ?? []).entries()) {
        const o = obj(tab)
        const id = o && tabId(o)
        const list = arr(o?.bubbles) ?? arr(o?.messages)
        if (!id) shapeProblem(diagnostics, db, key, `tab ${i + 1} has no id`)
        else if (!list && (o?.bubbles !== undefined || o?.messages !== undefined)) shapeProblem(diagnostics, db, key, `tab ${id}: bubbles is not a list`)
        else if (!list) shapeProblem(diagnostics, db, key, `tab ${id} has neither bubbles nor messages`)
        const bubbles = list ?? []
        if (id && bubbles.length > 0) ws.chats.push({ kind: 'pane', id, key, messages: bubbles.length })
      }
    }
    reportStrayChatRows(h.db, db, diagnostics)
    for (const r of h.db.prepare(PANE_SQL).iterate() as IterableIterator<{ key: string; value: unknown }>) {
      const body = `${r.key} ${typeof r.value === 'string' ? r.value : Buffer.isBuffer(r.value) ? r.value.toString('utf8') : ''}`
      for (const m of body.matchAll(UUID)) ws.paneIds.add(m[0].toLowerCase())
    }
  } finally {
    h.close()
  }
}

/**
 * True when something to open is at `db` (a `state.vscdb`); false when nothing is, and false with a
 * warning naming it for a folder so named or a link that loops (agents/link-loop.ts). Never throws.
 */
export function databaseThere(db: string, diagnostics: Diagnostic[]): boolean {
  let folder: boolean
  try {
    const s = statSync(db, { throwIfNoEntry: false })
    if (!s) return false
    folder = s.isDirectory()
  } catch (e) {
    const loop = loopMessage(db, e)
    if (loop) diagnostics.push({ severity: 'warning', skipped: 1, path: db, message: loop, agent: 'cursor' })
    return !loop && existsSync(db)
  }
  if (folder) diagnostics.push({ severity: 'warning', skipped: 1, path: db, message: folderNamedLikeFileMessage(db), agent: 'cursor' })
  return !folder
}

/**
 * Scan every `workspaceStorage/<id>` folder under `dir`. Never throws: an unreadable folder or
 * database is a diagnostic and the other workspaces load.
 */
export async function scanWorkspaces(dir: string, p: PlatformPath, diagnostics: Diagnostic[]): Promise<Map<string, WorkspaceInfo>> {
  const out = new Map<string, WorkspaceInfo>()
  let names: string[]
  try {
    // Workspace folders, links to folders followed; a link that loops or leads above is named, not followed (agents/link-loop.ts).
    names = (await storeEntries(dir, await readdir(dir, { withFileTypes: true }), 'cursor', diagnostics)).folders
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path: dir, message: `cannot list folder: ${(e as Error).message}`, agent: 'cursor' })
    return out
  }
  for (const id of names) {
    const wsDir = p.join(dir, id)
    const ws: WorkspaceInfo = { id, dir: wsDir, members: new Set(), paneIds: new Set(), chats: [] }
    out.set(id, ws)
    await readWorkspaceJson(ws, p.join(wsDir, 'workspace.json'), diagnostics)
    const db = p.join(wsDir, 'state.vscdb')
    if (!databaseThere(db, diagnostics)) continue
    ws.db = db
    try {
      scanItemTable(ws, db, diagnostics)
    } catch (e) {
      diagnostics.push({ severity: 'warning', skipped: 1, path: db, message: `cannot read workspace database: ${(e as Error).message}`, agent: 'cursor' })
    }
  }
  return out
}
