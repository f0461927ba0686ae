/**
 * Small value helpers for the Devin reader: the store keeps JSON text in SQLite columns
 * (`chat_message`, node `metadata`, `tool_call_state` payloads, `sessions.metadata`) and mixes
 * unix seconds with milliseconds (`shared/formats/cursor-devin-atif-acp.md` C3/C4, edge case 34).
 */

/** A JSON object. */
export type Json = Record<string, unknown>

/** The value when it is a plain object (not null, not an array). */
export function obj(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined
}

/** The value when it is a string. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** The value when it is a non-empty string (Devin writes `''` for "unknown", e.g. `sessions.model`). */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

/** The value when it is a finite number (SQLite integers arrive as numbers; bigint is converted). */
export function num(value: unknown): number | undefined {
  if (typeof value === 'bigint') return Number(value)
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** The value when it is an array. */
export function arr(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined
}

/** Text of a SQLite TEXT or BLOB cell (a BLOB is decoded as UTF-8); undefined for NULL/other. */
export function cellText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8')
  return undefined
}

/**
 * A JSON.parse error in engine-independent words (V8's wording changes between Node versions,
 * goldens must not): `invalid JSON at character N` when the engine names a position.
 */
export function jsonError(e: unknown): string {
  const m = /position (\d+)/.exec(String((e as Error)?.message ?? e))
  return m ? `invalid JSON at character ${m[1]}` : 'invalid JSON'
}

/** Result of {@link parseJsonCell}: the value, or why it could not be parsed. */
export type Parsed = { ok: true; value: unknown } | { ok: false; error: string }

/** Parse a JSON text cell. NULL and empty text are `{ok: true, value: null}`. Never throws. */
export function parseJsonCell(value: unknown): Parsed {
  if (value === null || value === undefined) return { ok: true, value: null }
  const text = cellText(value)
  if (text === undefined) return { ok: false, error: `a ${typeof value} where JSON text was expected` }
  if (text.trim() === '') return { ok: true, value: null }
  try {
    return { ok: true, value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) }
  } catch (e) {
    return { ok: false, error: jsonError(e) }
  }
}

/**
 * Epoch time to ms. Devin writes unix **seconds** (`sessions.created_at`, `message_nodes.created_at`,
 * `subagent_heads.updated_at`); some tools and older rows hold ms. Values below 1e11 are read as
 * seconds (1e11 s is the year 5138; 1e11 ms is 1973), others as ms. Zero/negative → undefined.
 */
export function epochToMs(value: unknown): number | undefined {
  const n = num(value) ?? (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : undefined)
  if (n === undefined || n <= 0) return undefined
  return Math.round(n < 1e11 ? n * 1000 : n)
}

/** Parse an ISO 8601 / RFC 3339 time (µs precision allowed) to ms since epoch. */
export function isoToMs(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : undefined
}

/** A JSON string argument parsed when it is valid JSON, else kept as the raw string. */
export function argumentsOf(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {}
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}
