/**
 * Formatting for display: dates, numbers, money and paths, in the user's locale (Intl with the
 * browser's default locale). Pure functions; no Vue.
 */
import type { AgentId, Usage } from '../../shared/ir'

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })
const dayKey = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' })
const numbers = new Intl.NumberFormat()
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 })
const list = new Intl.ListFormat(undefined, { style: 'short', type: 'unit' })
const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', maximumFractionDigits: 4 })

/** `${agent}/${id}`: the key of a session in the library and the store. */
export function sessionKey(agent: AgentId | string, id: string): string {
  return `${agent}/${id}`
}

/** A date and time (ms since epoch) in the user's locale, e.g. "12 Mar 2025, 14:03". */
export function formatDateTime(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? '' : dateTime.format(ms)
}

/**
 * The time of one message (ms since epoch): the time of day when it falls on the same local day
 * as `referenceMs` (the session start), else date and time.
 */
export function formatMessageTime(ms: number | undefined, referenceMs?: number): string {
  if (ms === undefined || !Number.isFinite(ms)) return ''
  if (referenceMs !== undefined && dayKey.format(ms) === dayKey.format(referenceMs)) return timeOnly.format(ms)
  return dateTime.format(ms)
}

/** An ISO 8601 string for `<time datetime>`; empty when absent. */
export function isoTime(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? '' : new Date(ms).toISOString()
}

/** An integer with locale grouping, e.g. "12,345". */
export function formatNumber(n: number): string {
  return numbers.format(n)
}

/** A token count, compact ("12.3K") above 10,000, exact below. */
export function formatTokens(n: number): string {
  return n >= 10_000 ? compact.format(n) : numbers.format(n)
}

/** US dollars, e.g. "$0.0123". */
export function formatCost(dollars: number): string {
  return usd.format(dollars)
}

/** A duration in ms as "850 ms", "12.3 s" or "4 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const m = Math.floor(ms / 60_000)
  const s = Math.round((ms % 60_000) / 1000)
  return `${m} min ${s} s`
}

/**
 * The last folder name of a path in either syntax ("/home/ana/src/app" → "app",
 * "C:\\Users\\ana\\app\\" → "app", "C:\\" → "C:\\"). The path is not otherwise changed.
 */
export function lastFolderName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '')
  if (trimmed === '') return path
  const parts = trimmed.split(/[\\/]/)
  const last = parts[parts.length - 1] ?? trimmed
  return /^[A-Za-z]:$/.test(last) && parts.length === 1 ? path : last
}

/** True when a usage record holds at least one number. */
export function hasUsage(u: Usage | undefined): u is Usage {
  return !!u && Object.values(u).some((v) => typeof v === 'number')
}

/** Field-by-field sum of usages; absent fields stay absent unless some input has them. */
export function sumUsage(list: (Usage | undefined)[]): Usage | undefined {
  let out: Usage | undefined
  for (const u of list) {
    if (!u) continue
    out ??= {}
    for (const k of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'thinkingTokens', 'cost'] as const) {
      const v = u[k]
      if (typeof v === 'number') out[k] = (out[k] ?? 0) + v
    }
  }
  return out
}

/** The first line of a text, cut to `max` characters with an ellipsis. */
export function firstLine(text: string, max = 160): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? ''
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** A list of words in the user's locale, e.g. "a, b, c". */
export function formatList(items: readonly string[]): string {
  return list.format(items)
}
