/**
 * Cap how deeply nested a read session may be. A hostile or broken store can hold JSON nested
 * thousands of levels deep (a tool argument, a metadata blob); JSON.parse accepts it but
 * structuredClone, JSON.stringify and the renderer overflow their stacks on it. Values below
 * {@link MAX_DEPTH} levels are replaced by a short note and the session gets one diagnostic.
 * The walk is iterative, so the cap itself cannot overflow.
 */
import type { Session } from '../../shared/ir'
import { addDiagnostic } from './build'
import { plural } from '../../shared/plural'
import { Slices } from '../util/turn'

/** Levels of nesting kept (the IR's own structure uses fewer than ten). */
export const MAX_DEPTH = 64

/** Replace values nested deeper than {@link MAX_DEPTH} in place; returns how many were cut. */
export function clampDepth(session: Session): number {
  const walk = clampWalk(session)
  let step = walk.next()
  while (!step.done) step = walk.next()
  return step.value
}

/**
 * {@link clampDepth} in slices of about `sliceMs` (default 8 ms) with a turn of the event loop
 * between them (`setImmediate`): the walk visits every object of a session, ~30 ms for a 200 MB
 * one on a quiet core (BENCHMARKS.md "Renderer, session 12"). The same cuts, in the same order;
 * every slice runs on a later turn, the first one too.
 */
export async function clampDepthSliced(session: Session, sliceMs = 8): Promise<number> {
  const walk = clampWalk(session)
  // The first slice on a turn of its own too: the read's last pass (pairing the calls) just ran.
  const slices = new Slices(sliceMs)
  await slices.turn()
  for (let step = walk.next(); ; step = walk.next()) {
    if (step.done) return step.value
    if (slices.due()) await slices.turn()
  }
}

/** The walk of {@link clampDepth}, pausing (`yield`) every 256 objects; returns the number cut. */
function* clampWalk(session: Session): Generator<void, number> {
  let cut = 0
  let budget = 256
  const stack: { value: Record<string, unknown> | unknown[]; depth: number }[] = [{ value: session as unknown as Record<string, unknown>, depth: 0 }]
  while (stack.length > 0) {
    if (--budget === 0) {
      yield
      budget = 256
    }
    const { value, depth } = stack.pop()!
    const keys = Array.isArray(value) ? value.keys() : Object.keys(value)
    for (const k of keys) {
      const child = (value as Record<string | number, unknown>)[k as string]
      if (child === null || typeof child !== 'object') continue
      if (depth + 1 >= MAX_DEPTH) {
        ;(value as Record<string | number, unknown>)[k as string] = `[nested more than ${MAX_DEPTH} levels deep: not shown]`
        cut++
        continue
      }
      stack.push({ value: child as Record<string, unknown> | unknown[], depth: depth + 1 })
    }
  }
  if (cut > 0) {
    addDiagnostic(session, {
      severity: 'warning',
      path: session.source.files[0] ?? '',
      message: `${plural(cut, 'value was', 'values were')} nested more than ${MAX_DEPTH} levels deep; ${cut === 1 ? 'it is' : 'they are'} shown as a note instead.`,
    })
  }
  return cut
}

/**
 * A copy of any JSON-like value with everything nested {@link MAX_DEPTH} levels or deeper
 * replaced by the same note {@link clampDepth} uses. Iterative; for values that are not part of a
 * session (timeline rows, settings) before they are stringified or sent (issue 16).
 */
export function clampValue(value: unknown, max = MAX_DEPTH): unknown {
  if (value === null || typeof value !== 'object') return value
  const root: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {}
  const stack: { src: object; dst: Record<string, unknown> | unknown[]; depth: number }[] = [{ src: value, dst: root, depth: 0 }]
  while (stack.length > 0) {
    const { src, dst, depth } = stack.pop()!
    for (const k of Object.keys(src)) {
      const child = (src as Record<string, unknown>)[k]
      let out: unknown = child
      if (child !== null && typeof child === 'object') {
        if (depth + 1 >= max) out = `[nested more than ${max} levels deep: not shown]`
        else {
          const d: Record<string, unknown> | unknown[] = Array.isArray(child) ? [] : {}
          stack.push({ src: child, dst: d, depth: depth + 1 })
          out = d
        }
      }
      ;(dst as Record<string, unknown>)[k] = out
    }
  }
  return root
}
