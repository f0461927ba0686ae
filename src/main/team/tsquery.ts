/**
 * Full-text search on PostgreSQL with the SQLite catalog's tokenizer rules, so both catalogs
 * answer a query alike (the conformance suite, tests/team-conformance.test.ts, checks it).
 *
 * PostgreSQL's own parser (`to_tsvector('simple', ...)`) keeps `src/main/lib.ts` as one `file`
 * token and `a.b@c.d` as an `email`, where FTS5's unicode61 makes `src main lib ts`; a search for
 * `lib` would then miss. So Sepia tokenizes itself (`search/snippet.ts` `fold` and its token rule:
 * runs of letters and digits, case and common diacritics folded) and writes the `tsvector` as a
 * literal with positions (postgresql.org/docs/15/datatype-textsearch.html: `'src':1 'main':2`),
 * which the server stores as given; the GIN index over it serves `@@`.
 *
 * Queries: each term of `search/query.ts` becomes a tsquery: one token `'word'`, several a phrase
 * `'src' <-> 'main' <-> 'lib'`, the search-as-you-type prefix `'getsess':*`; excluded terms are
 * `!( ... )`. Limits of `tsvector` (same docs): a lexeme is at most 2,047 bytes (longer tokens are
 * left out), positions stop at 16,383 and a lexeme keeps 256 of them (the indexed text is capped
 * at 16,000 characters, `catalog/extract.ts`, so only phrases of very repetitive text can differ).
 */
import { fold, type Term } from '../search/snippet'

const TOKEN = /[\p{L}\p{N}]+/gu
/** Longest lexeme PostgreSQL accepts, in bytes (less a margin). */
const MAX_LEXEME_BYTES = 2000
/** Letters of scripts written without spaces between words: terms holding them also match as substrings (pg_trgm). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u

function lexeme(token: string): string {
  return `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
}

/** The `tsvector` literal of `text`: its folded tokens with positions (1-based). */
export function tsvectorOf(text: string): string {
  const out: string[] = []
  const folded = fold(text)
  let pos = 0
  TOKEN.lastIndex = 0
  for (let m = TOKEN.exec(folded); m; m = TOKEN.exec(folded)) {
    pos++
    if (Buffer.byteLength(m[0]) > MAX_LEXEME_BYTES) continue
    out.push(`${lexeme(m[0])}:${Math.min(pos, 16383)}`)
  }
  return out.join(' ')
}

/** The tsquery text of one term (a word, a phrase, or a prefix); undefined when it has no token. */
export function termQuery(term: Term): string | undefined {
  if (term.tokens.length === 0) return undefined
  const parts = term.tokens.map((t, i) => `${lexeme(t)}${term.prefix && i === term.tokens.length - 1 ? ':*' : ''}`)
  return parts.length === 1 ? parts[0] : `(${parts.join(' <-> ')})`
}

/**
 * The tsquery of a parsed query: positive terms ANDed, excluded ones negated. Undefined when no
 * positive term has a token (nothing to search).
 */
export function tsqueryOf(parts: readonly Term[], excluded: readonly Term[] = []): string | undefined {
  const pos = parts.map(termQuery).filter((q): q is string => q !== undefined)
  if (pos.length === 0) return undefined
  const neg = excluded.map(termQuery).filter((q): q is string => q !== undefined)
  return [...pos, ...neg.map((q) => `!${q}`)].join(' & ')
}

/** True when `text` holds letters of a script written without spaces (CJK, Thai). */
export function isUnspaced(text: string): boolean {
  return UNSPACED.test(text)
}

/** `text` as an ILIKE pattern matching it as a substring (`%`, `_` and `\` escaped). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
