/**
 * Scheduling priority of the calling thread (issue 15). A cold index runs two kinds of work side
 * by side on the machine's cores once the library is listed: the rows workers write the message
 * rows (work that splits across threads), and one text worker fills the full-text index (FTS5:
 * one writer, a serial chain of ~10 s on the bench's 10,000 sessions). With equal priorities the
 * three threads share two cores and the chain ends seconds after the rows, alone on one core
 * (BENCHMARKS.md "Search ready, session 12"); with the rows workers niced, the chain keeps a
 * core and the rows take what it leaves.
 *
 * Linux only: there a thread id is a process id for `setpriority(2)` (NPTL threads are tasks),
 * read from `/proc/thread-self`. Elsewhere (macOS, Windows: `os.setPriority` sets the whole
 * process) nothing changes. A thread can lower its own priority without privileges, never raise
 * it back; a worker that lowers it ends with its job.
 */
import { readlinkSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

/** The calling thread's id on Linux (`/proc/thread-self` → `<pid>/task/<tid>`), undefined elsewhere or when unreadable. */
export function threadId(): number | undefined {
  if (process.platform !== 'linux') return undefined
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    return Number.isInteger(tid) && tid > 0 ? tid : undefined
  } catch {
    return undefined
  }
}

/**
 * Raise the calling thread's nice value by `by` (1-19, capped at 19, the lowest priority).
 * Returns the new nice value, or undefined when the platform has no per-thread priority or the
 * call failed (then nothing changed). Never throws.
 */
export function lowerThreadPriority(by: number): number | undefined {
  const tid = threadId()
  if (tid === undefined) return undefined
  try {
    const next = Math.min(19, getPriority(tid) + Math.max(1, Math.min(19, Math.floor(by))))
    setPriority(tid, next)
    return getPriority(tid)
  } catch {
    return undefined
  }
}
