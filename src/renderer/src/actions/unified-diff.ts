/**
 * A unified diff (the text `previewRestore` gives per file: `--- a/x`, `+++ b/x`, `@@ -1,2 +1,3 @@`
 * hunks, then lines starting with ` `, `-` or `+`) split into rows for the restore preview, with
 * the old and new line numbers of each row. Pure.
 */

/** One row of a unified diff. Line numbers are 1-based, in the file now (`oldNo`) and at the checkpoint (`newNo`). */
export type UnifiedRow =
  | { type: 'hunk'; text: string }
  | { type: 'same'; text: string; oldNo: number; newNo: number }
  | { type: 'del'; text: string; oldNo: number }
  | { type: 'add'; text: string; newNo: number }
  /** `\ No newline at end of file` and similar notes. */
  | { type: 'note'; text: string }

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/

/**
 * The rows of `diff`. File header lines (`diff --git`, `index`, `---`, `+++`) before the first
 * hunk are left out; a diff with no hunk gives no rows.
 */
export function parseUnifiedDiff(diff: string): UnifiedRow[] {
  const out: UnifiedRow[] = []
  let oldNo = 0
  let newNo = 0
  let inHunk = false
  const lines = diff.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    const m = HUNK.exec(line)
    if (m) {
      oldNo = Number(m[1])
      newNo = Number(m[2])
      inHunk = true
      out.push({ type: 'hunk', text: line })
      continue
    }
    if (!inHunk) continue
    const sign = line[0]
    const text = line.slice(1)
    if (sign === '+') out.push({ type: 'add', text, newNo: newNo++ })
    else if (sign === '-') out.push({ type: 'del', text, oldNo: oldNo++ })
    else if (sign === '\\') out.push({ type: 'note', text: line })
    else out.push({ type: 'same', text, oldNo: oldNo++, newNo: newNo++ })
  }
  return out
}

/** Lines added and removed in a diff (for a "+3 −1" summary). */
export function diffStat(rows: readonly UnifiedRow[]): { added: number; removed: number } {
  let added = 0
  let removed = 0
  for (const r of rows) {
    if (r.type === 'add') added++
    else if (r.type === 'del') removed++
  }
  return { added, removed }
}
