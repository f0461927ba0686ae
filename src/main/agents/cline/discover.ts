/**
 * Discovery for Cline and its forks: SDK sessions (Cline only, {@link discoverSdk}) and legacy
 * task folders under every root of the family member.
 *
 * Legacy roots (seed 000 "Transcript stores", "VS Code extension"; disk.ts:190-194,
 * legacy-state-reader.ts:24-29): `<clineDataDir>` for the Cline CLI and JetBrains, and
 * `<globalStorage>/<extensionId>/` for the VS Code extension and each fork (Roo Code
 * `rooveterinaryinc.roo-cline`, Kilo Code `kilocode.kilo-code`, PearAI `pearai.pearai-roo-cline`).
 * Each root holds `tasks/<taskId>/{ui_messages,api_conversation_history,task_metadata}.json` and
 * the index `state/taskHistory.json` (HistoryItem[]). Roo Code keeps its index in the editor's
 * `state.vscdb` instead, and newer Roo versions write `tasks/<id>/history_item.json`
 * (`fixtures/public/roo-code/vshulcz__deja-vu__history_item.json`), read when present.
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentId, Diagnostic } from '../../../shared/ir'
import type { HomeLayout } from '../../platform'
import type { DiscoverResult, StoreRef } from '../types'
import { isRecord, lineAt, salvageJsonArray } from '../../util/json'
import { discoverSdk, sizeAndTime } from './discover-sdk'
import { discoverSecondary, secondaryPaths } from './secondary/discover'
import { readdirSync } from 'node:fs'
import type { FreshnessDeps } from '../../catalog/freshness'
import { readRegularFile } from '../../util/regular-file'
import { mapInOrder } from '../../util/in-order'
import { folderNamedLikeFileMessage, storeEntries } from '../link-loop'

/** Store generation name of a legacy task folder (Session.source.format). */
export const LEGACY_FORMAT = 'cline-legacy-task'

/** What distinguishes one member of the Cline family (see `makeClineFamilyAgent` in index.ts). */
export interface ClineFamilyConfig {
  id: AgentId
  displayName: string
  /** VS Code extension ids whose `globalStorage/<id>/` is a legacy task root (matched case-insensitively). */
  extensionIds: string[]
  /** True for Cline itself: also read `<clineDataDir>` (SDK sessions and CLI legacy tasks). */
  readsSdkStore: boolean
}

/** Hints discovery leaves on a legacy {@link StoreRef}. */
export interface LegacyHints {
  kind: 'legacy'
  /** The root holding `tasks/` and `state/`. */
  root: string
  taskDir: string
  ui?: string
  api?: string
  taskMetadata?: string
  /** Roo Code's per-task `history_item.json`. */
  historyItemFile?: string
  /** The task's `state/taskHistory.json` entry, when the index has one. */
  historyItem?: Record<string, unknown>
  /** Path of the root's `state/taskHistory.json`, when it exists. */
  taskHistory?: string
}

/** One legacy root of a family member. */
export interface LegacyRoot {
  root: string
  /** The extension id folder, absent for `<clineDataDir>`. */
  extensionId?: string
}

/**
 * Find every session of one family member under one home: the primary stores
 * ({@link discoverPrimary}), then, for Cline, the secondary sources (search index, hook audit log:
 * recovered turns and sessions, `secondary/discover.ts`). Never throws.
 */
export async function discoverClineFamily(layout: HomeLayout, config: ClineFamilyConfig): Promise<DiscoverResult> {
  const found = await discoverPrimary(layout, config)
  if (config.readsSdkStore) await discoverSecondary(config.id, layout, found.refs, found.diagnostics)
  return found
}

/**
 * What {@link discoverClineFamily} depends on besides the sessions' files (`catalog/freshness.ts`),
 * from this file, `discover-sdk.ts` and `secondary/discover.ts`: for Cline the folder trees
 * `sessions/` and `tasks/` of the data dir, its `db/sessions.db`, the secondary sources
 * ({@link secondaryPaths}) and `state/taskHistory.json`; for every family member the listing of
 * each editor's global storage folder and, in each extension folder found there, the `tasks/`
 * tree and `state/taskHistory.json`. SQLite files come with their `-wal`.
 */
