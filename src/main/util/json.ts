/**
 * Tolerant JSON helpers for stores that write whole JSON files (Cline's `ui_messages.json`,
 * `api_conversation_history.json`, `state/taskHistory.json`, SDK `<id>.messages.json`).
 *
 * A file cut short by a crash or a full disk (fixture `fixtures/cases/cline/08-truncated-task`,
 * `fixtures/public/cline/luoyuctl__agenttrace__cline-broken-task__api_conversation_history.json`)
 * should still show what it holds: {@link salvageJsonArray} keeps every complete element before
 * the cut and says where the cut is.
 */

/** What {@link salvageJsonArray} recovered. */
export interface SalvagedArray {
  /** Every element that parsed, in file order (all of them when `complete`). */
  items: unknown[]
  /** True when the whole text is exactly one well-formed JSON array (surrounding whitespace allowed). */
  complete: boolean
  /**
   * 0-based character offset where reading stopped (the first element that did not parse, the
   * missing `]`, text after the array, or a first character that is not `[`). Absent when complete.
   */
  errorOffset?: number
  /** Plain-words reason when not complete. */
  error?: string
}

/**
 * Parse a JSON array, keeping the longest valid prefix of its elements when the text is
 * truncated or damaged. Never throws.
 *
 * Fast path: `JSON.parse` of the whole text. On failure the text is scanned element by element
 * (strings, escapes and nesting tracked) and each element is parsed on its own; reading stops at
 * the first element that is cut or malformed. A text that does not start with `[` (after an
 * optional BOM and whitespace) yields no items.
 */
export function salvageJsonArray(text: string): SalvagedArray {
  try {
    const whole: unknown = JSON.parse(stripBom(text))
    if (Array.isArray(whole)) return { items: whole, complete: true }
    return { items: [], complete: false, errorOffset: firstNonSpace(text, 0), error: 'the file is not a JSON array' }
  } catch {
    // fall through to the element scanner
  }
  const items: unknown[] = []
  let i = firstNonSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0)
  if (text[i] !== '[') {
    return { items, complete: false, errorOffset: i, error: 'the file is not a JSON array' }
  }
  i++
  for (;;) {
    i = firstNonSpace(text, i)
    if (i >= text.length) return { items, complete: false, errorOffset: i, error: 'the file ends before the array is closed' }
    if (text[i] === ']') {
      const after = firstNonSpace(text, i + 1)
      if (after < text.length) return { items, complete: false, errorOffset: after, error: 'unexpected text after the JSON array' }
      // The array closed but something inside failed the fast path (should not happen); report it.
      return { items, complete: false, errorOffset: i, error: 'the array is malformed' }
    }
    const start = i
    const end = scanValue(text, start)
    if (end === -1) return { items, complete: false, errorOffset: start, error: 'an element is cut short' }
    try {
      items.push(JSON.parse(text.slice(start, end)))
    } catch {
      return { items, complete: false, errorOffset: start, error: 'an element is not valid JSON' }
    }
    i = firstNonSpace(text, end)
    if (text[i] === ',') {
      i++
      continue
    }
    if (text[i] === ']') continue
    if (i >= text.length) return { items, complete: false, errorOffset: i, error: 'the file ends before the array is closed' }
    return { items, complete: false, errorOffset: i, error: 'expected "," or "]" between elements' }
  }
}

/**
 * 1-based line number of a 0-based character offset in `text` (for diagnostics that name the
 * line of a cut). Offsets past the end give the last line.
 */
export function lineAt(text: string, offset: number): number {
  let line = 1
  const end = Math.min(offset, text.length)
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

/**
 * Parse JSON, returning `undefined` instead of throwing. For values that a store sometimes
 * double-encodes (Cline `tool_result` content, ClineSayTool text).
 */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

function firstNonSpace(text: string, from: number): number {
  let i = from
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break
    i++
  }
  return i
}

/**
 * End offset (exclusive) of the JSON value starting at `start`, or -1 when the text ends inside
 * it. Only finds the extent; validity is left to JSON.parse.
 */
function scanValue(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') {
        inString = false
        if (depth === 0) return i + 1
      }
      continue
    }
    if (c === '"') inString = true
    else if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') {
      if (depth === 0) return i // a scalar ended by the enclosing array's ']'
      depth--
      if (depth === 0) return i + 1
    } else if (depth === 0 && (c === ',' || c === ' ' || c === '\n' || c === '\r' || c === '\t')) {
      return i // end of a scalar
    }
  }
  return -1
}
