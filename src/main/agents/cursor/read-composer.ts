/**
 * Read one global composer (`composerData:<id>`) or `task_v2` sub-agent (`bubbleId:task-<id>:*`)
 * from a Cursor `state.vscdb` into the IR.
 *
 * Order and generations (shared/formats/cursor-devin-atif-acp.md §A4, §A5.2, §F3, §F7, §F13, §F17):
 * branch on which fields exist, never on `_v`: `fullConversationHeadersOnly[]` orders the
 * `bubbleId:<id>:<bubble>` rows (read with one prepared key-range query per composer, never a
 * table scan); an inline `conversation[]` (or `conversation.messages[]`) holds the bubbles itself.
 * Bubble rows not in the header list (edits, retries, streaming leftovers) are not shown; a header
 * naming no row, and NULL/BLOB/non-JSON rows, are diagnostics and the rest loads. Task bubbles have
 * no header list: they are ordered by their times when every bubble has one, else by row order.
 */
import type { MessageNode, Session } from '../../../shared/ir'
import { addDiagnostic, skipRecord } from '../../ir/build'
import { arr, decodeCell, type Json, obj, str, text } from './common/json'
import type { StoreSnapshot } from './common/snapshot'
import { bubbleTime, bubbleToNodes } from './bubble'
import { applyComposer, configuredModel } from './composer'
import { FORMAT_HEADERS, FORMAT_INLINE } from './refs'
import { plural } from '../../../shared/plural'

/** One composer's bubble rows, by key range (`bubbleId:<id>:` … `bubbleId:<id>;`). */
export const BUBBLES_SQL = 'SELECT key, typeof(value) AS t, value, rowid AS r FROM cursorDiskKV WHERE key >= ? AND key < ?'
const CONTEXT_SQL = 'SELECT value FROM cursorDiskKV WHERE key >= ? AND key < ?'

interface BubbleRow {
  key: string
  value: unknown
  r: number
}

/** All `bubbleId:<composerId>:*` rows, by bubble id (values not decoded yet). */
function bubbleRows(s: StoreSnapshot, composerId: string): Map<string, BubbleRow> {
  const prefix = `bubbleId:${composerId}:`
  const rows = s.prepare(BUBBLES_SQL).all(prefix, `bubbleId:${composerId};`) as BubbleRow[]
  return new Map(rows.map((r) => [r.key.slice(prefix.length), r]))
}

/** Decode a bubble row; a diagnostic and undefined when it is NULL, binary or not JSON. */
function decodeBubble(session: Session, db: string, row: BubbleRow): Json | undefined {
  const cell = decodeCell(row.value)
  const doc = obj(cell.value)
  if (cell.problem !== undefined || !doc) {
    skipRecord(session, { severity: 'warning', path: db, message: `cursorDiskKV row "${row.key}": ${cell.problem ?? 'value is not a JSON object'}; the bubble is skipped` })
    return undefined
  }
  if (cell.note) addDiagnostic(session, { severity: 'info', path: db, message: `cursorDiskKV row "${row.key}": ${cell.note}` })
  return doc
}

/** Link nodes into one chain (each node's parent is the previous top-level node). */
export function chain(nodes: MessageNode[]): MessageNode[] {
  let prev: string | undefined
  for (const n of nodes) {
    if (n.parentNodeId === undefined && prev !== undefined) n.parentNodeId = prev
    prev = n.nodeId
  }
  return nodes
}

/** Make node ids unique (a bubble listed twice keeps its id once; later copies get `#2`, `#3`...). */
function uniqueIds(nodes: MessageNode[]): void {
  const seen = new Map<string, number>()
  for (const n of nodes) {
    const k = seen.get(n.nodeId) ?? 0
    seen.set(n.nodeId, k + 1)
    if (k > 0) n.nodeId = `${n.nodeId}#${k + 1}`
  }
}

function headerNodes(session: Session, s: StoreSnapshot, db: string, id: string, headers: unknown[]): MessageNode[] {
  const rows = bubbleRows(s, id)
  const nodes: MessageNode[] = []
  const used = new Set<string>()
  let missing = 0
  headers.forEach((h, i) => {
    const header = obj(h)
    const bubbleId = str(header?.bubbleId)
    const row = bubbleId === undefined ? undefined : rows.get(bubbleId)
    if (!header || bubbleId === undefined || !row) {
      if (++missing <= 20) addDiagnostic(session, { severity: 'warning', path: db, message: `header ${i + 1} of composer ${id} names bubble ${bubbleId ?? '(none)'}, which has no bubbleId row; skipped` })
      return
    }
    used.add(bubbleId)
    const b = decodeBubble(session, db, row)
    if (b) nodes.push(...bubbleToNodes(b, { fallbackId: bubbleId, header }))
  })
  if (missing > 20) addDiagnostic(session, { severity: 'warning', path: db, message: `${missing - 20} more headers name no bubble row` })
  const orphans = rows.size - used.size
  if (orphans > 0) {
    session.metadata.orphanBubbles = orphans
    addDiagnostic(session, { severity: 'info', path: db, message: `${plural(orphans, 'bubble row', 'bubble rows')} of composer ${id} ${orphans === 1 ? 'is' : 'are'} not in its header list (edits, retries); not shown` })
  }
  return nodes
}

