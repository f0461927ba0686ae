/**
 * Row helpers of the Cline timeline (seed 000 "Parser plan"): building a {@link TimelineRow} with
 * every column filled, naming a file the way the seed's system rows do, and the text of a tool
 * input or result.
 */
import { relative, sep } from 'node:path'
import type { AgentId } from '../../../../shared/ir'
import type { TimelineRow, TimelineTurnType } from '../../../../shared/timeline'
import { isRecord } from '../../../util/json'
import { clampValue } from '../../../ir/depth'

/** A row from a secondary source, with what the IR needs to rebuild the turn (stripped before output). */
export interface SecondaryRow extends TimelineRow {
  recovered: { source: string }
  /** Tool input (hook `tool_call`/`tool_result` call record), for a recovered tool call. */
  input?: unknown
  /** The tool result reports an error. */
  isError?: boolean
  /** Search-index document ordinal (the message's 0-based index), for the duplicate check. */
  ordinal?: number
}

/** Fields of a row; the rest default to `''`. */
export type RowFields = Partial<TimelineRow> & { turnType: TimelineTurnType; sourceFile: string; agent: AgentId }

/** A row with every string column present (`''` when the store records nothing). */
export function makeRow(f: RowFields): TimelineRow {
  const row: TimelineRow = {
    sessionId: f.sessionId ?? '',
    projectPath: f.projectPath ?? '',
    gitBranch: f.gitBranch ?? '',
    turnType: f.turnType,
    model: f.model ?? '',
    toolName: f.toolName ?? '',
    toolUseId: f.toolUseId ?? '',
    text: f.text ?? '',
    sourceFile: f.sourceFile,
    agent: f.agent,
  }
  if (f.timestampUtc !== undefined && Number.isFinite(f.timestampUtc)) row.timestampUtc = f.timestampUtc
  if (f.sourceLine !== undefined) row.sourceLine = f.sourceLine
  if (f.recovered) row.recovered = { ...f.recovered }
  return row
}

/** A secondary-source row (see {@link SecondaryRow}). */
export function makeSecondaryRow(f: RowFields & { recovered: { source: string } }, extra: Pick<SecondaryRow, 'input' | 'isError' | 'ordinal'> = {}): SecondaryRow {
  const row = makeRow(f) as SecondaryRow
  if (extra.input !== undefined) row.input = clampValue(extra.input) // the 64-level cap holds here too (issue 16)
  if (extra.isError) row.isError = true
  if (extra.ordinal !== undefined) row.ordinal = extra.ordinal
  return row
}

/** Only the {@link TimelineRow} fields of a row (drops the IR extras of a {@link SecondaryRow}). */
export function publicRow(row: TimelineRow): TimelineRow {
  const { input: _i, isError: _e, ordinal: _o, ...rest } = row as SecondaryRow
  return rest
}

/**
 * A file as the seed's system rows name it (`.cline/data/globalState.json`,
 * `saoudrizwan.claude-dev/cache/sync-queue.json`): relative to the home with `/` separators when
 * inside it, else the absolute path.
 */
export function homeLabel(path: string, home: string): string {
  const rel = relative(home, path)
  if (!rel || rel.startsWith('..') || /^[a-zA-Z]:/.test(rel) || rel.startsWith(sep)) return path
  return rel.split(sep).join('/')
}

/** The label of a file under a VS Code `globalStorage`: from the extension folder on (`saoudrizwan.claude-dev/cache/x.json`). */
export function storageLabel(path: string, extensionRoot: string, extensionId: string): string {
  const rel = relative(extensionRoot, path)
  return rel.startsWith('..') ? path : [extensionId, ...rel.split(sep)].join('/')
}

/**
 * A tool input as row text: a string as it is, anything else as compact JSON. The same function
 * summarises transcript and hook-log inputs, so the two compare equal.
 */
export function inputText(input: unknown): string {
  if (input === undefined || input === null) return ''
  if (typeof input === 'string') return input
  try {
    return JSON.stringify(clampValue(input))
  } catch {
    return String(input)
  }
}

/**
 * A tool result's content as row text: a string as it is (a JSON `{"error": …}` string gives its
 * message), text blocks joined by blank lines, anything else as compact JSON.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') {
    const t = content.trim()
    if (t.startsWith('{') && t.endsWith('}')) {
      try {
        const v: unknown = JSON.parse(t)
        if (isRecord(v) && typeof v.error === 'string' && Object.keys(v).length === 1) return v.error
      } catch {
        // not JSON: keep the text
      }
    }
    return content
  }
  if (Array.isArray(content) && content.every((b) => isRecord(b) && typeof b.type === 'string')) {
    return content.map((b) => (isRecord(b) && typeof b.text === 'string' ? b.text : isRecord(b) ? `[${String(b.type)}]` : '')).filter(Boolean).join('\n\n')
  }
  return inputText(content)
}

/** `key=value` pairs joined by spaces, leaving out absent values (`undefined`, `null`, `''`). */
export function pairs(list: [string, unknown][]): string {
  return list
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(clampValue(v))}`)
    .join(' ')
}

/** `value`, or `-` when absent or empty (the seed's sync rows: `endpoint=<endpoint or ->`). */
export function orDash(value: unknown): string {
  return value === undefined || value === null || value === '' ? '-' : String(value)
}

/** A value as the seed's permission rows print it: strings raw, the rest as JSON. */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(clampValue(value))
}
