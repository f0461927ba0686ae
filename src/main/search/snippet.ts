/**
 * Snippets and relevance computed in JavaScript from the matched messages' text.
 *
 * Why not FTS5's `snippet()`/`bm25()`: each call re-evaluates the MATCH expression, and a prefix
 * query (`"getSess"*`, every search-as-you-type query) expands to every indexed token with that
 * prefix on each call — measured at ~20 ms per row for `"snake_case_name"*` on a 120 MB corpus.
 * Scanning ≤ 200 candidate texts (each ≤ 16 kB) with one regular expression takes a few ms.
 *
 * Matching follows the index's tokenizer (unicode61: letters and digits make tokens, case and
 * diacritics ignored) closely enough for highlighting: a term is its tokens separated by
 * non-token characters, starting at a token boundary (CJK tokens match anywhere in a run, `cjk.ts`), ending at one unless it is the prefix term.
 */

import { isCjkChar } from './cjk'

/** One searched term: its tokens and whether the last one is a prefix. */
export interface Term {
  tokens: string[]
  prefix: boolean
}

/** A token: a run of CJK characters, or of other letters and digits (the index sets CJK runs apart, `cjk.ts`). */
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u30FC]+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u30FC])[\p{L}\p{N}])+/gu

/** Fold case and diacritics the way `unicode61 remove_diacritics 2` does (approximately). Keeps length. */
export function fold(text: string): string {
  return text.toLowerCase().replace(/[\u00C0-\u024F]/g, (c) => {
    const base = c.normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    return base.length === 1 ? base : c
  })
}

/** Split a term's text into folded tokens. */
export function tokensOf(text: string): string[] {
  return fold(text).match(TOKEN) ?? []
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** One regular expression matching any of `terms` in folded text (global, unicode). */
export function termsRegex(terms: readonly Term[]): RegExp | undefined {
  // A CJK token matches inside a longer run (the index holds bigrams, `cjk.ts`): no boundary next
  // to a CJK character, and tokens of two scripts may touch (`東京tower`).
  const cjkAt = (tok: string, end: boolean): boolean => isCjkChar(end ? Array.from(tok).at(-1)! : Array.from(tok)[0]!)
  const alts = terms
    .filter((t) => t.tokens.length > 0)
    .map((t) => {
      const first = t.tokens[0]!
      const last = t.tokens[t.tokens.length - 1]!
      let body = escape(first)
      for (let i = 1; i < t.tokens.length; i++) {
        const touch = cjkAt(t.tokens[i - 1]!, true) || cjkAt(t.tokens[i]!, false)
        body += (touch ? '[^\\p{L}\\p{N}]*' : '[^\\p{L}\\p{N}]+') + escape(t.tokens[i]!)
      }
      const before = cjkAt(first, false) ? '' : '(?<![\\p{L}\\p{N}])'
      const after = t.prefix || cjkAt(last, true) ? '' : '(?![\\p{L}\\p{N}])'
      return `${before}${body}${after}`
    })
  return alts.length ? new RegExp(alts.join('|'), 'gu') : undefined
}

/** Matches of `re` in `text`: [start, end) offsets (of the original text; folding keeps lengths). */
export function matchesIn(text: string, re: RegExp): [number, number][] {
  const out: [number, number][] = []
  const folded = fold(text)
  re.lastIndex = 0
  for (let m = re.exec(folded); m; m = re.exec(folded)) {
    if (m[0].length === 0) {
      re.lastIndex++
      continue
    }
    out.push([m.index, m.index + m[0].length])
  }
  return out
}

/**
 * A BM25-like score (higher is better): term frequency saturated (k1 = 1.2) and normalised by
 * length against `avgLength` (b = 0.75). Every candidate contains every term, so the idf part is
 * the same for all and left out.
 */
export function scoreOf(matches: number, length: number, avgLength: number): number {
  const k1 = 1.2
  const b = 0.75
  const norm = 1 - b + (b * length) / Math.max(1, avgLength)
  return (matches * (k1 + 1)) / (matches + k1 * norm)
}

/**
 * A snippet of about `width` characters around the first match, cut at spaces with `…`, and the
 * highlight ranges inside it. Whitespace runs become one space.
 */
export function snippetOf(text: string, matches: readonly [number, number][], width = 160): { snippet: string; highlights: [number, number][] } {
  const first = matches[0]
  let start = 0
  if (first && first[0] > width / 3) {
    start = first[0] - Math.floor(width / 3)
    const space = text.lastIndexOf(' ', start)
    if (space > start - 20 && space >= 0) start = space + 1
  }
  let end = Math.min(text.length, start + width)
  if (first && first[1] > end) end = Math.min(text.length, first[1] + 20)
  if (end < text.length) {
    const space = text.indexOf(' ', end)
    if (space >= 0 && space < end + 20) end = space
  }
  const pre = start > 0 ? '…' : ''
  const post = end < text.length ? '…' : ''
  // Build the snippet char by char so highlight offsets follow the whitespace collapsing.
  let out = pre
  const map = new Map<number, number>()
  let inSpace = false
  for (let i = start; i < end; i++) {
    map.set(i, out.length)
    const c = text[i]!
    if (/\s/.test(c)) {
      if (!inSpace) out += ' '
      inSpace = true
    } else {
      out += c
      inSpace = false
    }
  }
  map.set(end, out.length)
  const highlights: [number, number][] = []
  for (const [a, b] of matches) {
    if (a < start || b > end) continue
    highlights.push([map.get(a)!, map.get(b)!])
  }
  return { snippet: out + post, highlights }
}
