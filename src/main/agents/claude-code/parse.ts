/**
 * Tolerant parsing of one Claude Code JSONL line into records.
 *
 * The real CLI skips a line that is not JSON and keeps going (fixtures/real/claude-code/README.md,
 * hand-written variant "one line that is not JSON: resumed"); damaged files seen in the wild also
 * have a record cut short by a crash, two records glued on one line (an append after a cut-short
 * write), NUL padding and lone UTF-16 surrogate escapes (fixtures/cases/claude-code/04-broken-lines).
 * This module turns one line into the records it can read plus at most one problem report.
 */
import { cutOutsideSecrets } from '../../secrets/mask'
import { plural } from '../../../shared/plural'

/** One JSON object read from a line. */
export type RawRecord = Record<string, unknown>

/** What {@link parseLine} found on one line. */
export interface ParsedLine {
  /** Records read, in line order (usually one; more when records were glued together). */
  records: RawRecord[]
  /**
   * At most one problem per line: `error` when something on the line could not be read,
   * `warning` when everything was read but the line was damaged (glued records, NUL padding,
   * lone surrogates replaced by U+FFFD).
   */
  problem?: { severity: 'error' | 'warning'; message: string }
}

/** Largest number of `{"` starts tried when looking for a record after a cut-short one. */
const MAX_RESYNC_TRIES = 32

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
/** A `\uD8xx`-`\uDFxx` escape in raw JSON text: the only way a lone surrogate gets into a parsed string. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/

/** Replace lone UTF-16 surrogates with U+FFFD (String.prototype.toWellFormed, which ES2023 typings lack). */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD')
}

function isObject(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Parse JSON; when the text has surrogate escapes, every string (keys too) is made well-formed.
 * Returns `undefined` when the text is not JSON. `fixed` is set when a lone surrogate was replaced.
 */
function tryParse(text: string): { value: unknown; fixed: boolean } | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  // indexOf first: a plain scan, much cheaper than the regex over a long line without escapes.
  if (text.indexOf('\\u') === -1 || !SURROGATE_ESCAPE.test(text)) return { value, fixed: false }
  let fixed = false
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const w = wellFormed(v)
      if (w !== v) fixed = true
      return w
    }
    if (Array.isArray(v)) return v.map(walk)
    if (isObject(v)) {
      const out: RawRecord = {}
      for (const [k, x] of Object.entries(v)) out[wellFormed(k)] = walk(x)
      return out
    }
    return v
  }
  return { value: walk(value), fixed }
}

/**
 * Split text into top-level `{...}` pieces by brace depth, outside JSON strings. Text between
 * pieces (or an unclosed tail) becomes a piece of its own so that nothing is silently dropped.
 */
export function splitObjects(text: string): string[] {
  const pieces: string[] = []
  let depth = 0
  let inString = false
  let escaped = false
  let start = -1
  let last = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (escaped) escaped = false
      else if (c === 0x5c) escaped = true
      else if (c === 0x22) inString = false
      continue
    }
    if (c === 0x22) inString = true
    else if (c === 0x7b) {
      if (depth === 0) {
        if (text.slice(last, i).trim() !== '') pieces.push(text.slice(last, i))
        start = i
      }
      depth++
    } else if (c === 0x7d && depth > 0) {
      depth--
      if (depth === 0) {
        pieces.push(text.slice(start, i + 1))
        last = i + 1
      }
    }
  }
  if (text.slice(last).trim() !== '') pieces.push(text.slice(last))
  return pieces
}

/** Read as many records as possible from text that is not one JSON value. */
function salvage(text: string): { records: RawRecord[]; bad: number; fixed: boolean } {
  const records: RawRecord[] = []
  let bad = 0
  let fixed = false
  for (const piece of splitObjects(text)) {
    const p = tryParse(piece)
    if (p && isObject(p.value)) {
      records.push(p.value)
      fixed ||= p.fixed
      continue
    }
    // A record cut short and followed by a whole one on the same line: the brace scan is thrown
    // off by the unclosed string, so look for a later `{"` where a readable record starts.
    let from = 1
    for (let tries = 0; tries < MAX_RESYNC_TRIES; tries++) {
      const at = piece.indexOf('{"', from)
      if (at === -1) break
      const rest = salvageStrict(piece.slice(at))
      if (rest.length > 0) {
        records.push(...rest)
        break
      }
      from = at + 1
    }
    // Either way part of the piece (the cut-short head, or all of it) could not be read.
    bad++
  }
  return { records, bad, fixed }
}

/** Records of text made only of whole objects (no further resync); empty when any piece fails. */
function salvageStrict(text: string): RawRecord[] {
  const out: RawRecord[] = []
  for (const piece of splitObjects(text)) {
    const p = tryParse(piece)
    if (!p || !isObject(p.value)) return []
    out.push(p.value)
  }
  return out
}

/** Short, single-line preview of a bad line for a diagnostic message. */
function preview(text: string): string {
  const s = text.replace(/\0/g, '\\0').replace(/\s+/g, ' ')
  return cutOutsideSecrets(s, 61)
}

/**
 * Parse one line of a Claude Code JSONL file. Never throws. An empty line gives no records and
 * no problem. A leading BOM is ignored.
 */
export function parseLine(raw: string): ParsedLine {
  let text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw
  if (text.trim() === '') return { records: [] }
  const notes: string[] = []
  // NUL padding around a record (a crash that pre-allocated the file): drop it, keep the record.
  if (text.includes('\0')) {
    const trimmed = text.replace(/^\0+|\0+$/g, '')
    if (trimmed !== text) notes.push('NUL bytes around the record were removed')
    text = trimmed
    if (text.trim() === '') return { records: [], problem: { severity: 'warning', message: 'line holds only NUL bytes; skipped' } }
  }
  const whole = tryParse(text)
  if (whole) {
    if (!isObject(whole.value)) {
      return { records: [], problem: { severity: 'error', message: `line is JSON but not an object (${preview(text)}); skipped` } }
    }
    if (whole.fixed) notes.push('a lone UTF-16 surrogate was replaced by U+FFFD')
    return notes.length ? { records: [whole.value], problem: { severity: 'warning', message: notes.join('; ') } } : { records: [whole.value] }
  }
  const s = salvage(text)
  if (s.fixed) notes.push('a lone UTF-16 surrogate was replaced by U+FFFD')
  if (s.records.length === 0) {
    const why = text.includes('\0') ? 'NUL bytes inside the record' : 'cut short or damaged'
    return { records: [], problem: { severity: 'error', message: `line is not valid JSON (${why}): ${preview(text)}; skipped` } }
  }
  if (s.bad > 0) {
    const message = `line holds ${plural(s.records.length, 'readable record')} and ${plural(s.bad, 'unreadable part')}; the readable ones were kept`
    return { records: s.records, problem: { severity: 'error', message: [message, ...notes].join('; ') } }
  }
  notes.unshift(`${s.records.length} records were glued on one line; each was read`)
  return { records: s.records, problem: { severity: 'warning', message: notes.join('; ') } }
}
