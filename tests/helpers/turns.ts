/**
 * Counts turns of the event loop while a sliced pass runs (tests of `clampDepthSliced`,
 * `maskSessionSliced`): a callback re-queued with `setImmediate` runs once per turn.
 */
export function countTurns(): { stop(): number } {
  let turns = 0
  let done = false
  const tick = (): void => {
    turns++
    if (!done) setImmediate(tick)
  }
  setImmediate(tick)
  return {
    /** Stop counting; the turns so far. */
    stop() {
      done = true
      return turns
    },
  }
}
