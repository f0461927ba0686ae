/**
 * Formatting for display: dates, numbers, money and paths, in the locale of the UI language
 * (`formatLocale()` in locale.ts: the language in effect, in the user's regional variant). The
 * formatters are made once per locale; a function reads the locale each call, so a component that
 * shows its result follows a language change. Pure otherwise; no component state.
 */
import type { AgentId, Usage } from '../../shared/ir'
import { formatLocale } from './locale'

/** Intl formatters of one locale. */
interface Formatters {
  dateTime: Intl.DateTimeFormat
  timeOnly: Intl.DateTimeFormat
  numbers: Intl.NumberFormat
  compact: Intl.NumberFormat
  list: Intl.ListFormat
  usd: Intl.NumberFormat
  decimal1: Intl.NumberFormat
}

const byLocale = new Map<string, Formatters>()
/** The calendar day of a time, as a key (the same in every locale; not shown). */
const dayKey = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' })

/** The formatters of the locale in effect (made on first use). */
function fmt(): Formatters {
  const locale = formatLocale()
  let f = byLocale.get(locale)
  if (!f) {
    f = {
      dateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
      timeOnly: new Intl.DateTimeFormat(locale, { timeStyle: 'medium' }),
      numbers: new Intl.NumberFormat(locale),
      compact: new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }),
      list: new Intl.ListFormat(locale, { style: 'short', type: 'unit' }),
      usd: new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: 4 }),
      decimal1: new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    }
    byLocale.set(locale, f)
  }
  return f
}

/** The locale dates and numbers are formatted in now (BCP 47), for Intl formatters made elsewhere. */
export function displayLocale(): string {
  return formatLocale()
}

/** `${agent}/${id}`: the key of a session in the library and the store. */
export function sessionKey(agent: AgentId | string, id: string): string {
  return `${agent}/${id}`
}

/** A date and time (ms since epoch) in the user's locale, e.g. "12 Mar 2025, 14:03". */
export function formatDateTime(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? '' : fmt().dateTime.format(ms)
}

/**
 * The time of one message (ms since epoch): the time of day when it falls on the same local day
 * as `referenceMs` (the session start), else date and time.
 */
export function formatMessageTime(ms: number | undefined, referenceMs?: number): string {
  if (ms === undefined || !Number.isFinite(ms)) return ''
  if (referenceMs !== undefined && dayKey.format(ms) === dayKey.format(referenceMs)) return fmt().timeOnly.format(ms)
  return fmt().dateTime.format(ms)
}

/** An ISO 8601 string for `<time datetime>`; empty when absent. */
export function isoTime(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? '' : new Date(ms).toISOString()
}

/** An integer with locale grouping, e.g. "12,345". */
export function formatNumber(n: number): string {
  return fmt().numbers.format(n)
}

/** A token count, compact ("12.3K") above 10,000, exact below. */
export function formatTokens(n: number): string {
  return n >= 10_000 ? fmt().compact.format(n) : fmt().numbers.format(n)
}

/** US dollars, e.g. "$0.0123". */
export function formatCost(dollars: number): string {
  return fmt().usd.format(dollars)
}

/** A duration in ms as "850 ms", "12.3 s" or "4 min 5 s" (the decimal sign of the locale). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${fmt().decimal1.format(Math.round(ms / 100) / 10)} s`
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
  return fmt().list.format(items)
}
