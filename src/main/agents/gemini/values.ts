/**
 * Small, total accessors for Gemini CLI records (plain JSON as the CLI wrote it) and the
 * `PartListUnion` normalisation the CLI itself applies (google-gemini/gemini-cli
 * packages/core/src/utils/sessionUtils.ts `ensurePartArray`: a string is `{text}`, a single part
 * is a list of one).
 */

/** A JSON object as stored. */
export type Json = Record<string, unknown>

/** `value` when it is a plain object, else undefined. */
export function obj(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined
}

/** `value` when it is a string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** `value` when it is a finite number, else undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** ISO-8601 time → ms since epoch; undefined when absent or unparsable. */
export function isoToMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : ms
}

/**
 * A `PartListUnion` (`string | Part | (string | Part)[]`, chatRecordingTypes.ts `content`) as a
 * list of part objects; strings become `{text}`. Anything else (null, numbers) gives `[]`.
 */
export function partsOf(content: unknown): Json[] {
  const one = (p: unknown): Json | undefined => (typeof p === 'string' ? { text: p } : obj(p))
  if (Array.isArray(content)) return content.map(one).filter((p): p is Json => p !== undefined)
  const p = one(content)
  return p ? [p] : []
}

/** Text of the non-thought `text` parts of a `PartListUnion`, joined without separator (the CLI's `partListUnionToString`). */
export function plainText(content: unknown): string {
  return partsOf(content)
    .filter((p) => p.thought !== true)
    .map((p) => str(p.text) ?? '')
    .join('')
}

/** Parse a JSON string; the raw string when it is not valid JSON; other values unchanged. */
export function jsonOrRaw(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    return value
  }
}
