/**
 * Run an async function over a list with several calls in flight, results in the list's order.
 * Discovery stats and lists thousands of files through the promise API, one thread-pool round
 * trip each (~0.1 ms): one at a time, the main thread mostly waits (issue 15: discovery of the
 * 10,201 bench sessions took ~5.5 s before any worker got a session). With a few in flight the
 * pool's threads work side by side.
 */

/** How many calls {@link mapInOrder} keeps in flight by default (libuv's pool has 4 threads). */
export const IN_FLIGHT = 32

/**
 * `fn(item, index)` for every item, at most `limit` unsettled at once; resolves with the results
 * in item order (as a sequential loop would give them), or rejects with the first rejection
 * (after the calls in flight settle; no new call starts once one rejected).
 */
export async function mapInOrder<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>, limit = IN_FLIGHT): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  let failed = false
  let error: unknown
  const lane = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++
      try {
        out[i] = await fn(items[i]!, i)
      } catch (e) {
        if (!failed) error = e
        failed = true
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane))
  if (failed) throw error
  return out
}
