/**
 * Small JSON helpers shared by the Cursor readers (IDE `state.vscdb` values, agent CLI blobs and
 * transcripts), and the decoding of one SQLite `value` cell.
 *
 * Format facts (shared/formats/cursor-devin-atif-acp.md §A2, §F1): the `value` column of
 * `ItemTable`/`cursorDiskKV` is declared BLOB but holds UTF-8 JSON text in almost every row; some
 * rows are real BLOBs (JSON stored as bytes, or binary), some are SQL NULL, some are not JSON.
 * Seed 002 "Cursor" B adds that serialized values can be Python-literal-ish (`'…'`, `True`/`False`),
 * so a value that is not JSON is tried once more as a Python literal.
 */
import { parsePythonLiteral } from './pyliteral'

/** A JSON object as stored. */
export type Json = Record<string, unknown>

/** `value` when it is a plain object, else undefined. */
export function obj(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined
}

/** `value` when it is an array, else undefined. */
export function arr(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined
}

/** `value` when it is a string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** `value` when it is a non-blank string, else undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

/** `value` when it is a finite number, else undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/**
 * A time as ms since epoch: a number (ms) or a numeric string, or an ISO-8601 string. Values at
 * or below 1e12 (before Sep 2001) are rejected as "not ms since epoch" (§F5: `clientStartTime` is
 * process-relative, e.g. `62550.5`). Undefined when absent or unusable.
 */
export function toMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 1e12 ? Math.round(value) : undefined
  if (typeof value !== 'string' || value.trim() === '') return undefined
  if (/^\d+(\.\d+)?$/.test(value.trim())) return toMs(Number(value))
  const ms = Date.parse(value)
  return Number.isNaN(ms) || ms <= 1e12 ? undefined : ms
}

/** Text without a leading UTF-8 byte order mark. */
export function stripBom(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s
}

/** What {@link parseLoose} made of a text. */
export interface Parsed {
  value?: unknown
  /** How it was parsed when not plain JSON (`python-literal`, `double-encoded`). */
  via?: string
  /** Why it could not be parsed. */
  error?: string
}

/**
 * Parse JSON text tolerantly: a BOM is skipped; a JSON string that itself holds a JSON object or
 * array (double-encoded values, fixtures/public/cursor/luoyuctl__agenttrace__cursor-json-string-values.json)
 * is decoded once more; text that is not JSON is tried as a Python literal. Never throws.
 */
export function parseLoose(raw: string): Parsed {
  const s = stripBom(raw).trim()
  try {
    const v: unknown = JSON.parse(s)
    if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
      try {
        return { value: JSON.parse(v), via: 'double-encoded' }
      } catch {
        return { value: v }
      }
    }
    return { value: v }
  } catch (e) {
    const py = /^[[{]/.test(s) ? parsePythonLiteral(s) : undefined
    if (py !== undefined) return { value: py, via: 'python-literal' }
    return { error: (e as Error).message }
  }
}

/** A decoded SQLite `value` cell: the parsed JSON, or why it was skipped. */
export interface CellValue {
  value?: unknown
  /** Why the row is skipped (NULL, binary, not JSON). */
  problem?: string
  /** Something odd that was still read (stored as a BLOB, double-encoded, Python literal). */
  note?: string
}

/**
 * Decode one `value` cell as better-sqlite3 returns it (`string` for TEXT, `Buffer` for BLOB,
 * `null` for NULL, numbers for INTEGER/REAL). A BLOB holding UTF-8 JSON is read (with a note);
 * binary or non-JSON content is a problem. Never throws.
 */
export function decodeCell(cell: unknown): CellValue {
  if (cell === null || cell === undefined) return { problem: 'value is NULL' }
  let textValue: string
  let note: string | undefined
  if (Buffer.isBuffer(cell)) {
    textValue = cell.toString('utf8')
    if (textValue.includes('\uFFFD') || !/^\s*[[{"]/.test(stripBom(textValue))) return { problem: `value is a ${cell.length}-byte BLOB that is not JSON text` }
    note = 'value is stored as a BLOB; read as UTF-8 JSON'
  } else if (typeof cell === 'string') textValue = cell
  else return { problem: `value is a ${typeof cell}, not JSON text` }
  const parsed = parseLoose(textValue)
  if (parsed.error !== undefined) return { problem: `value is not JSON (${parsed.error})` }
  if (parsed.via !== undefined) note = [note, `value is ${parsed.via}`].filter(Boolean).join('; ')
  return note === undefined ? { value: parsed.value } : { value: parsed.value, note }
}

/** Parse a JSON-in-JSON string (`toolFormerData.rawArgs`): the parsed value, or the raw string when it is not JSON. */
export function jsonOrRaw(value: string): unknown {
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}
