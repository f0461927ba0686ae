/**
 * Progress and cancellation of long API calls (export, collect) across a request/response bridge:
 * the renderer names the call with a `taskId`, polls `getTaskProgress(taskId)` while it runs and
 * may call `cancelTask(taskId)`; the call itself resolves or rejects as usual.
 */
import { SepiaError } from '../../shared/api'
import type { TaskProgress } from '../../shared/export'

/** The handle a running task reports through. */
export interface TaskHandle {
  signal: AbortSignal
  report(done: number, total: number, phase: string, bytes?: number): void
}

const MAX_FINISHED = 50
const TASK_ID = /^[A-Za-z0-9_.:-]{1,100}$/

/** Running and recently finished tasks, by id. */
export class TaskRegistry {
  private tasks = new Map<string, { progress: TaskProgress; controller: AbortController }>()

  /**
   * Run `work` as task `taskId` (no tracking when absent). Records `done`, `failed` or
   * `cancelled` when it ends. Rejects `BAD_ARGUMENT` for a malformed or running id.
   */
  async run<T>(taskId: string | undefined, work: (task: TaskHandle) => Promise<T>): Promise<T> {
    const controller = new AbortController()
    if (taskId === undefined) return work({ signal: controller.signal, report: () => undefined })
    if (typeof taskId !== 'string' || !TASK_ID.test(taskId)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'A task id is 1 to 100 letters, digits, dots, colons, dashes or underscores.' })
    if (this.tasks.get(taskId)?.progress.state === 'running') throw new SepiaError({ code: 'BAD_ARGUMENT', message: `Task ${taskId} is already running.` })
    const progress: TaskProgress = { taskId, done: 0, total: 0, phase: 'start', state: 'running' }
    this.tasks.delete(taskId)
    this.tasks.set(taskId, { progress, controller })
    this.trim()
    const handle: TaskHandle = {
      signal: controller.signal,
      report(done, total, phase, bytes) {
        progress.done = done
        progress.total = total
        progress.phase = phase
        if (bytes !== undefined) progress.bytes = bytes
      },
    }
    try {
      const value = await work(handle)
      progress.state = 'done'
      return value
    } catch (e) {
      const se = SepiaError.from(e)
      progress.state = se.code === 'CANCELLED' ? 'cancelled' : 'failed'
      progress.error = se.message
      throw e
    }
  }

  /** A task's progress. Rejects `NOT_FOUND` for an unknown id. */
  get(taskId: string): TaskProgress {
    const t = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined
    if (!t) throw new SepiaError({ code: 'NOT_FOUND', message: `No task "${String(taskId)}" is known (it may have finished long ago).` })
    return { ...t.progress }
  }

  /** Ask a running task to stop. False when no such task runs. */
  cancel(taskId: string): boolean {
    const t = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined
    if (!t || t.progress.state !== 'running') return false
    t.controller.abort()
    return true
  }

  private trim(): void {
    const finished = [...this.tasks.entries()].filter(([, t]) => t.progress.state !== 'running')
    for (const [id] of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) this.tasks.delete(id)
  }
}
