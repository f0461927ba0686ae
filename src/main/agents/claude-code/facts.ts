/**
 * Session-level facts gathered from Claude Code records that are not messages: titles, the last
 * prompt, cost totals, modes, file-history checkpoints, record-type counts, and the common fields
 * every record carries (`cwd`, `gitBranch`, `version`, `timestamp`, `sessionId`).
 *
 * Record types and fields: seed 002 "Claude Code" (summary, file-history-snapshot,
 * queue-operation) and fixtures/real/claude-code/README.md (attachment, api-request*, last-prompt,
 * cost-state, atis-latch, tools-used, mode, permission-mode, file-history-delta, written by
 * Claude Code 2.1.332); `custom-title`/`ai-title`: fixtures/cases/claude-code/02-metadata-lines.
 */
import type { Checkpoint, Usage } from '../../../shared/ir'
import { type Json, isoToMs, obj, str, usageFromCostState } from './content'

/**
 * Record types Claude Code writes that are never messages. Anything else that is not
 * `user`/`assistant`/`system` is an unknown type (kept as a count; shown when it carries text).
 * `progress`, `pr-link`, `tag` and `agent-name` are further metadata types of recent CLIs.
 */
export const METADATA_TYPES: ReadonlySet<string> = new Set([
  'attachment',
  'queue-operation',
  'last-prompt',
  'cost-state',
  'file-history-snapshot',
  'file-history-delta',
  'api-request',
  'api-request-shape',
  'api-request-blob',
  'mode',
  'permission-mode',
  'atis-latch',
  'tools-used',
  'summary',
  'custom-title',
  'ai-title',
  'progress',
  'pr-link',
  'tag',
  'agent-name',
])

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1
}

/**
 * How Claude Code words a failed request in its `<synthetic>` replies and `system` `api_error`
 * records (fixtures/public-real/claude-code: sword-1090-siblings, omp-compact-api-error): "Request timed out (check API_TIMEOUT_MS)", "API Error: 500 …",
 * "Unable to connect to API (ECONNRESET)".
 */
export const API_ERROR_TEXT = /^(Request timed out\b|API Error\b|Unable to connect to API\b)/i

/** Accumulates non-message facts in file order. */
export class SessionFacts {
  /** Count of records per `type` (`(no type)` for records without one). */
  readonly recordTypes: Record<string, number> = {}
  /** Count of `attachment` records per `attachment.type`. */
  readonly attachmentTypes: Record<string, number> = {}
  /** Count of `system` records per `subtype`. */
  readonly systemSubtypes: Record<string, number> = {}
  cwd?: string
  /** The first `sessionId` field seen (a sub-agent's records carry the parent's id). */
  sessionId?: string
  gitBranch?: string
  version?: string
  entrypoint?: string
  /** ms since epoch, over every record's top-level `timestamp`. */
  firstAt?: number
  lastAt?: number
  customTitle?: string
  aiTitle?: string
  summary?: string
  lastPrompt?: string
  mode?: string
  permissionMode?: string
  /** The last `cost-state` record (cumulative), without `type`/`sessionId`. */
  costState?: Json
  usage?: Usage
  /** `sessionId` values that differ from the session's id, with a count. */
  readonly otherSessionIds = new Map<string, number>()
  private readonly checkpoints = new Map<string, Checkpoint>()

  /** Note the fields every record may carry. `expectedSessionId` is undefined for sub-agents. */
  common(r: Json, expectedSessionId: string | undefined): void {
    const cwd = str(r.cwd)
    if (cwd && this.cwd === undefined) this.cwd = cwd
    const branch = str(r.gitBranch)
    if (branch) this.gitBranch = branch
    const version = str(r.version)
    if (version) this.version = version
    const entry = str(r.entrypoint)
    if (entry && this.entrypoint === undefined) this.entrypoint = entry
    const at = isoToMs(r.timestamp)
    if (at !== undefined) {
      if (this.firstAt === undefined || at < this.firstAt) this.firstAt = at
      if (this.lastAt === undefined || at > this.lastAt) this.lastAt = at
    }
    const sid = str(r.sessionId)
    if (sid && this.sessionId === undefined) this.sessionId = sid
    if (expectedSessionId !== undefined && sid !== undefined && sid !== expectedSessionId) {
      this.otherSessionIds.set(sid, (this.otherSessionIds.get(sid) ?? 0) + 1)
    }
  }

  /** Count a record's type. */
  countType(type: string): void {
    bump(this.recordTypes, type)
  }

  /** Count a system record's subtype. */
  countSystem(subtype: string): void {
    bump(this.systemSubtypes, subtype)
  }

