/**
 * System rows of Cline's standing state (seed 000 "Permission rows", "Sync, relay and origin rows",
 * "Bad-line rows"). None of these files is a transcript; each row is stamped with the file's
 * modification time unless the record has its own time.
 *
 * - Permission settings, one row `permission setting: <key>=<value> (from <file>, file mtime)`
 *   per standing entry, no session or project: `globalState.json` autoApprovalSettings (enabled,
 *   maxRequests, actions.*), mode, yoloModeToggled; `settings/global-settings.json` toolAutoApprove,
 *   planActMode, yoloMode, disabledTools (one row per tool), tools.<name>.*; every
 *   `cline_mcp_settings.json` mcpServers.<server>.autoApprove (one row per tool) and .disabled
 *   (never its headers or env).
 * - Cline Cloud: per `cloudSessionStatuses` entry of globalState.json, at its observedAt, the pair
 *   `session origin: remote cline-cloud session <id> status <status> (from …, observedAt)` and
 *   `session synced: cline-cloud holds session <id>, no local transcript (from …, observedAt)`;
 *   per record of `cloud-pending-starts/*.json` the same pair at the file's mtime, the origin row
 *   reading `sandbox start pending account=<account> endpoint=<endpoint>`; `cloudTaskTarget` gives
 *   `cloud task target: target=<t> repository_id=<id> branch=<b> (from …, file mtime)`.
 * - Enterprise upload queue `<GS>/saoudrizwan.claude-dev/cache/sync-queue.json`: one row per item
 *   at its timestamp, session = taskId, project from that root's taskHistory.json:
 *   `session synced: enterprise prompt upload synced key <key> retries <n> (from …, item timestamp)`,
 *   or without the `session synced: ` prefix for a pending or failed item. Never `data` or
 *   `lastError`.
 * - A settings file or globalState.json that is not a JSON object, a pending-start file that is not
 *   a JSON array, a queue that is not `{items: {…}}`: one `parser:` row naming it.
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentId } from '../../../../shared/ir'
import type { TimelineRow } from '../../../../shared/timeline'
import { isRecord } from '../../../util/json'
import { num, str } from '../common'
import { homeLabel, makeRow, orDash, storageLabel, valueText } from './rows'
import { readRegularFile } from '../../../util/regular-file'

/** Where the state files are for one home. */
export interface StatePaths {
  home: string
  /** `<clineDataDir>`. */
  dataDir: string
  /** Every `<globalStorage>/saoudrizwan.claude-dev` folder of the home. */
  extensionRoots: { root: string; extensionId: string }[]
}

type Json = { value?: unknown; mtimeMs: number; error?: string }

async function readJson(path: string): Promise<Json | undefined> {
  let text: string
  let mtimeMs: number
  try {
    ;[text, mtimeMs] = await Promise.all([readRegularFile(path), stat(path).then((s) => Math.floor(s.mtimeMs))])
  } catch {
    return undefined
  }
  try {
    return { value: JSON.parse(text), mtimeMs }
  } catch (err) {
    return { mtimeMs, error: (err as Error).message }
  }
}

/** One standing permission (seed 000 "Permission rows"). */
export interface PermissionEntry {
  /** Dotted key, e.g. `autoApprovalSettings.actions.readFiles`. */
  key: string
  value: unknown
  /** The file it was read from. */
  file: string
  /** The file's mtime, ms since epoch. */
  mtimeMs: number
}

/**
 * The standing permission entries of a home, in file order (globalState.json, global-settings.json,
 * then every cline_mcp_settings.json), and the files that are not JSON objects. Never throws.
 */
