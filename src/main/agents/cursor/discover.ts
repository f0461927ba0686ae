/**
 * Find Cursor IDE sessions under one home: every `globalStorage` folder whose editor is Cursor
 * (desktop, remote server, portable, Flatpak; `platform/vscode.ts`), its global `state.vscdb` and
 * the sibling `workspaceStorage/*` folders (shared/formats/cursor-devin-atif-acp.md §A1, §A4).
 *
 * Discovery reads only `composerData` rows (a few fields extracted in SQL) and the small
 * workspace `ItemTable` keys; bubbles are read when a session is. Composers with no messages
 * (unsent drafts: empty header list and no inline conversation, §F2) are not listed. A composer
 * listed in both the global store and a workspace list is one session (the global one).
 * Sub-composers get `parentSessionId` from `subagentInfo.parentComposerId`, the parent's
 * `subComposerIds`/`subagentComposerIds`, or the headers; `task-<toolCallId>` sub-agents are linked
 * after reading (`link.ts`).
 */
import { statSync } from 'node:fs'
import type { PlatformPath } from 'node:path'
import type { Diagnostic } from '../../../shared/ir'
import { type HomeLayout, pathApiFor } from '../../platform'
import type { DiscoverResult, ReadContext, StoreRef } from '../types'
import { type GlobalIndex, scanGlobal } from './global'
import { resolveProject } from './project'
import { type CursorHints, FORMAT_HEADERS, FORMAT_INLINE, FORMAT_PANE, FORMAT_TASK, FORMAT_WS_COMPOSER } from './refs'
import { arr, obj } from './common/json'
import { chatTabs, databaseThere, scanWorkspaces, tabId, type WorkspaceInfo } from './workspaces'

/** Size and newest mtime of a SQLite file with its `-wal`. */
function dbStat(path: string): { size: number; mtimeMs: number } {
  let size = 0
  let mtimeMs = 0
  for (const f of [path, path + '-wal']) {
    try {
      const s = statSync(f)
      size += s.size
      mtimeMs = Math.max(mtimeMs, s.mtimeMs)
    } catch {
      // -wal is optional
    }
  }
  return { size, mtimeMs }
}

function ref(home: string, sessionId: string, format: string, db: string, hints: CursorHints, parent?: string): StoreRef {
  const files = [db]
  const r: StoreRef = { agent: 'cursor', sessionId, format, files, ...dbStat(db), home, hints: { ...hints } }
  if (parent !== undefined) r.parentSessionId = parent
  return r
}

function composerRefs(home: string, g: GlobalIndex, workspaces: Map<string, WorkspaceInfo>, install: string, diagnostics: Diagnostic[]): StoreRef[] {
  const parents = new Map<string, string>()
  for (const c of g.composers.values()) for (const sub of c.subIds) if (sub !== c.id) parents.set(sub, c.id)
  const refs: StoreRef[] = []
  for (const c of g.composers.values()) {
    const inline = c.inlineCount ?? 0
    const headers = c.headerCount ?? 0
    if (inline === 0 && headers === 0) {
      // An unsent draft is skipped quietly; a damaged row that only looks like one is named.
      if (c.damaged) diagnostics.push({ severity: 'warning', path: g.db, message: `cursorDiskKV row "composerData:${c.id}": ${c.damaged}; the composer is skipped`, agent: 'cursor' })
      continue
    }
    const tableHeader = g.tableHeaders.get(c.id)
    const itemHeader = g.itemHeaders.get(c.id)
    const hints: CursorHints = { kind: 'composer', db: g.db, install }
    const project = resolveProject(c.id, { composer: c, workspaces, ...(tableHeader ? { tableHeader } : {}), ...(itemHeader ? { itemHeader } : {}) })
    if (project) hints.project = project
    if (c.lastUpdatedAt !== undefined) hints.lastUpdatedAt = c.lastUpdatedAt
    hints.valueSize = c.size
    const parent = c.parentId ?? tableHeader?.parentId ?? itemHeader?.parentId ?? parents.get(c.id)
    refs.push(ref(home, c.id, headers > 0 ? FORMAT_HEADERS : FORMAT_INLINE, g.db, hints, parent))
  }
  for (const [id, count] of g.tasks) {
    if (g.composers.has(id) || count === 0) continue
    refs.push(ref(home, id, FORMAT_TASK, g.db, { kind: 'task', db: g.db, install, toolCallId: id.slice('task-'.length) }))
  }
  return refs
}