function inlineNodes(id: string, list: unknown[]): MessageNode[] {
  const nodes: MessageNode[] = []
  list.forEach((b, i) => {
    const o = obj(b)
    if (o) nodes.push(...bubbleToNodes(o, { fallbackId: `${id}#${i + 1}` }))
  })
  return nodes
}

/** Step 6 of the project mapping: `messageRequestContext:<id>:*` → `projectLayouts[]` → `rootPath`. */
function requestContextRoot(s: StoreSnapshot, id: string): string | undefined {
  const rows = s.prepare(CONTEXT_SQL).iterate(`messageRequestContext:${id}:`, `messageRequestContext:${id};`) as IterableIterator<{ value: unknown }>
  for (const r of rows) {
    for (const layout of arr(obj(decodeCell(r.value).value)?.projectLayouts) ?? []) {
      const l = typeof layout === 'string' ? obj(decodeCell(layout).value) : obj(layout)
      const root = text(l?.rootPath)
      if (root !== undefined) return root
    }
  }
  return undefined
}

/**
 * Fill `session` from composer `id` in snapshot `s` of database `db`. Returns false when the
 * composer row itself is unusable (a diagnostic says why).
 */
export function readComposerInto(session: Session, s: StoreSnapshot, db: string, id: string): boolean {
  const row = s.prepare('SELECT key, value, rowid AS r FROM cursorDiskKV WHERE key = ?').get(`composerData:${id}`) as BubbleRow | undefined
  if (!row) {
    addDiagnostic(session, { severity: 'error', path: db, message: `composerData:${id} is gone from the database` })
    return false
  }
  const cell = decodeCell(row.value)
  const doc = obj(cell.value)
  if (cell.problem !== undefined || !doc) {
    addDiagnostic(session, { severity: 'error', path: db, message: `cursorDiskKV row "composerData:${id}": ${cell.problem ?? 'value is not a JSON object'}` })
    return false
  }
  if (cell.note) addDiagnostic(session, { severity: 'info', path: db, message: `cursorDiskKV row "composerData:${id}": ${cell.note}` })
  applyComposer(session, doc)
  const headers = arr(doc.fullConversationHeadersOnly)
  const inline = arr(doc.conversation) ?? arr(obj(doc.conversation)?.messages)
  let nodes: MessageNode[]
  if (headers && (headers.length > 0 || !inline?.length)) {
    session.source.format = FORMAT_HEADERS
    nodes = headerNodes(session, s, db, id, headers)
  } else {
    session.source.format = FORMAT_INLINE
    nodes = inlineNodes(id, inline ?? [])
  }
  uniqueIds(nodes)
  session.nodes = chain(nodes)
  const model = nodes.find((n) => n.role === 'assistant' && n.model)?.model ?? configuredModel(doc)
  if (model !== undefined) session.model = model
  if (session.workingDirectory === undefined) {
    const root = requestContextRoot(s, id)
    if (root !== undefined) {
      session.workingDirectory = root
      session.metadata.project = { via: 'messageRequestContext.projectLayouts' }
    }
  }
  return true
}

/** Fill `session` from the `bubbleId:task-<toolCallId>:*` rows of a sub-agent with no composer row. */
export function readTaskInto(session: Session, s: StoreSnapshot, db: string, id: string): void {
  const rows = [...bubbleRows(s, id).values()].sort((a, b) => a.r - b.r)
  const decoded = rows.map((r) => ({ row: r, doc: decodeBubble(session, db, r) })).filter((x): x is { row: BubbleRow; doc: Json } => !!x.doc)
  const times = decoded.map((x) => bubbleTime(x.doc))
  const timed = times.every((t) => t !== undefined)
  const order = decoded.map((x, i) => ({ ...x, t: times[i] ?? 0, i }))
  if (timed) order.sort((a, b) => a.t - b.t || a.i - b.i)
  session.metadata.bubbleOrder = timed ? 'createdAt' : 'row order'
  if (!timed) addDiagnostic(session, { severity: 'info', path: db, message: `sub-agent ${id} has no header list and not every bubble has a time; bubbles are shown in row order` })
  const nodes = order.flatMap((x) => bubbleToNodes(x.doc, { fallbackId: x.row.key.slice(x.row.key.lastIndexOf(':') + 1) }))
  uniqueIds(nodes)
  session.nodes = chain(nodes)
}