export async function readPermissions(paths: StatePaths): Promise<{ entries: PermissionEntry[]; notObjects: string[] }> {
  const entries: PermissionEntry[] = []
  const notObjects: string[] = []
  const { dataDir } = paths
  const add = (file: string, mtimeMs: number, key: string, value: unknown) => entries.push({ key, value, file, mtimeMs })

  const gsFile = join(dataDir, 'globalState.json')
  const gs = await readJson(gsFile)
  if (gs && !isRecord(gs.value)) notObjects.push(gsFile)
  else if (gs && isRecord(gs.value)) {
    const g = gs.value
    const auto = isRecord(g.autoApprovalSettings) ? g.autoApprovalSettings : undefined
    if (auto) {
      for (const k of ['enabled', 'maxRequests'] as const) if (auto[k] !== undefined) add(gsFile, gs.mtimeMs, `autoApprovalSettings.${k}`, auto[k])
      if (isRecord(auto.actions)) for (const [k, v] of Object.entries(auto.actions)) add(gsFile, gs.mtimeMs, `autoApprovalSettings.actions.${k}`, v)
    }
    for (const k of ['mode', 'yoloModeToggled'] as const) if (g[k] !== undefined) add(gsFile, gs.mtimeMs, k, g[k])
  }

  const settingsFile = join(dataDir, 'settings', 'global-settings.json')
  const st = await readJson(settingsFile)
  if (st && !isRecord(st.value)) notObjects.push(settingsFile)
  else if (st && isRecord(st.value)) {
    const s = st.value
    for (const k of ['toolAutoApprove', 'planActMode', 'yoloMode'] as const) if (s[k] !== undefined) add(settingsFile, st.mtimeMs, k, s[k])
    if (Array.isArray(s.disabledTools)) for (const t of s.disabledTools) add(settingsFile, st.mtimeMs, 'disabledTools', t)
    if (isRecord(s.tools)) {
      for (const [name, cfg] of Object.entries(s.tools)) {
        if (isRecord(cfg)) for (const [k, v] of Object.entries(cfg)) add(settingsFile, st.mtimeMs, `tools.${name}.${k}`, v)
      }
    }
  }

  for (const file of mcpSettingsFiles(paths)) {
    const j = await readJson(file)
    if (!j) continue
    if (!isRecord(j.value)) {
      notObjects.push(file)
      continue
    }
    const servers = isRecord(j.value.mcpServers) ? j.value.mcpServers : {}
    for (const [name, cfg] of Object.entries(servers)) {
      if (!isRecord(cfg)) continue
      for (const key of ['autoApprove', 'alwaysAllow'] as const) {
        if (Array.isArray(cfg[key])) for (const t of cfg[key]) add(file, j.mtimeMs, `mcpServers.${name}.${key}`, t)
      }
      if (cfg.disabled !== undefined) add(file, j.mtimeMs, `mcpServers.${name}.disabled`, cfg.disabled)
    }
  }
  return { entries, notObjects }
}

/** The MCP settings files of a home: `<clineDataDir>/settings/` and every extension folder's `settings/`. */
export function mcpSettingsFiles(paths: StatePaths): string[] {
  return [join(paths.dataDir, 'settings', 'cline_mcp_settings.json'), ...paths.extensionRoots.map((r) => join(r.root, 'settings', 'cline_mcp_settings.json'))]
}