function legacyRefs(home: string, g: GlobalIndex | undefined, workspaces: Map<string, WorkspaceInfo>, install: string): StoreRef[] {
  const refs: StoreRef[] = []
  for (const ws of workspaces.values()) {
    if (!ws.db) continue
    for (const chat of ws.chats) {
      if (chat.kind === 'composer' && g?.composers.has(chat.id)) continue
      const hints: CursorHints = { kind: chat.kind === 'pane' ? 'pane' : 'ws-composer', db: ws.db, itemKey: chat.key, install }
      if (ws.folder) hints.project = { ...ws.folder, via: 'workspace.json', workspaceId: ws.id }
      const r = ref(home, chat.id, chat.kind === 'pane' ? FORMAT_PANE : FORMAT_WS_COMPOSER, ws.db, hints)
      if (ws.jsonPath) r.files.push(ws.jsonPath)
      refs.push(r)
    }
  }
  return refs
}

/** Chat-pane tabs kept in the global `ItemTable` (very old installs). */
function globalPaneRefs(home: string, g: GlobalIndex, install: string): StoreRef[] {
  const refs: StoreRef[] = []
  for (const [key, value] of g.itemChats) {
    for (const t of chatTabs(value) ?? []) {
      const tab = obj(t)
      const id = tab && tabId(tab)
      const bubbles = arr(tab?.bubbles) ?? arr(tab?.messages) ?? []
      if (id && bubbles.length > 0) refs.push(ref(home, id, FORMAT_PANE, g.db, { kind: 'pane', db: g.db, itemKey: key, install }))
    }
  }
  return refs
}

/** Refs of one Cursor user folder (`<...>/Cursor/User`). */
async function userDirRefs(home: string, p: PlatformPath, globalStorage: string, install: string, diagnostics: Diagnostic[]): Promise<StoreRef[]> {
  const userDir = p.dirname(globalStorage)
  const workspaces = await scanWorkspaces(p.join(userDir, 'workspaceStorage'), p, diagnostics)
  const db = p.join(globalStorage, 'state.vscdb')
  let g: GlobalIndex | undefined
  if (databaseThere(db, diagnostics)) {
    try {
      g = scanGlobal(db, diagnostics)
    } catch (e) {
      diagnostics.push({ severity: 'error', path: db, message: `cannot read the Cursor global database: ${(e as Error).message}`, agent: 'cursor' })
    }
  }
  const refs = g ? [...composerRefs(home, g, workspaces, install, diagnostics), ...globalPaneRefs(home, g, install)] : []
  return [...refs, ...legacyRefs(home, g, workspaces, install)]
}

/**
 * List Cursor IDE sessions under `layout`. Never throws: an unreadable folder or database is a
 * diagnostic and the other stores load. A session id found twice (two installs, global and
 * workspace copies) is listed once, first found wins.
 */
export async function discoverCursor(layout: HomeLayout, _ctx: ReadContext): Promise<DiscoverResult> {
  const diagnostics: Diagnostic[] = []
  const p = pathApiFor(layout.home)
  const seen = new Set<string>()
  const refs: StoreRef[] = []
  for (const g of layout.globalStorage.filter((x) => x.editor === 'Cursor')) {
    try {
      for (const r of await userDirRefs(layout.home, p, g.dir, g.kind, diagnostics)) {
        if (seen.has(r.sessionId)) continue
        seen.add(r.sessionId)
        refs.push(r)
      }
    } catch (e) {
      diagnostics.push({ severity: 'error', path: g.dir, message: `cannot read Cursor data: ${(e as Error).message}`, agent: 'cursor' })
    }
  }
  return { refs, diagnostics }
}
