/**
 * Long tasks with progress (`exportSessions`, `collectForReview`): the renderer picks a task id,
 * starts the call, and polls `getTaskProgress(taskId)` until the call settles; `cancelTask(taskId)`
 * stops it (the call then rejects with `CANCELLED`).
 */
import type { TaskProgress } from '../../../shared/export'

/** A new task id (unique enough within one app run). */
export function newTaskId(prefix = 'task'): string {
  const rand = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`
  return `${prefix}-${rand}`
}

/** What {@link runTask} needs. */
export interface TaskRunner<T> {
  /** Start the call with the id. */
  start(taskId: string): Promise<T>
  /** The API's `getTaskProgress`. */
  progress(taskId: string): Promise<TaskProgress>
  /** Called with every progress answer while the call runs. */
  onProgress(p: TaskProgress): void
  /** Poll interval in ms (default 300). */
  intervalMs?: number
}

/**
 * Start a task and poll its progress until it settles. Resolves or rejects like `start`. A failed
 * poll (the task not registered yet, or already gone) is ignored.
 */
export async function runTask<T>(taskId: string, r: TaskRunner<T>): Promise<T> {
  let settled = false
  const poll = async (): Promise<void> => {
    while (!settled) {
      await new Promise((res) => setTimeout(res, r.intervalMs ?? 300))
      if (settled) return
      try {
        const p = await r.progress(taskId)
        if (!settled) r.onProgress(p)
      } catch {
        // not started yet, or finished: the call's own answer decides
      }
    }
  }
  void poll()
  try {
    return await r.start(taskId)
  } finally {
    settled = true
  }
}

/** Join a folder and a name with the folder's own separator (`\` for a Windows-looking path). */
export function joinPath(folder: string, name: string): string {
  const f = folder.trim()
  const sep = /^[A-Za-z]:\\|^\\\\/.test(f) || (f.includes('\\') && !f.includes('/')) ? '\\' : '/'
  return f.endsWith(sep) ? f + name : `${f}${sep}${name}`
}

/** A bundle name for today: `sepia-review-2026-11-30` (+ `.zip`). */
export function bundleName(now: number, zip: boolean): string {
  const d = new Date(now)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `sepia-review-${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}${zip ? '.zip' : ''}`
}
