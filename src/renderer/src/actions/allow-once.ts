/**
 * The "Allow once" step before Sepia writes into a folder the user typed, or into a folder that
 * came from a session's store (a restore into the recorded project folder). Issue 16/17: main
 * writes only into a folder picked in the system dialog, its own data folder, or a folder the
 * user allowed here; `approveFolder` turns the click into a one-time grant token for that write.
 *
 * `ask(path, operation)` shows the step (the dialog renders {@link AllowOnce} while `asking` is
 * set) and resolves the token, or `undefined` when the user cancels.
 */
import { shallowRef } from 'vue'
import type { SepiaApi } from '../../../shared/api'

export type WriteOperation = Parameters<SepiaApi['approveFolder']>[1]

/** What the step shows: the folder and what will be written there. */
export interface AllowRequest {
  path: string
  operation: WriteOperation
}

/** The step's state for one dialog. `approve` is the bridge call (injected for tests). */
export function useAllowOnce(approve: (path: string, operation: WriteOperation) => Promise<{ token: string }>) {
  const asking = shallowRef<AllowRequest | null>(null)
  let settle: ((token: string | undefined) => void) | null = null
  function ask(path: string, operation: WriteOperation): Promise<string | undefined> {
    settle?.(undefined)
    asking.value = { path, operation }
    return new Promise((resolve) => (settle = resolve))
  }
  async function allow(): Promise<void> {
    const req = asking.value
    const done = settle
    asking.value = null
    settle = null
    if (!req || !done) return
    try {
      done((await approve(req.path, req.operation)).token)
    } catch {
      done(undefined)
    }
  }
  function cancel(): void {
    const done = settle
    asking.value = null
    settle = null
    done?.(undefined)
  }
  return { asking, ask, allow, cancel }
}