export function freshnessDeps(layout: HomeLayout, config: ClineFamilyConfig): FreshnessDeps {
  const trees: string[] = []
  const dirs: string[] = []
  const files: string[] = []
  const db = (f: string) => files.push(f, `${f}-wal`)
  const legacy = (root: string) => {
    trees.push(join(root, 'tasks'))
    dirs.push(root, join(root, 'state'))
    files.push(join(root, 'state', 'taskHistory.json'))
  }
  if (config.readsSdkStore) {
    const d = layout.clineDataDir
    trees.push(join(d, 'sessions'))
    dirs.push(join(d, 'db'), join(d, 'logs'), join(d, 'cache'), join(d, 'teams'))
    db(join(d, 'db', 'sessions.db'))
    const sec = secondaryPaths(d)
    db(sec.search)
    files.push(sec.hooks, sec.inputHistory)
    for (const t of sec.teams) db(t)
    legacy(d)
  }
  const wanted = new Set(config.extensionIds.map((e) => e.toLowerCase()))
  for (const gs of new Set(layout.globalStorageDirs)) {
    dirs.push(gs)
    let names: string[] = []
    try {
      names = readdirSync(gs)
    } catch {
      continue // absent: its nearest existing parent is recorded
    }
    for (const n of names) if (wanted.has(n.toLowerCase())) legacy(join(gs, n))
  }
  return { trees, dirs, files }
}

/** The sessions of the primary stores only: SDK sessions (Cline) and legacy task folders. */
export async function discoverPrimary(layout: HomeLayout, config: ClineFamilyConfig): Promise<DiscoverResult> {
  const refs: StoreRef[] = []
  const diagnostics: Diagnostic[] = []
  if (config.readsSdkStore) await discoverSdk(config.id, layout.clineDataDir, layout.home, refs, diagnostics)
  const seen = new Set(refs.map((r) => r.sessionId))
  for (const root of await legacyRoots(layout, config)) {
    await discoverLegacyRoot(config.id, root.root, layout.home, refs, diagnostics, seen)
  }
  return { refs, diagnostics }
}

/** The legacy task roots of a family member that exist under a home, in a stable order. */
export async function legacyRoots(layout: HomeLayout, config: ClineFamilyConfig): Promise<LegacyRoot[]> {
  const roots: LegacyRoot[] = []
  if (config.readsSdkStore && (await isDir(join(layout.clineDataDir, 'tasks')))) roots.push({ root: layout.clineDataDir })
  // The platform layout lists every VS Code-family editor (Code, Cursor, PearAI...): one table.
  const storageDirs = [...new Set(layout.globalStorageDirs)]
  const wanted = new Set(config.extensionIds.map((e) => e.toLowerCase()))
  for (const gs of storageDirs) {
    let names: string[] = []
    try {
      names = (await readdir(gs)).sort()
    } catch {
      continue
    }
    for (const n of names) {
      if (wanted.has(n.toLowerCase()) && (await isDir(join(gs, n)))) roots.push({ root: join(gs, n), extensionId: n })
    }
  }
  return roots
}

