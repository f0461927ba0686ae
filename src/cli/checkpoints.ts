/**
 * CLI commands for checkpoints (the API methods of `src/main/checkpoints/`):
 *
 *   sepia checkpoints <session-id> [--agent ID] [--repo DIR] [--home DIR] [--json]
 *   sepia restore <session-id> <checkpoint> [--to DIR] [--repo DIR] [--dry-run] [--files a,b] [--home DIR] [--json]
 *   sepia undo-restore <restore-id> [--json]
 *   sepia restores [--json]
 *
 * `<checkpoint>` is a checkpoint id, a unique prefix of its ref (4+ characters), or its number in
 * the `sepia checkpoints` list. Folders named with `--to` / `--repo` count as chosen by the user.
 * Resolves exit codes: 0 ok, 1 failure (thrown SepiaError, reported by the caller), 2 bad usage.
 */
import { resolve } from 'node:path'
import { SepiaError } from '../shared/api'
import type { CheckpointInfo, CheckpointList, RestorePreview } from '../shared/checkpoints'
import type { AgentId } from '../shared/ir'
import type { SepiaService } from '../main/api'
import { localMinute, localZoneName, sessionNotFound } from './terminal'
import { plural } from '../shared/plural'
import { matchSession } from './pick'

/** Options the checkpoint commands read from the parsed command line. */
export interface CheckpointCliOptions {
  json?: boolean
  agent?: string
  to?: string
  repo?: string
  dryRun?: boolean
  files?: string
  /** The `--home` arguments as passed (repeated in hints such as "Run sepia list --home DIR"). */
  homes?: string[]
}

type Out = NodeJS.WritableStream

const MARK = { added: 'A', modified: 'M', deleted: 'D', unchanged: '=' } as const

async function findSession(api: SepiaService, id: string, agent?: string, homes?: readonly string[]): Promise<{ agent: AgentId; id: string }> {
  const lib = await api.getLibrary()
  const s = matchSession(lib.sessions, id, agent)
  if (!s) throw sessionNotFound(id, lib.homes, homes)
  return { agent: s.agent, id: s.id }
}

function location(api: SepiaService, o: CheckpointCliOptions): { targetDir?: string; repoDir?: string; grant?: string } {
  const loc: { targetDir?: string; repoDir?: string; grant?: string } = {}
  if (o.to) api.paths.allow((loc.targetDir = resolve(o.to)), 'picked')
  if (o.repo) api.paths.allow((loc.repoDir = resolve(o.repo)), 'picked')
  return loc
}

/** The checkpoint a user typed: id, unique ref prefix, or list number. */
export function pickCheckpoint(list: readonly CheckpointInfo[], typed: string): CheckpointInfo {
  const exact = list.find((c) => c.id === typed)
  if (exact) return exact
  if (/^#?\d{1,4}$/.test(typed)) {
    const n = Number(typed.replace('#', ''))
    if (n >= 1 && n <= list.length) return list[n - 1]!
  }
  const prefix = typed.length >= 4 ? list.filter((c) => c.ref.startsWith(typed) || c.id.startsWith(typed)) : []
  if (prefix.length === 1) return prefix[0]!
  if (prefix.length > 1) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${typed}" matches ${prefix.length} checkpoints; give more of it or its number.` })
  throw new SepiaError({ code: 'CHECKPOINT_NOT_FOUND', message: `No checkpoint "${typed}"; its id, the start of its ref, or its number from "sepia checkpoints" will do.` })
}

const when = localMinute

function formatList(session: string, l: CheckpointList): string {
  const lines = [`${session}: ${plural(l.checkpoints.length, 'checkpoint')}`]
  if (l.projectDir) lines.push(`Project: ${l.projectDir}${l.projectExists ? '' : ' (not on this computer)'}`)
  lines.push(l.defaultTarget ? `Restores go into: ${l.defaultTarget}` : `Restores need --to DIR: ${l.targetNote ?? ''}`)
  if (l.store) lines.push(`Read from: ${l.store}`)
  if (l.checkpoints.length > 0) lines.push(`Times in ${localZoneName()}.`)
  l.checkpoints.forEach((c, i) => {
    const files = c.fileCount === undefined ? '  ? files' : plural(String(c.fileCount).padStart(3), 'file', 'files').padEnd(9)
    lines.push(`${String(i + 1).padStart(3)}  ${c.ref.slice(0, 12).padEnd(12)}  ${c.kind.padEnd(12)}  ${when(c.createdAt)}  ${files}  ${c.label}`)
    if (c.problem) lines.push(`       ${c.problem}`)
  })
  return lines.join('\n') + '\n'
}

function formatPreview(p: RestorePreview): string {
  const lines = [`Checkpoint ${p.checkpoint.label} → ${p.targetDir}`]
  for (const f of p.files) lines.push(`${MARK[f.status]} ${f.path}${f.binary ? ' (binary)' : ''}${f.diffNote ? ` (${f.diffNote})` : ''}`)
  for (const r of p.refused) lines.push(`! ${r.path}: ${r.reason}`)
  lines.push(`${p.counts.added} added, ${p.counts.modified} modified, ${p.counts.deleted} deleted, ${p.counts.unchanged} unchanged, ${p.refused.length} refused`)
  for (const f of p.files) if (f.diff) lines.push('', f.diff.trimEnd())
  return lines.join('\n') + '\n'
}

