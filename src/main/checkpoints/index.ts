/**
 * Restore a project's files to a checkpoint: the service behind the API methods
 * `listCheckpoints`, `previewRestore`, `restoreCheckpoint`, `undoRestore`, `listRestores`
 * (`src/main/api.ts` delegates here) and the CLI commands `checkpoints`, `restore`,
 * `undo-restore`. Arguments arriving from the renderer are validated here (types, absolute
 * paths); errors are {@link SepiaError}s in plain words.
 */
import { stat } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { SepiaError } from '../../shared/api'
import type { CheckpointInfo, CheckpointList, CheckpointLocation, RestoreOptions, RestorePreview, RestoreRecord, RestoreResult, UndoResult } from '../../shared/checkpoints'
import { isAgentId, type AgentId } from '../../shared/ir'
import type { LibraryService } from '../library'
import type { RestoreIo } from './atomic'
import { openSessionCheckpoints, type OpenedCheckpoint, type OpenedSession } from './list'
import { compareAll } from './preview'
import { listRestores, performRestore, undoRestore } from './restore'
import type { Progress } from './types'

export type { RestoreIo } from './atomic'

/** What the service needs. */
export interface CheckpointDeps {
  library: LibraryService
  /** The app's data folder; restores go to `<appDataDir>/restores/`. */
  appDataDir: string
  now: () => number
  /** File-system calls for writes in the target (tests inject faults). */
  io?: RestoreIo
}

/** The checkpoint operations (see the module comment). */
export interface CheckpointService {
  list(agent: AgentId, sessionId: string, options?: CheckpointLocation): Promise<CheckpointList>
  preview(agent: AgentId, sessionId: string, checkpointId: string, options?: CheckpointLocation, onProgress?: Progress): Promise<RestorePreview>
  restore(agent: AgentId, sessionId: string, checkpointId: string, options?: RestoreOptions, onProgress?: Progress): Promise<RestoreResult>
  undo(restoreId: string): Promise<UndoResult>
  restores(): Promise<RestoreRecord[]>
}

function optionalPath(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value !== 'string' || value.includes('\0')) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `${name} must be a folder path.` })
  if (!isAbsolute(value)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `${name} must be an absolute folder path (got "${value}").` })
  return resolve(value)
}

function location(options: unknown): CheckpointLocation {
  if (options === undefined || options === null) return {}
  if (typeof options !== 'object') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Options must be an object.' })
  const o = options as Record<string, unknown>
  const out: CheckpointLocation = {}
  const target = optionalPath(o.targetDir, 'targetDir')
  const repo = optionalPath(o.repoDir, 'repoDir')
  if (target) out.targetDir = target
  if (repo) out.repoDir = repo
  return out
}

function info(c: OpenedCheckpoint): CheckpointInfo {
  const out: CheckpointInfo = { id: c.id, ref: c.ref, kind: c.kind, label: c.label }
  if (c.createdAt !== undefined) out.createdAt = c.createdAt
  if (c.runCount !== undefined) out.runCount = c.runCount
  if (c.nodeId !== undefined) out.nodeId = c.nodeId
  if (c.files) out.fileCount = c.files.files.length + c.files.refused.length
  if (c.problem) out.problem = c.problem
  return out
}

