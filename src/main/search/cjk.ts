/**
 * Chinese, Japanese and Korean text in the full-text index (issue 15).
 *
 * FTS5's `unicode61` tokenizer makes a run of letters one token, and CJK text is written without
 * spaces: `東京都に行きました` is one token, so a search for `東京` inside it found nothing. The
 * catalog indexes such text as overlapping bigrams instead (what Lucene's CJKAnalyzer does): every
 * CJK run becomes its two-character windows, spaced apart (`東京 京都 都に に行 …`), and a query
 * word goes through the same transform, so `東京` is the token `東京` and `東京都` the phrase
 * `"東京 京都"`: any 2+ character word matches wherever it sits in a run. Text without CJK
 * characters is indexed unchanged (the same tokens, hence the same hits, as before).
 *
 * Why not FTS5's trigram tokenizer: it matches nothing for a query shorter than 3 characters
 * (sqlite.org/fts5.html "The Trigram Tokenizer"), and most Japanese and Chinese words have 2;
 * and it indexes all text as trigrams, which BENCHMARKS.md measured at 1.6 MB/s against 8.9 MB/s
 * and 179 MB of index against 82 MB. Bigrams of CJK runs only cost nothing for other text.
 *
 * Scripts: Han (with the CJK symbols block's iteration mark), Hiragana, Katakana, Hangul (Korean
 * words carry attached particles, so bigrams help there too). The index holds the transformed
 * text only; the stored text (`messages.text`) is the original, and snippets are cut from it.
 */

/** One CJK character. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u30FC]/u
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u30FC]+/gu

/** True when `text` holds a CJK character. */
export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text)
}

/** True when the one character `c` is CJK. */
export function isCjkChar(c: string): boolean {
  return CJK_CHAR.test(c)
}

/**
 * `text` as the full-text index holds it: each CJK run replaced by its overlapping bigrams
 * separated by spaces (a run of one character stays as is), set apart from the letters around it.
 * Text without CJK characters is returned unchanged (the same string). Non-CJK characters keep
 * their order, so phrases across scripts (`foo 東京`) still match.
 */
export function ftsText(text: string): string {
  if (!CJK_CHAR.test(text)) return text
  return text.replace(CJK_RUN, (run) => {
    const chars = Array.from(run)
    if (chars.length === 1) return ` ${run} `
    const grams: string[] = []
    for (let i = 0; i + 1 < chars.length; i++) grams.push(chars[i]! + chars[i + 1]!)
    return ` ${grams.join(' ')} `
  })
}