  /** Take what a metadata record says (the type is one of {@link METADATA_TYPES} or unknown). */
  metadataRecord(type: string, r: Json): void {
    switch (type) {
      case 'summary':
        this.summary = str(r.summary) ?? this.summary
        break
      case 'custom-title':
        this.customTitle = str(r.customTitle) ?? this.customTitle
        break
      case 'ai-title':
        this.aiTitle = str(r.aiTitle) ?? this.aiTitle
        break
      case 'last-prompt':
        this.lastPrompt = str(r.lastPrompt) ?? this.lastPrompt
        break
      case 'mode':
        this.mode = str(r.mode) ?? this.mode
        break
      case 'permission-mode':
        this.permissionMode = str(r.permissionMode) ?? this.permissionMode
        break
      case 'cost-state': {
        const { type: _t, sessionId: _s, ...rest } = r
        this.costState = rest
        this.usage = usageFromCostState(r) ?? this.usage
        break
      }
      case 'attachment':
        bump(this.attachmentTypes, str(obj(r.attachment)?.type) ?? '(none)')
        break
      case 'file-history-snapshot':
        this.snapshot(r)
        break
      case 'file-history-delta':
        this.delta(r)
        break
    }
  }

  /**
   * `file-history-snapshot {messageId, snapshot{trackedFileBackups{<path>:{backupFileName,
   * version, backupTime}}, timestamp}, isSnapshotUpdate}` → a checkpoint whose ref is the user
   * message id it was taken before; an update adds files to the same checkpoint.
   */
  private snapshot(r: Json): void {
    const snap = obj(r.snapshot) ?? {}
    const ref = str(r.messageId) ?? str(snap.messageId)
    if (!ref) return
    const cp = this.checkpoint(ref, isoToMs(snap.timestamp) ?? isoToMs(r.timestamp))
    for (const path of Object.keys(obj(snap.trackedFileBackups) ?? {})) this.addFile(cp, path)
  }

  /**
   * `file-history-delta {messageId, snapshotMessageId, trackingPath, backup{...}}` (Claude Code
   * 2.1.332): a file starts being tracked in the snapshot `snapshotMessageId` during a turn.
   */
  private delta(r: Json): void {
    const ref = str(r.snapshotMessageId) ?? str(r.messageId)
    if (!ref) return
    const cp = this.checkpoint(ref, isoToMs(obj(r.backup)?.backupTime) ?? isoToMs(r.timestamp))
    const path = str(r.trackingPath)
    if (path) this.addFile(cp, path)
  }

  private checkpoint(ref: string, createdAt: number | undefined): Checkpoint {
    let cp = this.checkpoints.get(ref)
    if (!cp) {
      cp = { ref, kind: 'file-history', files: [] }
      if (createdAt !== undefined) cp.createdAt = createdAt
      this.checkpoints.set(ref, cp)
    }
    return cp
  }

  private addFile(cp: Checkpoint, path: string): void {
    if (!cp.files!.includes(path)) cp.files!.push(path)
  }

  /** Checkpoints in order of first appearance, `nodeId` filled by `nodeOf` (record uuid → node). */
  listCheckpoints(nodeOf: (uuid: string) => string | undefined): Checkpoint[] {
    const out: Checkpoint[] = []
    for (const cp of this.checkpoints.values()) {
      const nodeId = nodeOf(cp.ref)
      const c: Checkpoint = { ref: cp.ref, kind: cp.kind }
      if (cp.createdAt !== undefined) c.createdAt = cp.createdAt
      if (nodeId !== undefined) c.nodeId = nodeId
      c.files = cp.files
      out.push(c)
    }
    return out
  }

  /**
   * The session title: the user's custom title wins over the generated one, then `summary`. A
   * `summary` that is an API error is no title (Claude Code 1.0.90 summed up a session whose last
   * reply was the `<synthetic>` "Request timed out (check API_TIMEOUT_MS)" with that text:
   * fixtures/public-real/claude-code sword-1090-siblings e4b47c0c): it is left out when it is the
   * text of an API error read in the file (`apiErrors`) or reads like one ({@link API_ERROR_TEXT}).
   */
  title(apiErrors: ReadonlySet<string> = new Set()): string | undefined {
    const summary = this.summary !== undefined && (apiErrors.has(this.summary.trim()) || API_ERROR_TEXT.test(this.summary)) ? undefined : this.summary
    return this.customTitle ?? this.aiTitle ?? summary
  }

  /** Session metadata from these facts (only keys with values). */
  metadata(): Record<string, unknown> {
    const m: Record<string, unknown> = { recordTypes: this.recordTypes }
    if (Object.keys(this.attachmentTypes).length) m.attachmentTypes = this.attachmentTypes
    if (Object.keys(this.systemSubtypes).length) m.systemSubtypes = this.systemSubtypes
    const put = (k: string, v: unknown): void => {
      if (v !== undefined) m[k] = v
    }
    put('version', this.version)
    put('entrypoint', this.entrypoint)
    put('customTitle', this.customTitle)
    put('aiTitle', this.aiTitle)
    put('summary', this.summary)
    put('lastPrompt', this.lastPrompt)
    put('mode', this.mode)
    put('permissionMode', this.permissionMode)
    put('costState', this.costState)
    return m
  }
}
