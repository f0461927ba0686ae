/**
 * Calendar days in an IANA time zone, with Intl only (no tz database of our own).
 */
import { SepiaError } from '../../shared/api'

const formats = new Map<string, Intl.DateTimeFormat>()

/** A cached `YYYY-MM-DD` formatter for `timeZone`. Throws `BAD_ARGUMENT` for an unknown zone. */
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone)
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    } catch {
      throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${timeZone}" is not a time zone Sepia knows. Use an IANA name such as "Europe/Paris" or "UTC".` })
    }
    formats.set(timeZone, f)
  }
  return f
}

/** Check a time zone name; returns it. Throws `BAD_ARGUMENT` when unknown. */
export function checkTimeZone(timeZone: string): string {
  formatter(timeZone)
  return timeZone
}

/** The machine's time zone (Intl's default). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

function parts(ms: number, timeZone: string): Record<string, number> {
  const out: Record<string, number> = {}
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) if (p.type !== 'literal') out[p.type] = Number(p.value)
  return out
}

const offsets = new Map<string, Map<number, number>>()

/**
 * The calendar day of `ms` in `timeZone`, `YYYY-MM-DD`. Offsets are cached per UTC day when the
 * zone's offset is the same at both ends of that day (no transition), else per quarter hour
 * (every zone changes offset on a quarter-hour boundary): bucketing many messages costs a few
 * Intl calls per day, not one per message.
 */
export function dayOf(ms: number, timeZone: string): string {
  let cache = offsets.get(timeZone)
  if (!cache) offsets.set(timeZone, (cache = new Map()))
  if (cache.size > 100_000) cache.clear()
  const day = Math.floor(ms / 86_400_000)
  let off = cache.get(-day - 1) // negative keys: whole UTC days
  if (off === undefined) {
    const a = offsetAt(day * 86_400_000, timeZone)
    const b = offsetAt(day * 86_400_000 + 86_399_999, timeZone)
    off = a === b ? a : NaN
    cache.set(-day - 1, off)
  }
  if (Number.isNaN(off)) {
    const q = Math.floor(ms / 900_000)
    off = cache.get(q)
    if (off === undefined) {
      off = offsetAt(q * 900_000, timeZone)
      cache.set(q, off)
    }
  }
  return new Date(ms + off).toISOString().slice(0, 10)
}

/** Offset of `timeZone` from UTC at `ms`, in ms (local − UTC). */
function offsetAt(ms: number, timeZone: string): number {
  const p = parts(ms, timeZone)
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!)
  return asUtc - Math.floor(ms / 60_000) * 60_000
}

/** ms since epoch of 00:00 of `day` (`YYYY-MM-DD`) in `timeZone`. Throws `BAD_ARGUMENT` for a bad date. */
export function startOfDay(day: string, timeZone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!m) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${day}" is not a date; use YYYY-MM-DD.` })
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  if (Number.isNaN(utc) || new Date(utc).toISOString().slice(0, 10) !== day) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${day}" is not a date; use YYYY-MM-DD.` })
  let guess = utc - offsetAt(utc, timeZone)
  guess = utc - offsetAt(guess, timeZone)
  return guess
}

/** The day after `day` (`YYYY-MM-DD`). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
}