/** Build the service. */
export function createCheckpointService(deps: CheckpointDeps): CheckpointService {
  const { library } = deps

  async function open(agent: unknown, sessionId: unknown, loc: CheckpointLocation): Promise<OpenedSession> {
    if (!isAgentId(agent)) throw new SepiaError({ code: 'UNKNOWN_AGENT', message: `"${String(agent)}" is not an agent Sepia knows.` })
    if (typeof sessionId !== 'string' || sessionId === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A session id is required.' })
    // Unmasked: refs and paths must be exact (results leaving main are masked by the API wrapper).
    const session = await library.getSession(agent, sessionId, { reveal: true })
    const home = library.openHomes.find((h) => h.layout.home === session.source.home)
    return openSessionCheckpoints(session, home?.layout.isOwnHome === true && !home.isDemo, loc)
  }

  async function pick(agent: unknown, sessionId: unknown, checkpointId: unknown, options: unknown) {
    const loc = location(options)
    const opened = await open(agent, sessionId, loc)
    if (typeof checkpointId !== 'string' || checkpointId === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A checkpoint id is required.' })
    const cp = opened.checkpoints.find((c) => c.id === checkpointId)
    if (!cp) throw new SepiaError({ code: 'CHECKPOINT_NOT_FOUND', message: `Session ${String(sessionId)} has no checkpoint "${checkpointId}". List them with "sepia checkpoints ${String(sessionId)}".` })
    if (!cp.files) throw new SepiaError({ code: 'NOT_FOUND', message: cp.problem ?? 'The contents of this checkpoint are not on this computer.' })
    const targetDir = loc.targetDir ?? opened.defaultTarget
    if (!targetDir) throw new SepiaError({ code: 'TARGET_REQUIRED', message: opened.targetNote ?? 'Choose a folder to restore the files into.' })
    try {
      if (!(await stat(targetDir)).isDirectory()) throw new SepiaError({ code: 'NOT_A_DIRECTORY', message: `${targetDir} is a file, not a folder. Choose a folder to restore into.`, path: targetDir })
    } catch (e) {
      if (e instanceof SepiaError) throw e
      // a folder that does not exist yet: an export creates it
    }
    return { opened, cp: cp as OpenedCheckpoint & { files: NonNullable<OpenedCheckpoint['files']> }, targetDir }
  }

  return {
    async list(agent, sessionId, options) {
      const o = await open(agent, sessionId, location(options))
      const out: CheckpointList = { projectExists: o.projectExists, checkpoints: o.checkpoints.map(info) }
      if (o.projectDir) out.projectDir = o.projectDir
      if (o.defaultTarget) out.defaultTarget = o.defaultTarget
      if (o.targetNote) out.targetNote = o.targetNote
      if (o.store) out.store = o.store
      return out
    },
    async preview(agent, sessionId, checkpointId, options, onProgress) {
      const { cp, targetDir } = await pick(agent, sessionId, checkpointId, options)
      const { compared, refused } = await compareAll(targetDir, cp.files, true, onProgress)
      const counts = { added: 0, modified: 0, deleted: 0, unchanged: 0 }
      for (const c of compared) counts[c.preview.status]++
      return { targetDir, checkpoint: info(cp), files: compared.map((c) => c.preview), refused, counts }
    },
    async restore(agent, sessionId, checkpointId, options, onProgress) {
      const { cp, targetDir } = await pick(agent, sessionId, checkpointId, options)
      const wanted = selection(options)
      if (wanted) {
        const known = new Set([...cp.files.files.map((f) => f.path), ...cp.files.refused.map((f) => f.path)])
        const unknown = [...wanted].filter((p) => !known.has(p))
        if (unknown.length) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `Not in this checkpoint: ${unknown.join(', ')}. Preview the restore to see its files.` })
      }
      const files = wanted ? { files: cp.files.files.filter((f) => wanted.has(f.path)), refused: cp.files.refused.filter((f) => wanted.has(f.path)) } : cp.files
      const { compared, refused } = await compareAll(targetDir, files, false, onProgress)
      const job = {
        appDataDir: deps.appDataDir, now: deps.now, agent: agent as AgentId, sessionId: sessionId as string,
        checkpoint: { id: cp.id, ref: cp.ref, kind: cp.kind, label: cp.label }, targetDir, files: compared, refused,
        ...(deps.io ? { io: deps.io } : {}), ...(onProgress ? { onProgress } : {}),
      }
      return performRestore(job)
    },
    undo: (restoreId) => undoRestore(deps.appDataDir, restoreId, deps.now, deps.io),
    restores: () => listRestores(deps.appDataDir),
  }
}

function selection(options: unknown): Set<string> | undefined {
  const files = options && typeof options === 'object' ? (options as RestoreOptions).files : undefined
  if (files === undefined || files === null) return undefined
  if (!Array.isArray(files) || files.some((f) => typeof f !== 'string')) throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'files must be a list of paths.' })
  return new Set(files.map((f) => f.replace(/\\/g, '/').replace(/^\.\//, '')))
}
