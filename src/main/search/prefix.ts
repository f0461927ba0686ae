/**
 * Prefix words (`getSess*`, search as you type) run as an OR of the indexed words they expand to.
 *
 * FTS5 evaluates a prefix by merging the doclists of every term that starts with it before it
 * yields a row (sqlite.org/fts5.html "prefix queries"; the `prefix=` option speeds up only prefixes
 * of the listed lengths, at 2x the insert cost, BENCHMARKS.md), so `ORDER BY rowid DESC LIMIT 151`
 * cannot stop early: on the bench catalog (204k messages) `getsess*` took 80-110 ms whether 151 or
 * all 88,703 matches were wanted, and was the search's p95 (issue 15). An OR of the same terms is
 * walked incrementally, newest first, and stops at the limit: 3 ms for its 108 terms (the same with
 * 1,024), plus ~6 ms to list the
 * terms from the index's own vocabulary (an `fts5vocab` table in the connection's `temp` schema;
 * nothing is written to the catalog).
 *
 * The rows are the same: the terms listed are exactly the index's terms that start with the
 * prefix (FTS5 compares terms as UTF-8 bytes, and so does the range below). Only a prefix that
 * FTS5 folds like ASCII is expanded (a trailing run of ASCII letters and digits after a separator:
 * unicode61 lowercases those and nothing else changes), into terms that are ASCII letters and
 * digits too, and only when it has at most {@link MAX_PREFIX_TERMS} terms; any other prefix, or a failure to list the terms, leaves the
 * expression as it was.
 */
import type Database from 'better-sqlite3'

/** Most terms a prefix is expanded to; above it FTS5's own prefix evaluation is kept. */
export const MAX_PREFIX_TERMS = 512

/** A quoted FTS5 string (`""` escapes a quote) followed by `*`. */
const PREFIXED = /"((?:[^"]|"")*)"\*/g
/** The last token of a phrase, when it is ASCII letters and digits. */
const ASCII_TAIL = /[A-Za-z0-9]+$/
/** A term that FTS5 tokenizes back to itself when quoted. */
const ASCII_TERM = /^[a-z0-9]+$/
/** A character unicode61 keeps in a token (letters, numbers, private use: its default token classes). */
const TOKEN_CHAR = /[\p{L}\p{N}\p{Co}]/u

const VOCAB = 'temp.sepia_fts_terms'
const ready = new WeakMap<Database.Database, Database.Statement | null>()

/** The statement listing terms in a range, creating the vocabulary table once per connection; null when impossible. */
function termsStatement(db: Database.Database): Database.Statement | null {
  let st = ready.get(db)
  if (st !== undefined) return st
  try {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${VOCAB} USING fts5vocab(search, 'fts', 'row')`)
    st = db.prepare(`SELECT term FROM ${VOCAB} WHERE term >= ? AND term < ? LIMIT ?`).pluck()
  } catch {
    st = null
  }
  ready.set(db, st)
  return st
}

/**
 * `match` (an FTS5 expression from `query.ts`) with each `"... word"*` whose last token is ASCII
 * replaced by `("... term1" OR "... term2" ...)` over the index's terms starting with that token.
 * Same rows as `match`; returns `match` itself when nothing was expanded.
 */
export function expandPrefixes(db: Database.Database, match: string): string {
  if (!match.includes('"*')) return match
  return match.replace(PREFIXED, (whole: string, body: string) => {
    const tail = ASCII_TAIL.exec(body)
    if (!tail) return whole
    const head = body.slice(0, tail.index)
    // The token must start here: a letter before it (`é` + `abc`) would be part of it.
    if (head !== '' && TOKEN_CHAR.test([...head.slice(-2)].pop()!)) return whole
    const st = termsStatement(db)
    if (!st) return whole
    const prefix = tail[0].toLowerCase()
    const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)
    let terms: string[]
    try {
      terms = st.all(prefix, upper, MAX_PREFIX_TERMS + 1) as string[]
    } catch {
      return whole
    }
    // A term with other characters would be folded again when quoted: keep FTS5's own expansion.
    if (terms.length === 0 || terms.length > MAX_PREFIX_TERMS || !terms.every((t) => ASCII_TERM.test(t))) return whole
    return `(${terms.map((t) => `"${head}${t}"`).join(' OR ')})`
  })
}
