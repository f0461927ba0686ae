/**
 * Turn what the user typed into an FTS5 MATCH expression (https://sqlite.org/fts5.html "Full-text
 * Query Syntax").
 *
 * - Words are ANDed. Each word is quoted, so FTS5 runs it through the index's tokenizer: a path
 *   (`src/main/lib.ts`) or a `snake_case` name becomes a phrase of its parts, and characters that
 *   mean something to FTS5 (`-`, `:`, `*`, `(`...) are plain text.
 * - `"several words"` is a phrase.
 * - `-word` excludes messages containing it (`a NOT b`); a query of exclusions only matches nothing.
 * - Chinese, Japanese and Korean words become phrases of bigrams (`search/cjk.ts`), so they match
 *   inside a longer run of such characters.
 * - The last word also matches as a prefix (search as you type) unless the text ends with a space
 *   or the word is quoted.
 */
import { ftsText } from './cjk'
import { tokensOf, type Term } from './snippet'

/** A parsed query. `match` is undefined when nothing can be searched (empty, only exclusions). */
export interface ParsedQuery {
  match?: string
  /** `match` without the prefix on the last word (tried first: cheaper, and usually enough). */
  exact?: string
  /** The positive words and phrases, for display. */
  terms: string[]
  /** The positive terms as tokens (for highlighting and scoring, see `snippet.ts`). */
  parts: Term[]
  /** The excluded words and phrases as tokens (`-word`), for backends that build their own query (the team catalog's tsquery). */
  excluded: Term[]
}

/** `text` as an FTS5 string (a phrase of its tokens), CJK runs as the index holds them (`cjk.ts`). */
function quote(text: string): string {
  return `"${ftsText(text).trim().replace(/"/g, '""')}"`
}

/** True when the text has something the tokenizer keeps (a letter or a digit). */
function searchable(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text)
}

/** Parse a search box query. Never throws. */
export function parseQuery(input: string): ParsedQuery {
  const text = typeof input === 'string' ? input : ''
  const words: { text: string; quoted: boolean; exclude: boolean }[] = []
  const re = /(-?)"([^"]*)"?|(\S+)/g
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[2] !== undefined) words.push({ text: m[2], quoted: true, exclude: m[1] === '-' })
    else {
      const w = m[3]!
      const exclude = w.startsWith('-') && w.length > 1
      words.push({ text: exclude ? w.slice(1) : w, quoted: false, exclude })
    }
  }
  const positives = words.filter((p) => !p.exclude && searchable(p.text))
  const negatives = words.filter((p) => p.exclude && searchable(p.text))
  if (positives.length === 0) return { terms: [], parts: [], excluded: [] }
  const endsOpen = !/\s$/.test(text)
  const last = words[words.length - 1]
  const parts: Term[] = []
  const exprs = positives.map((p) => {
    const prefix = endsOpen && p === last && !p.quoted && /[\p{L}\p{N}]$/u.test(p.text)
    parts.push({ tokens: tokensOf(p.text), prefix })
    return prefix ? `${quote(p.text)}*` : quote(p.text)
  })
  const combine = (list: string[]): string => {
    let m = list.join(' AND ')
    for (const n of negatives) m = `(${m}) NOT ${quote(n.text)}`
    return m
  }
  const match = combine(exprs)
  const out: ParsedQuery = { match, terms: positives.map((p) => p.text), parts, excluded: negatives.map((n) => ({ tokens: tokensOf(n.text), prefix: false })) }
  if (parts.some((p) => p.prefix)) out.exact = combine(exprs.map((e) => (e.endsWith('*') ? e.slice(0, -1) : e)))
  return out
}
