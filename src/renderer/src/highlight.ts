/**
 * Search snippets as plain-text segments, each marked or not, from the match ranges the API gives
 * (`SearchHit.highlights`: `[start, end)` character offsets into `snippet`, src/shared/catalog.ts).
 * The component renders each segment as text (`<mark>` for matches): the snippet is never parsed
 * as HTML. Pure.
 */

/** One piece of a snippet. */
export interface Segment {
  text: string
  /** True for a matched range. */
  mark: boolean
}

/**
 * Cut `text` at the ranges. Ranges out of bounds are clamped, empty ones dropped, overlapping or
 * touching ones merged, unordered ones sorted; no range gives one unmarked segment.
 */
export function highlightSegments(text: string, ranges: readonly (readonly [number, number])[]): Segment[] {
  const clean = ranges
    .map(([a, b]) => [Math.max(0, Math.min(text.length, Math.floor(a))), Math.max(0, Math.min(text.length, Math.floor(b)))] as [number, number])
    .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b) && b > a)
    .sort((x, y) => x[0] - y[0])
  const merged: [number, number][] = []
  for (const r of clean) {
    const last = merged[merged.length - 1]
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1])
    else merged.push([r[0], r[1]])
  }
  const out: Segment[] = []
  let at = 0
  for (const [a, b] of merged) {
    if (a > at) out.push({ text: text.slice(at, a), mark: false })
    out.push({ text: text.slice(a, b), mark: true })
    at = b
  }
  if (at < text.length || out.length === 0) out.push({ text: text.slice(at), mark: false })
  return out
}