/** `sepia checkpoints <session-id>`. */
export async function runCheckpoints(api: SepiaService, args: string[], o: CheckpointCliOptions, out: Out, err: Out): Promise<number> {
  if (!args[0]) {
    err.write('sepia: sepia checkpoints needs a session id.\n')
    return 2
  }
  const s = await findSession(api, args[0], o.agent, o.homes)
  const list = await api.listCheckpoints(s.agent, s.id, location(api, o))
  out.write(o.json ? JSON.stringify({ agent: s.agent, sessionId: s.id, ...list }, null, 2) + '\n' : formatList(`${s.agent} ${s.id}`, list))
  return 0
}

/** `sepia restore <session-id> <checkpoint>`. */
export async function runRestore(api: SepiaService, args: string[], o: CheckpointCliOptions, out: Out, err: Out): Promise<number> {
  if (!args[0] || !args[1]) {
    err.write('sepia: sepia restore needs a session id and a checkpoint (see "sepia checkpoints <session-id>").\n')
    return 2
  }
  const s = await findSession(api, args[0], o.agent, o.homes)
  const loc = location(api, o)
  const list = await api.listCheckpoints(s.agent, s.id, loc)
  const cp = pickCheckpoint(list.checkpoints, args[1])
  if (o.dryRun) {
    const p = await api.previewRestore(s.agent, s.id, cp.id, loc)
    out.write(o.json ? JSON.stringify(p, null, 2) + '\n' : formatPreview(p))
    return 0
  }
  const files = o.files ? o.files.split(',').map((f) => f.trim()).filter(Boolean) : undefined
  // Typing `sepia restore` without --to is the user's explicit choice of the recorded project
  // folder: the CLI grants that one restore (the app asks with "Allow once"; issue 16).
  if (!loc.targetDir && list.defaultTarget) loc.grant = (await api.approveFolder(list.defaultTarget, 'restore')).token
  const r = await api.restoreCheckpoint(s.agent, s.id, cp.id, { ...loc, ...(files ? { files } : {}) })
  if (o.json) out.write(JSON.stringify(r, null, 2) + '\n')
  else if (!r.restoreId) out.write(`Nothing to restore: the files in ${r.targetDir} are already as at checkpoint ${cp.label}.\n`)
  else {
    out.write(`Restored ${plural(r.written.length, 'file')} in ${r.targetDir} to checkpoint ${cp.label}:\n`)
    for (const p of r.written) out.write(`  ${p}\n`)
    out.write(`Copies of the files as they were: ${r.backupDir}\nUndo with: sepia undo-restore ${r.restoreId}\n`)
  }
  for (const x of r.refused) err.write(`not restored: ${x.path}: ${x.reason}\n`)
  return 0
}

/** `sepia undo-restore <restore-id>`. */
export async function runUndoRestore(api: SepiaService, args: string[], o: CheckpointCliOptions, out: Out, err: Out): Promise<number> {
  if (!args[0]) {
    err.write('sepia undo-restore needs a restore id (printed by "sepia restore").\n')
    return 2
  }
  const u = await api.undoRestore(args[0])
  if (o.json) out.write(JSON.stringify(u, null, 2) + '\n')
  else {
    out.write(`Put back ${plural(u.restored.length, 'file')}.\n`)
    for (const p of u.restored) out.write(`  ${p}\n`)
  }
  for (const x of u.skipped) err.write(`left as it is: ${x.path}: ${x.reason}\n`)
  return 0
}

/** `sepia restores`: the restores recorded in the app's data folder. */
export async function runRestores(api: SepiaService, o: CheckpointCliOptions, out: Out): Promise<number> {
  const list = await api.listRestores()
  if (o.json) out.write(JSON.stringify(list, null, 2) + '\n')
  else if (list.length === 0) out.write('No restores yet.\n')
  else for (const r of list) out.write(`${r.restoreId}  ${r.state.padEnd(11)}  ${plural(String(r.fileCount).padStart(3), 'file').padEnd(9)}  ${r.agent} ${r.sessionId}  → ${r.targetDir}\n`)
  return 0
}

/** The checkpoint commands, dispatched from `src/cli/index.ts` (one `case` there). */
export const CHECKPOINT_COMMANDS = ['checkpoints', 'restore', 'undo-restore', 'restores'] as const

/** Run one of {@link CHECKPOINT_COMMANDS}. */
export async function runCheckpointCommand(command: string, api: SepiaService, args: string[], o: CheckpointCliOptions, out: Out, err: Out): Promise<number> {
  switch (command) {
    case 'checkpoints':
      return runCheckpoints(api, args, o, out, err)
    case 'restore':
      return runRestore(api, args, o, out, err)
    case 'undo-restore':
      return runUndoRestore(api, args, o, out, err)
    default:
      return runRestores(api, o, out)
  }
}

/** Usage lines for `src/cli/index.ts`. */
export const CHECKPOINT_USAGE = `  sepia checkpoints <session-id> [--agent ID] [--repo DIR] [--home DIR] [--json]
                                                list a session's checkpoints
  sepia restore <session-id> <checkpoint> [--to DIR] [--repo DIR] [--dry-run] [--files a,b] [--home DIR] [--json]
                                                restore files to a checkpoint (backed up first)
  sepia undo-restore <restore-id> [--json]      put back the files a restore changed
  sepia restores [--json]                       list the restores made
`