async function discoverLegacyRoot(
  agent: AgentId,
  root: string,
  home: string,
  refs: StoreRef[],
  diagnostics: Diagnostic[],
  seen: Set<string>,
): Promise<void> {
  const tasksDir = join(root, 'tasks')
  let dirs: string[] = []
  try {
    // Task folders, links to folders followed; a link that loops or leads above is named, not followed (agents/link-loop.ts).
    dirs = (await storeEntries(tasksDir, await readdir(tasksDir, { withFileTypes: true }), agent, diagnostics)).folders
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      diagnostics.push({ severity: 'error', path: tasksDir, message: `Could not list tasks: ${(err as Error).message}`, agent })
    }
    return
  }
  const historyPath = join(root, 'state', 'taskHistory.json')
  const history = await readTaskHistory(agent, historyPath, diagnostics)
  // The task folders are listed and their files statted side by side (`mapInOrder`), then taken
  // in name order as one loop would.
  const looked = await mapInOrder(dirs, async (id) => {
    const taskDir = join(tasksDir, id)
    let names: string[]
    /** A folder named like one of the task's files (`ui_messages.json/`): named, not read. */
    const odd: Diagnostic[] = []
    try {
      const entries = await readdir(taskDir, { withFileTypes: true })
      for (const e of entries) {
        if (e.isDirectory() && TASK_FILES.has(e.name)) odd.push({ severity: 'warning', skipped: 1, path: join(taskDir, e.name), message: folderNamedLikeFileMessage(join(taskDir, e.name)), agent })
      }
      names = entries.filter((e) => !e.isDirectory()).map((e) => e.name)
    } catch {
      return undefined
    }
    const files = legacyFiles(taskDir, names, history?.has(id) === true ? historyPath : undefined)
    return { names, odd, stamp: files ? await sizeAndTime(files) : undefined }
  })
  for (const [k, id] of dirs.entries()) {
    const taskDir = join(tasksDir, id)
    const l = looked[k]
    if (!l) continue
    diagnostics.push(...l.odd)
    const names = l.names
    const at = (n: string) => (names.includes(n) ? join(taskDir, n) : undefined)
    const hints: LegacyHints = { kind: 'legacy', root, taskDir }
    const ui = at('ui_messages.json')
    const api = at('api_conversation_history.json')
    const meta = at('task_metadata.json')
    const hist = at('history_item.json')
    if (ui) hints.ui = ui
    if (api) hints.api = api
    if (meta) hints.taskMetadata = meta
    if (hist) hints.historyItemFile = hist
    if (history) hints.taskHistory = historyPath
    const item = history?.get(id)
    if (item) hints.historyItem = item
    if (!ui && !api) {
      // Only checkpoints or settings left: nothing to show.
      diagnostics.push({ severity: 'info', path: taskDir, message: 'Task folder has no ui_messages.json or api_conversation_history.json; skipped.', agent })
      continue
    }
    if (seen.has(id)) {
      diagnostics.push({ severity: 'warning', path: taskDir, message: `Task ${id} was already found in another folder; this copy is not listed.`, agent })
      continue
    }
    seen.add(id)
    const files = legacyFiles(taskDir, names, item ? historyPath : undefined)!
    refs.push({ agent, sessionId: id, format: LEGACY_FORMAT, files, home, hints: hints as unknown as Record<string, unknown>, ...(l.stamp ?? (await sizeAndTime(files))) })
  }
}

/** The files of a legacy task folder that discovery reads (a folder so named is warned about). */
const TASK_FILES = new Set(['ui_messages.json', 'api_conversation_history.json', 'task_metadata.json', 'history_item.json'])

/**
 * The files of a legacy task folder holding `names`, in stamp order (the transcript first; the
 * root's `taskHistory.json` last when it has an entry for the task), or undefined when the folder
 * has neither `ui_messages.json` nor `api_conversation_history.json`.
 */
function legacyFiles(taskDir: string, names: readonly string[], historyPath: string | undefined): string[] | undefined {
  const at = (n: string) => (names.includes(n) ? join(taskDir, n) : undefined)
  const ui = at('ui_messages.json')
  const api = at('api_conversation_history.json')
  const meta = at('task_metadata.json')
  const hist = at('history_item.json')
  if (!ui && !api) return undefined
  const files = [ui ?? api!, ...(ui && api ? [api] : []), ...(meta ? [meta] : []), ...(hist ? [hist] : [])]
  if (historyPath) files.push(historyPath)
  return files
}

/** `state/taskHistory.json` as id → HistoryItem; undefined when the file is absent. */
export async function readTaskHistory(
  agent: AgentId,
  path: string,
  diagnostics: Diagnostic[],
): Promise<Map<string, Record<string, unknown>> | undefined> {
  let text: string
  try {
    text = await readRegularFile(path)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diagnostics.push({ severity: 'warning', skipped: 1, path, message: `Could not read the task history index: ${(err as Error).message}`, agent })
    return undefined
  }
  const parsed = salvageJsonArray(text)
  if (!parsed.complete) {
    diagnostics.push({
      severity: 'warning',
      path,
      line: lineAt(text, parsed.errorOffset ?? 0),
      message: `Task history index is damaged (${parsed.error}); kept ${parsed.items.length} entries.`,
      agent,
    })
  }
  const map = new Map<string, Record<string, unknown>>()
  for (const item of parsed.items) {
    if (isRecord(item) && (typeof item.id === 'string' || typeof item.id === 'number')) map.set(String(item.id), item)
  }
  return map
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}
