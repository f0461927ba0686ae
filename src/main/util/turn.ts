/**
 * Turns of the event loop for long passes on a server's main thread (`sepia serve`, the app's
 * main process): a pass over a whole 200 MB session split where it can be, so the requests,
 * timers and I/O waiting meanwhile run between its parts (issue 15; BENCHMARKS.md "Renderer,
 * session 12").
 */

/** Resolves on a later turn of the event loop (`setImmediate`), after the I/O and timers due. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** Sessions of at least this many nodes get a turn between the passes of their read (`nextTurn`). */
export const LARGE_SESSION_NODES = 2000

/**
 * The clock of a long loop that gives the event loop a turn now and then: `due()` is true once
 * `sliceMs` (default 8) passed since the start or the last `turn()`, which takes a turn
 * ({@link nextTurn}) and starts the clock again. Ask `due()` every few dozen items, not every one.
 */
export class Slices {
  private until: number

  constructor(private readonly sliceMs = 8) {
    this.until = performance.now() + sliceMs
  }

  /** True once the slice's time is up. */
  due(): boolean {
    return performance.now() >= this.until
  }

  /** A turn of the event loop; the next slice starts after it. */
  async turn(): Promise<void> {
    await nextTurn()
    this.until = performance.now() + this.sliceMs
  }
}
