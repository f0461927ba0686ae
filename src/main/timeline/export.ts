/**
 * Timeline exports: CSV (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote or
 * line break quoted, quotes doubled) and JSONL (one object per line), both with the seed's column
 * names ({@link TIMELINE_COLUMNS}); `timestamp_utc` is ISO 8601 UTC (empty / null when unknown).
 *
 * A CSV cell starting with `=`, `+`, `@`, a tab or a carriage return gets a leading `'` so a
 * spreadsheet does not run transcript text as a formula (OWASP "CSV injection"); the JSONL keeps
 * every text exactly.
 */
import { TIMELINE_COLUMNS, type TimelineColumn, type TimelineFormat, type TimelineRow } from '../../shared/timeline'

/** A row as an export record (seed column names; absent values are `null`). */
export function rowRecord(row: TimelineRow): Record<TimelineColumn, string | number | null> {
  return {
    timestamp_utc: row.timestampUtc !== undefined ? new Date(row.timestampUtc).toISOString() : null,
    session_id: row.sessionId,
    project_path: row.projectPath,
    git_branch: row.gitBranch,
    turn_type: row.turnType,
    model: row.model,
    tool_name: row.toolName,
    tool_use_id: row.toolUseId,
    text: row.text,
    source_file: row.sourceFile,
    source_line: row.sourceLine ?? null,
    agent: row.agent,
    recovered_from: row.recovered?.source ?? null,
  }
}

/** CSV text with a header line. */
export function toCsv(rows: readonly TimelineRow[]): string {
  const lines = [TIMELINE_COLUMNS.join(',')]
  for (const r of rows) {
    const rec = rowRecord(r)
    lines.push(TIMELINE_COLUMNS.map((c) => csvCell(rec[c])).join(','))
  }
  return lines.join('\r\n') + '\r\n'
}

/** JSONL text, one record per line. */
export function toJsonl(rows: readonly TimelineRow[]): string {
  return rows.map((r) => JSON.stringify(rowRecord(r))).join('\n') + (rows.length ? '\n' : '')
}

/** Export rows in a format. */
export function exportRows(rows: readonly TimelineRow[], format: TimelineFormat): string {
  return format === 'csv' ? toCsv(rows) : toJsonl(rows)
}

function csvCell(value: string | number | null): string {
  if (value === null) return ''
  let s = String(value)
  if (/^[=+@\t\r]/.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}
