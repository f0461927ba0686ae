/**
 * Small, tolerant accessors for OpenCode-family JSON (`message.data`, `part.data`, storage files).
 *
 * OpenCode's own shapes are camelCase (`sessionID`, `time.created`, `tokens.cache.read`;
 * packages/opencode/src/session/message-v2.ts), but stores written by other versions, forks and
 * hand-written tools use `session_id`, `created_at`, seconds instead of milliseconds, or a JSON
 * string where an object is expected. Every accessor here accepts those variants and returns
 * `undefined` for anything else: a reader never invents values.
 */

/** A JSON object. */
export type Json = Record<string, unknown>

/** `v` when it is a plain object, else undefined. */
export function obj(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined
}

/** `v` when it is a string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined
}

/** `v` when it is a finite number (or a numeric string), else undefined. */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v)
  return undefined
}

/** The first of `keys` that `o` holds with a value other than undefined/null. */
export function pick(o: Json | undefined, ...keys: string[]): unknown {
  if (!o) return undefined
  for (const k of keys) {
    const v = o[k]
    if (v !== undefined && v !== null) return v
  }
  return undefined
}

/** The first of `keys` that is a non-empty string. */
export function pickStr(o: Json | undefined, ...keys: string[]): string | undefined {
  if (!o) return undefined
  for (const k of keys) {
    const v = o[k]
    if (typeof v === 'string' && v !== '') return v
  }
  return undefined
}

/** Parse a JSON text, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** An object stored either as an object or as a JSON string (SQLite text columns). */
export function objOrJson(v: unknown): Json | undefined {
  return obj(v) ?? (typeof v === 'string' ? obj(parseJson(v)) : undefined)
}

/** Below this a numeric time is taken as seconds (1e11 s is the year 5138; 1e11 ms is 1973). */
const SECONDS_LIMIT = 1e11

/**
 * A time as ms since epoch: numbers (ms, or seconds when below 1e11), numeric strings and ISO
 * strings. Undefined for anything else and for 0 (an unset default, never a real time).
 */
export function toMs(v: unknown): number | undefined {
  const n = num(v)
  if (n !== undefined) {
    if (n <= 0) return undefined
    return Math.round(n < SECONDS_LIMIT ? n * 1000 : n)
  }
  if (typeof v === 'string') {
    const t = Date.parse(v)
    return Number.isNaN(t) ? undefined : t
  }
  return undefined
}

/**
 * A named time of a record in any of the spellings OpenCode-family stores use, e.g. for
 * `created`: `time.created`, `time_created`, `created_at`, `createdAt`, `timeCreated`, `created`.
 */
export function timeOf(o: Json | undefined, name: string): number | undefined {
  if (!o) return undefined
  const cap = name[0]!.toUpperCase() + name.slice(1)
  return toMs(pick(obj(o.time), name) ?? pick(o, `time_${name}`, `${name}_at`, `${name}At`, `time${cap}`, name))
}

/** Sorted copy by `key`, then `id` (OpenCode orders messages by time_created, id). */
export function byTimeThenId<T extends { id: string }>(items: T[], key: (t: T) => number | undefined): T[] {
  return [...items].sort((a, b) => {
    const ta = key(a) ?? 0
    const tb = key(b) ?? 0
    if (ta !== tb) return ta - tb
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
  })
}

/** Sorted copy by `id` (OpenCode ids are time-ordered: `prt_<hex time><random>`). */
export function byId<T extends { id: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
