/**
 * Fuzzy matching for the command palette. The query is words; each word must be found in the
 * text, in order (case-insensitive): best as a substring starting a word, then as any substring,
 * then as its letters in order (word starts and runs of letters preferred). The whole query found
 * as it is beats everything. So "go tim" finds "Go to Timeline" and "opf" finds "Open folder…".
 */

/** A match: a score (higher is better) and the indices of the matched characters of the text. */
export interface FuzzyMatch {
  score: number
  indices: number[]
}

const isWordStart = (text: string, i: number): boolean => i === 0 || /[\s\-_/.:·(\[]/.test(text[i - 1] ?? '')
const range = (start: number, length: number): number[] => Array.from({ length }, (_, k) => start + k)

/** One query word in `text` (lower-cased as `t`) from `from`; undefined when it is not there. */
function matchWord(w: string, text: string, t: string, from: number): { score: number; indices: number[]; end: number } | undefined {
  const any = t.indexOf(w, from)
  let i = any
  while (i >= 0 && !isWordStart(text, i)) i = t.indexOf(w, i + 1)
  if (i >= 0) return { score: 60 + w.length * 10, indices: range(i, w.length), end: i + w.length }
  if (any >= 0) return { score: 30 + w.length * 5, indices: range(any, w.length), end: any + w.length }
  // Its letters in order: the next word start holding the letter, unless it continues a run.
  const indices: number[] = []
  let score = 0
  let at = from
  for (const ch of w) {
    const plain = t.indexOf(ch, at)
    if (plain < 0) return undefined
    const prev = indices[indices.length - 1]
    let pick = plain
    if (prev === undefined || plain !== prev + 1) {
      for (let j = plain; j < t.length; j++) {
        if (t[j] === ch && isWordStart(text, j)) {
          pick = j
          break
        }
      }
    }
    score += (isWordStart(text, pick) ? 10 : 1) + (prev !== undefined && pick === prev + 1 ? 5 : 0)
    indices.push(pick)
    at = pick + 1
  }
  return { score, indices, end: at }
}

/** Match `query` against `text`; undefined when some word of the query is not found. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | undefined {
  const whole = query.trim().toLocaleLowerCase()
  const words = whole.split(/\s+/).filter(Boolean)
  if (words.length === 0) return { score: 0, indices: [] }
  const t = text.toLocaleLowerCase()
  const at = t.indexOf(whole)
  if (at >= 0) return { score: 1000 + whole.length * 10 + (isWordStart(text, at) ? 100 : 0) - at * 0.5, indices: range(at, whole.length) }
  const indices: number[] = []
  let score = 0
  let from = 0
  for (const w of words) {
    const m = matchWord(w, text, t, from)
    if (!m) return undefined
    score += m.score
    indices.push(...m.indices)
    from = m.end
  }
  return { score: score - (indices[0] ?? 0) * 0.1, indices }
}

/**
 * The items whose text matches, best first (stable for equal scores), at most `limit`.
 * An empty query keeps every item in its order.
 */
export function fuzzyFilter<T>(items: readonly T[], query: string, text: (item: T) => string, limit = Infinity): { item: T; match: FuzzyMatch }[] {
  const out: { item: T; match: FuzzyMatch; order: number }[] = []
  items.forEach((item, order) => {
    const match = fuzzyMatch(query, text(item))
    if (match) out.push({ item, match, order })
  })
  out.sort((a, b) => b.match.score - a.match.score || a.order - b.order)
  return out.slice(0, limit).map(({ item, match }) => ({ item, match }))
}
