/**
 * Collects {@link ConvertWarning}s while a session is prepared and written: each step adds counts,
 * `list()` merges them (same kind and names summed, losses first).
 */
import { type ConvertWarning, mergeWarnings } from '../../shared/convert'

/** A growing list of warnings. */
export class WarningSink {
  private readonly items: ConvertWarning[] = []

  /** Add one warning (its `count` is summed with equal warnings by {@link list}). */
  add(w: ConvertWarning): void {
    if (w.count > 0) this.items.push(w)
  }

  /** Add several warnings (e.g. a writer's). */
  addAll(ws: readonly ConvertWarning[]): void {
    for (const w of ws) this.add(w)
  }

  /** The merged warnings. */
  list(): ConvertWarning[] {
    return mergeWarnings(this.items)
  }
}