/** Every state row of one home (see the module comment). Never throws. */
export async function stateRows(agent: AgentId, paths: StatePaths, taskProjects: Map<string, string>): Promise<TimelineRow[]> {
  const rows: TimelineRow[] = []
  const { home, dataDir } = paths
  const permissions = await readPermissions(paths)
  for (const e of permissions.entries) {
    const text = `permission setting: ${e.key}=${valueText(e.value)} (from ${homeLabel(e.file, home)}, file mtime)`
    rows.push(makeRow({ agent, turnType: 'system', timestampUtc: e.mtimeMs, text, sourceFile: e.file }))
  }
  for (const file of permissions.notObjects) {
    rows.push(makeRow({ agent, turnType: 'system', text: `parser: ${homeLabel(file, home)} is not a JSON object`, sourceFile: file }))
  }

  // globalState.json: Cline Cloud state.
  const gsFile = join(dataDir, 'globalState.json')
  const gs = await readJson(gsFile)
  if (gs && isRecord(gs.value)) {
    const g = gs.value
    const label = homeLabel(gsFile, home)
    const target = isRecord(g.cloudTaskTarget) ? g.cloudTaskTarget : undefined
    if (target) {
      const text = `cloud task target: target=${orDash(target.target)} repository_id=${orDash(target.repositoryId)} branch=${orDash(target.branch)} (from ${label}, file mtime)`
      rows.push(makeRow({ agent, turnType: 'system', timestampUtc: gs.mtimeMs, text, sourceFile: gsFile }))
    }
    const statuses = isRecord(g.cloudSessionStatuses) ? g.cloudSessionStatuses : {}
    for (const [id, st] of Object.entries(statuses)) {
      const s = isRecord(st) ? st : {}
      const at = { agent, sessionId: id, turnType: 'system' as const, timestampUtc: num(s.observedAt), sourceFile: gsFile }
      const from = `(from ${label} cloudSessionStatuses, observedAt)`
      rows.push(makeRow({ ...at, text: `session origin: remote cline-cloud session ${id} status ${orDash(s.status)} ${from}` }))
      rows.push(makeRow({ ...at, text: `session synced: cline-cloud holds session ${id}, no local transcript ${from}` }))
    }
  }

  rows.push(...(await pendingStartRows(agent, home, join(dataDir, 'cloud-pending-starts'))))
  for (const r of paths.extensionRoots) rows.push(...(await syncQueueRows(agent, r.root, r.extensionId, taskProjects)))
  return rows
}

async function pendingStartRows(agent: AgentId, home: string, dir: string): Promise<TimelineRow[]> {
  let names: string[]
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()
  } catch {
    return []
  }
  const rows: TimelineRow[] = []
  for (const n of names) {
    const file = join(dir, n)
    const j = await readJson(file)
    if (!j) continue
    const label = homeLabel(file, home)
    if (!Array.isArray(j.value)) {
      rows.push(makeRow({ agent, turnType: 'system', text: `parser: ${label} is not a JSON array`, sourceFile: file }))
      continue
    }
    j.value.forEach((rec, i) => {
      const id = isRecord(rec) ? str(rec.sessionId) : undefined
      const at = { agent, turnType: 'system' as const, timestampUtc: j.mtimeMs, sourceFile: file, sourceLine: i + 1 }
      if (!id || !isRecord(rec)) {
        rows.push(makeRow({ ...at, text: `parser: record ${i + 1} of ${label} has no sessionId` }))
        return
      }
      const from = `(from ${label}, file mtime)`
      rows.push(makeRow({ ...at, sessionId: id, text: `session origin: remote cline-cloud session ${id} sandbox start pending account=${orDash(rec.account)} endpoint=${orDash(rec.endpoint)} ${from}` }))
      rows.push(makeRow({ ...at, sessionId: id, text: `session synced: cline-cloud holds session ${id}, no local transcript ${from}` }))
    })
  }
  return rows
}

async function syncQueueRows(agent: AgentId, root: string, extensionId: string, taskProjects: Map<string, string>): Promise<TimelineRow[]> {
  const file = join(root, 'cache', 'sync-queue.json')
  const j = await readJson(file)
  if (!j) return []
  const label = storageLabel(file, root, extensionId)
  if (!isRecord(j.value) || !isRecord(j.value.items)) {
    return [makeRow({ agent, turnType: 'system', text: `parser: ${label} is not a JSON object with an items object`, sourceFile: file })]
  }
  const rows: TimelineRow[] = []
  for (const item of Object.values(j.value.items)) {
    if (!isRecord(item)) continue
    const taskId = str(item.taskId) ?? ''
    const status = str(item.status) ?? ''
    const tail = `key ${orDash(item.key)} retries ${orDash(item.retryCount)} (from ${label}, item timestamp)`
    const text = status === 'synced' ? `session synced: enterprise prompt upload synced ${tail}` : `enterprise prompt upload ${orDash(status)} ${tail}`
    rows.push(makeRow({ agent, sessionId: taskId, projectPath: taskProjects.get(taskId) ?? '', turnType: 'system', timestampUtc: num(item.timestamp), text, sourceFile: file }))
  }
  return rows
}
