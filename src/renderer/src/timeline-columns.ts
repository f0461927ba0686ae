/**
 * The Timeline view's columns: seed 000's row model (src/shared/timeline.ts) as the table shows
 * it, each with its width, the {@link TimelineSortKey} its header sorts by (none for the columns
 * the API cannot sort), and how a cell reads. Pure.
 */
import type { TimelineRow, TimelineSortKey } from '../../shared/timeline'
import { displayLocale } from './format'
import { strings } from './strings'

/** A column id: the export column name (`source` joins source_file and source_line). */
export type TimelineColumnId =
  | 'timestamp_utc'
  | 'session_id'
  | 'project_path'
  | 'git_branch'
  | 'turn_type'
  | 'model'
  | 'tool_name'
  | 'tool_use_id'
  | 'text'
  | 'source'
  | 'recovered'

/** One column. */
export interface TimelineColumnDef {
  id: TimelineColumnId
  label: string
  /** CSS grid track. */
  width: string
  sortKey?: TimelineSortKey
  mono?: boolean
}

const L = strings.timeline.columns

/** The columns in order. */
export const TIMELINE_TABLE_COLUMNS: readonly TimelineColumnDef[] = [
  { id: 'timestamp_utc', get label() { return L.timestamp_utc }, width: '168px', sortKey: 'timestampUtc', mono: true },
  { id: 'session_id', get label() { return L.session_id }, width: '165px', sortKey: 'sessionId', mono: true },
  { id: 'project_path', get label() { return L.project_path }, width: '140px', sortKey: 'projectPath', mono: true },
  { id: 'git_branch', get label() { return L.git_branch }, width: '80px', mono: true },
  { id: 'turn_type', get label() { return L.turn_type }, width: '96px', sortKey: 'turnType' },
  { id: 'model', get label() { return L.model }, width: '145px', sortKey: 'model', mono: true },
  { id: 'tool_name', get label() { return L.tool_name }, width: '110px', sortKey: 'toolName', mono: true },
  { id: 'tool_use_id', get label() { return L.tool_use_id }, width: '120px', sortKey: 'toolUseId', mono: true },
  { id: 'text', get label() { return L.text }, width: 'minmax(280px, 1fr)', sortKey: 'text' },
  { id: 'source', get label() { return L.source }, width: '200px', sortKey: 'sourceFile', mono: true },
  { id: 'recovered', get label() { return L.recovered }, width: '150px' },
]

const utcByLocale = new Map<string, Intl.DateTimeFormat>()
/** Date and time in UTC, in the display locale's order (made once per locale). */
function utc(): Intl.DateTimeFormat {
  const locale = displayLocale()
  let f = utcByLocale.get(locale)
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      timeZone: 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
    utcByLocale.set(locale, f)
  }
  return f
}

/** The last part of a path in either syntax. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/)
  return parts[parts.length - 1] || path
}

/** The text a cell shows (one line; the title holds the whole value). */
export function cellText(row: TimelineRow, id: TimelineColumnId): string {
  switch (id) {
    case 'timestamp_utc':
      return row.timestampUtc === undefined ? '' : utc().format(row.timestampUtc)
    case 'session_id':
      return row.sessionId
    case 'project_path':
      return row.projectPath
    case 'git_branch':
      return row.gitBranch
    case 'turn_type':
      return strings.timeline.turnTypes[row.turnType]
    case 'model':
      return row.model
    case 'tool_name':
      return row.toolName
    case 'tool_use_id':
      return row.toolUseId
    case 'text':
      return row.text.replace(/\s+/g, ' ').slice(0, 400)
    case 'source':
      return row.sourceFile ? `${baseName(row.sourceFile)}${row.sourceLine !== undefined ? `:${row.sourceLine}` : ''}` : ''
    case 'recovered':
      return row.recovered ? row.recovered.source : ''
  }
}

/** The full value of a cell, for its tooltip (long texts cut at 2,000 characters). */
export function cellTitle(row: TimelineRow, id: TimelineColumnId): string {
  switch (id) {
    case 'timestamp_utc':
      return row.timestampUtc === undefined ? '' : new Date(row.timestampUtc).toISOString()
    case 'text':
      return row.text.length > 2000 ? `${row.text.slice(0, 2000)}…` : row.text
    case 'source':
      return row.sourceFile ? `${row.sourceFile}${row.sourceLine !== undefined ? `:${row.sourceLine}` : ''}` : ''
    case 'recovered':
      return row.recovered ? strings.recovered.title(row.recovered.source) : ''
    default:
      return cellText(row, id)
  }
}
