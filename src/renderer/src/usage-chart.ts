/**
 * The Usage view's chart data: token kinds stacked per day, with the cost on a second axis.
 * Days without usage between the first and the last are filled with zeros (when the span is short
 * enough to read as a calendar), so gaps show as gaps. Pure, apart from {@link chartColors}
 * which reads the theme's CSS variables.
 */
import type { UsageRow } from '../../shared/catalog'

/** Longest span of days filled with empty days; longer spans show only the days with usage. */
export const MAX_FILLED_DAYS = 120

/** The token kinds stacked in the chart, in order (bottom to top). */
export const TOKEN_KINDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const
export type TokenKind = (typeof TOKEN_KINDS)[number]

/** The chart's series. */
export interface DaySeries {
  /** `YYYY-MM-DD` days. */
  days: string[]
  tokens: Record<TokenKind, number[]>
  /** USD per day. */
  cost: number[]
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}

/** Days between two `YYYY-MM-DD` days (b − a). */
export function daySpan(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000)
}

/** The series of a `by: "day"` report's rows (any order). */
export function daySeries(rows: readonly UsageRow[]): DaySeries {
  const byDay = new Map(rows.filter((r) => /^\d{4}-\d{2}-\d{2}$/.test(r.key)).map((r) => [r.key, r]))
  let days = [...byDay.keys()].sort()
  const first = days[0]
  const last = days[days.length - 1]
  if (first && last && daySpan(first, last) <= MAX_FILLED_DAYS) {
    days = Array.from({ length: daySpan(first, last) + 1 }, (_, i) => addDays(first, i))
  }
  const tokens = Object.fromEntries(TOKEN_KINDS.map((k) => [k, days.map((d) => byDay.get(d)?.[k] ?? 0)])) as Record<TokenKind, number[]>
  return { days, tokens, cost: days.map((d) => byDay.get(d)?.cost ?? 0) }
}

/** Colours of the chart, from the theme in effect (CSS variables `--chart-*`, `--fg-dim`, `--border`). */
export interface ChartColors {
  tokens: Record<TokenKind, string>
  cost: string
  text: string
  grid: string
}

/** Read the chart colours from the document's CSS variables. */
export function chartColors(el: Element = document.documentElement): ChartColors {
  const css = getComputedStyle(el)
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback
  return {
    tokens: {
      inputTokens: v('--chart-input', '#8a5422'),
      outputTokens: v('--chart-output', '#2f6f8f'),
      cacheReadTokens: v('--chart-cache-read', '#7a8f3a'),
      cacheWriteTokens: v('--chart-cache-write', '#a0527a'),
    },
    cost: v('--chart-cost', '#221e19'),
    text: v('--fg-dim', '#5f584f'),
    grid: v('--border', '#dcd4c7'),
  }
}
