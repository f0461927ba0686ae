/**
 * A small line diff for showing a tool call's file change (ToolCall.diffs: before/after text).
 * Common prefix and suffix are trimmed, the middle is compared with a longest-common-subsequence
 * table; past `maxCells` (lines before × lines after) it gives up and the view shows both texts.
 */

/** One line of a diff. Line numbers are 1-based, in the old and new text. */
export type DiffLine =
  | { type: 'same'; text: string; oldNo: number; newNo: number }
  | { type: 'del'; text: string; oldNo: number }
  | { type: 'add'; text: string; newNo: number }
  /** Unchanged lines left out of the view. */
  | { type: 'skip'; count: number }

/** Split text into lines; absent text has no lines; a final newline does not make an empty last line. */
export function splitLines(text: string | undefined): string[] {
  if (text === undefined || text === '') return []
  const lines = text.split(/\r?\n/)
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

/**
 * The line diff of `oldText` → `newText`, or `undefined` when the changed middle is larger than
 * `maxCells`. Runs of unchanged lines longer than 2×`context` are folded into `skip` rows.
 */
export function diffLines(oldText: string | undefined, newText: string | undefined, context = 3, maxCells = 2_000_000): DiffLine[] | undefined {
  const a = splitLines(oldText)
  const b = splitLines(newText)
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const n = endA - start
  const m = endB - start
  if (n * m > maxCells) return undefined

  const out: DiffLine[] = []
  for (let i = 0; i < start; i++) out.push({ type: 'same', text: a[i]!, oldNo: i + 1, newNo: i + 1 })
  // LCS lengths of suffixes: lcs[i][j] for a[start+i..endA) and b[start+j..endB).
  const w = m + 1
  const lcs = new Uint32Array((n + 1) * w)
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = a[start + i] === b[start + j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!)
    }
  }
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      out.push({ type: 'same', text: a[start + i]!, oldNo: start + i + 1, newNo: start + j + 1 })
      i++
      j++
    } else if (i < n && (j >= m || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) {
      out.push({ type: 'del', text: a[start + i]!, oldNo: start + i + 1 })
      i++
    } else {
      out.push({ type: 'add', text: b[start + j]!, newNo: start + j + 1 })
      j++
    }
  }
  for (let k = 0; endA + k < a.length; k++) out.push({ type: 'same', text: a[endA + k]!, oldNo: endA + k + 1, newNo: endB + k + 1 })
  return foldContext(out, context)
}

/** Replace runs of `same` lines far from any change by one `skip` row. */
function foldContext(lines: DiffLine[], context: number): DiffLine[] {
  const changed = lines.map((l) => l.type !== 'same')
  const near = new Array<boolean>(lines.length).fill(false)
  changed.forEach((c, idx) => {
    if (!c) return
    for (let k = Math.max(0, idx - context); k <= Math.min(lines.length - 1, idx + context); k++) near[k] = true
  })
  const out: DiffLine[] = []
  let skipped = 0
  lines.forEach((l, idx) => {
    if (l.type === 'same' && !near[idx]) {
      skipped++
      return
    }
    if (skipped > 0) out.push({ type: 'skip', count: skipped })
    skipped = 0
    out.push(l)
  })
  if (skipped > 0) out.push({ type: 'skip', count: skipped })
  return out
}
