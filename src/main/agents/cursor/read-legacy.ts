/**
 * Read the oldest Cursor chat data (≤ v0.42, to ~Nov 2024) from a workspace (or very old global)
 * `ItemTable` (shared/formats/cursor-devin-atif-acp.md §A4, §A5.1, §A5.4):
 * - chat-pane tabs: `ItemTable['workbench.panel.aichat.view.aichat.chatdata']` =
 *   `{tabs|chatSessions:[{tabId, chatTitle, lastSendTime (ms), bubbles:[{type:"user"|"ai", id,
 *   text|rawText|initText|delegate.a, modelType, codeBlocks}]}]}`;
 * - inline workspace composers: `ItemTable['composer.composerData'].allComposers[]` with
 *   `conversation[]` bubbles (or `conversation.messages[{role, text|content[], timestamp}]`,
 *   fixtures/public/cursor/luoyuctl__agenttrace__cursor-composer-messages.json).
 */
import type { Session } from '../../../shared/ir'
import { addDiagnostic } from '../../ir/build'
import { openSqliteReadOnly } from '../../util/sqlite'
import { arr, decodeCell, type Json, obj, str, text, toMs } from './common/json'
import { bubbleToNodes } from './bubble'
import { applyComposer, configuredModel } from './composer'
import { chain } from './read-composer'
import { chatTabs, composerList, inlineMessages, tabId } from './workspaces'

function fillFromBubbles(session: Session, list: unknown[]): void {
  const nodes = list.flatMap((b, i) => {
    const o = obj(b)
    return o ? bubbleToNodes(o, { fallbackId: `${session.id}#${i + 1}` }) : []
  })
  session.nodes = chain(nodes)
}

/**
 * Fill `session` from ItemTable row `key` of database `db`: the tab (`kind` `pane`) or inline
 * composer (`ws-composer`) whose id is `session.id`. Returns false (with a diagnostic) when the row
 * or the entry is gone or unreadable. Throws when the database cannot be opened.
 */
export function readLegacyInto(session: Session, db: string, key: string, kind: 'pane' | 'ws-composer'): boolean {
  const h = openSqliteReadOnly(db)
  let value: unknown
  try {
    // `+key`: the table, as discovery read it (workspaces.ts), not a key index that may be damaged.
    const row = h.db.prepare('SELECT value FROM ItemTable WHERE +key = ?').get(key) as { value: unknown } | undefined
    const cell = decodeCell(row?.value ?? null)
    if (cell.problem !== undefined) {
      addDiagnostic(session, { severity: 'error', path: db, message: `ItemTable row "${key}": ${cell.problem}` })
      return false
    }
    value = cell.value
  } finally {
    h.close()
  }
  const list = kind === 'pane' ? chatTabs(value) : composerList(value)
  const entry = (list ?? []).map(obj).find((e): e is Json => !!e && (kind === 'pane' ? tabId(e) : str(e.composerId)) === session.id)
  if (!entry) {
    addDiagnostic(session, { severity: 'error', path: db, message: `ItemTable row "${key}" no longer lists ${session.id}` })
    return false
  }
  if (kind === 'pane') {
    const title = text(entry.chatTitle) ?? text(entry.title)
    if (title !== undefined) session.title = title
    const created = toMs(entry.createdAt)
    if (created !== undefined) session.createdAt = created
    const last = toMs(entry.lastSendTime) ?? toMs(entry.lastUpdatedAt)
    if (last !== undefined) session.lastActivityAt = last
    fillFromBubbles(session, arr(entry.bubbles) ?? arr(entry.messages) ?? [])
  } else {
    applyComposer(session, entry)
    fillFromBubbles(session, inlineMessages(entry) ?? [])
    const model = configuredModel(entry)
    if (model !== undefined) session.model = model
  }
  return true
}
