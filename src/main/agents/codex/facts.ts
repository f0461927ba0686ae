/**
 * Session-level facts of one rollout: its `session_meta`, working directory, times, record counts,
 * thread name, and the window of history a fork copied from its ancestors.
 *
 * `session_meta.payload` fields (codex-rs `protocol/src/protocol.rs` `SessionMeta`;
 * fixtures/real/codex 0.171.0): `id`, `session_id` (0.171.0: the root thread's id — a sub-agent's
 * `session_id` is its parent's), `timestamp`, `cwd`, `originator`, `cli_version`, `source`
 * (`"exec"`, `"cli"`, `"vscode"`, or `{subagent: {thread_spawn: {parent_thread_id, depth,
 * agent_nickname, agent_role}}}`), `thread_source`, `parent_thread_id`, `agent_nickname`,
 * `model_provider`, `forked_from_id`, `git {commit_hash, branch, repository_url}`.
 *
 * Copied history: a forked (or context-inheriting) rollout writes its own `session_meta`, then
 * the ancestor's rollout items including the ancestor's `session_meta` (codex-rs
 * `InitialHistory::Forked(items)`, whose `forked_from_id()` is the copied meta's id), every line
 * re-stamped with the time of the copy. The copy starts at a `session_meta` naming another id and
 * ends at the first `event_msg task_started` whose `started_at` (epoch seconds, the turn's real
 * start) is not before the fork's own start second (ccusage fixtures `replay-multisecond-modern`
 * and `fork-local-same-second-legacy` in fixtures/public/codex).
 */
import { type Json, isoToMs, num, obj, str } from './records'

/** Fields Codex needs in `session_meta.payload` to resume (fixtures/real/codex/handwritten results). */
export const RESUME_FIELDS = ['id', 'timestamp', 'cwd', 'originator', 'cli_version'] as const

/** How the copied-history window ended. */
export type ReplayOutcome = 'none' | 'confirmed' | 'unresolved'

/** Mutable collector; see the module comment. */
export class SessionFacts {
  meta: Json | undefined
  metaLine: number | undefined
  firstAt: number | undefined
  lastAt: number | undefined
  cwd: string | undefined
  threadName: string | undefined
  readonly ancestorIds: string[] = []
  readonly recordTypes: Record<string, number> = {}
  readonly eventTypes: Record<string, number> = {}
  readonly itemTypes: Record<string, number> = {}
  /** Lines without a top-level `timestamp` (Codex does not load them). */
  untimedLines = 0
  /** Lines read while the copied-history window was open. */
  replayLines = 0
  private window: 'closed' | 'open' | 'ended' = 'closed'
  private sawTaskStartedInWindow = false

  /** The rollout's own thread id (`session_meta.payload.id`). */
  get ownId(): string | undefined {
    return str(this.meta?.id)
  }

  /** True while the current record belongs to copied ancestor history. */
  get inReplay(): boolean {
    return this.window === 'open'
  }

  /** The fork's start, whole epoch seconds (own meta `timestamp`, else its line time). */
  private forkSecond(): number | undefined {
    const ms = isoToMs(this.meta?.timestamp) ?? this.firstAt
    return ms === undefined ? undefined : Math.floor(ms / 1000)
  }

  /** Observe one record (before it is turned into nodes). */
  observe(kind: string, payload: Json, at: number | undefined, line: number): void {
    this.recordTypes[kind] = (this.recordTypes[kind] ?? 0) + 1
    if (at === undefined) this.untimedLines++
    else {
      if (this.firstAt === undefined || at < this.firstAt) this.firstAt = at
      if (this.lastAt === undefined || at > this.lastAt) this.lastAt = at
    }
    const type = str(payload.type)
    if (kind === 'event_msg' && type) this.eventTypes[type] = (this.eventTypes[type] ?? 0) + 1
    if (kind === 'response_item' && type) this.itemTypes[type] = (this.itemTypes[type] ?? 0) + 1
    if (kind === 'session_meta') this.sessionMeta(payload, line)
    else if (kind === 'turn_context') this.cwd ??= str(payload.cwd)
    else if (kind === 'event_msg' && type === 'task_started') this.taskStarted(payload)
    else if (kind === 'event_msg' && type === 'thread_name_updated') {
      this.threadName = str(payload.thread_name) ?? str(payload.name) ?? this.threadName
    }
    if (this.window === 'open') this.replayLines++
  }

  private sessionMeta(payload: Json, line: number): void {
    if (!this.meta) {
      this.meta = payload
      this.metaLine = line
      this.cwd = str(payload.cwd) ?? this.cwd
      return
    }
    const id = str(payload.id)
    if (id === undefined || id === this.ownId) return
    if (!this.ancestorIds.includes(id)) this.ancestorIds.push(id)
    if (this.window === 'closed') this.window = 'open'
  }

  private taskStarted(payload: Json): void {
    if (this.window !== 'open') return
    this.sawTaskStartedInWindow = true
    const started = num(payload.started_at)
    const fork = this.forkSecond()
    if (started !== undefined && fork !== undefined && started >= fork) {
      this.window = 'ended' // this line is the first live one
    }
  }

  /**
   * How the copied-history window ended: `confirmed` when a live turn marker closed it (or the
   * file ended inside copied turns), `unresolved` when the copy had no `task_started` markers to
   * tell copied turns from new ones (nothing is then treated as copied).
   */
  replayOutcome(): ReplayOutcome {
    if (this.window === 'closed') return 'none'
    if (this.window === 'ended') return 'confirmed'
    return this.sawTaskStartedInWindow ? 'confirmed' : 'unresolved'
  }

  /** Parent thread of a sub-agent rollout (`parent_thread_id`, else `source.subagent.thread_spawn`). */
  parentThreadId(): string | undefined {
    return str(this.meta?.parent_thread_id) ?? str(this.threadSpawn()?.parent_thread_id)
  }

  /** `source.subagent.thread_spawn`, when the rollout is a spawned sub-agent. */
  threadSpawn(): Json | undefined {
    return obj(obj(obj(this.meta?.source)?.subagent)?.thread_spawn)
  }

  /** Required resume fields the meta lacks (empty when there is no meta at all). */
  missingResumeFields(): string[] {
    const m = this.meta
    if (!m) return []
    return RESUME_FIELDS.filter((k) => m[k] === undefined || m[k] === null)
  }
}
