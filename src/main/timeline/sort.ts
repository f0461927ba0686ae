/**
 * Orders of the timeline table. The default is time order in which a row without a time stays
 * next to its neighbours: it takes the time of the row before it from the same session and file
 * (a search-index document follows its session's start row), or, when it is the first, of the
 * next dated row there (the undated CLI prompt-history lines join the dated last line); rows of a
 * file with no time at all go last. Ties keep the order the rows were built in.
 */
import type { TimelineRow, TimelineSortKey } from '../../shared/timeline'

/** Sort keys the table offers (every {@link TimelineSortKey}). */
export const SORT_KEYS: readonly TimelineSortKey[] = [
  'timestampUtc', 'sessionId', 'projectPath', 'turnType', 'model', 'toolName', 'toolUseId', 'text', 'sourceFile', 'agent',
]

/** Rows in the default order (a new array). */
export function naturalOrder(rows: readonly TimelineRow[]): TimelineRow[] {
  const keys = new Array<number>(rows.length)
  const last = new Map<string, number>()
  const group = (r: TimelineRow) => `${r.sessionId}\u0000${r.sourceFile}`
  rows.forEach((r, i) => {
    const g = group(r)
    if (r.timestampUtc !== undefined) {
      keys[i] = r.timestampUtc
      last.set(g, r.timestampUtc)
    } else if (last.has(g)) keys[i] = last.get(g)!
    else keys[i] = NaN
  })
  const next = new Map<string, number>()
  for (let i = rows.length - 1; i >= 0; i--) {
    const g = group(rows[i]!)
    if (!Number.isNaN(keys[i]!)) next.set(g, keys[i]!)
    else keys[i] = next.get(g) ?? Number.POSITIVE_INFINITY
  }
  return rows.map((r, i) => ({ r, i })).sort((a, b) => keys[a.i]! - keys[b.i]! || a.i - b.i).map((x) => x.r)
}

/** Rows sorted by one column (absent values last), ties in the default order; `descending` reverses. */
export function sortRows(rows: readonly TimelineRow[], sortBy?: TimelineSortKey, descending = false): TimelineRow[] {
  const natural = naturalOrder(rows)
  if (!sortBy || sortBy === 'timestampUtc') return descending ? natural.reverse() : natural
  const rank = new Map(natural.map((r, i) => [r, i]))
  const sorted = [...natural].sort((a, b) => {
    const x = a[sortBy]
    const y = b[sortBy]
    const ex = x === undefined || x === ''
    const ey = y === undefined || y === ''
    if (ex !== ey) return ex ? 1 : -1
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x ?? '').localeCompare(String(y ?? ''))
    return c || rank.get(a)! - rank.get(b)!
  })
  return descending ? sorted.reverse() : sorted
}
