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
 * Whether each UTF-16 unit 0..0xFFFF is a CJK character by itself (1) or not (0), built once per
 * thread from {@link CJK_CHAR} (~60k tests, a few ms): {@link ftsText} then looks each character
 * up instead of running a Unicode-property regex over every text (issue 15: the regex form was
 * ~35% of filling the search index). Surrogates are 0 here; astral characters are looked up in
 * {@link astral}.
 */
let bmp: Uint8Array | undefined
function bmpTable(): Uint8Array {
  if (bmp) return bmp
  const t = new Uint8Array(0x10000)
  // No CJK character lies below U+1100 (Hangul Jamo, the lowest of the four scripts).
  for (let c = 0x1100; c < 0x10000; c++) if ((c < 0xd800 || c > 0xdfff) && CJK_CHAR.test(String.fromCharCode(c))) t[c] = 1
  bmp = t
  return t
}

/** Whether an astral code point is CJK (Han extensions B-H, Kana supplements...), remembered per code point. */
const astralSeen = new Map<number, boolean>()
function astral(cp: number): boolean {
  let is = astralSeen.get(cp)
  if (is === undefined) {
    is = CJK_CHAR.test(String.fromCodePoint(cp))
    astralSeen.set(cp, is)
  }
  return is
}

/** A UTF-16 unit that may start a CJK character (every one is from U+1100 on; surrogates included). */
const CANDIDATE = /[\u1100-\uffff]/g

/** UTF-16 units of the CJK character at `i` of `text` (1 or 2), or 0 when none starts there. */
function cjkAt(text: string, i: number, t: Uint8Array): number {
  const c = text.charCodeAt(i)
  if (c < 0x1100) return 0
  if (t[c] === 1) return 1
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1)
    if (d >= 0xdc00 && d <= 0xdfff && astral(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000)) return 2
  }
  return 0
}

/**
 * `text` as the full-text index holds it: each CJK run replaced by its overlapping bigrams
 * separated by spaces (a run of one character stays as is), set apart from the letters around it.
 * Text without CJK characters is returned unchanged (the same string). Non-CJK characters keep
 * their order, so phrases across scripts (`foo 東京`) still match. The same result as replacing
 * every match of {@link CJK_RUN} (`ftsTextByRegex`, which `cjk.test.ts` compares it with), in one
 * pass over the character codes: a bigram is the slice of its two characters.
 */
export function ftsText(text: string): string {
  // Built at the first unit from U+1100 on: a text (or a query word) without one never needs it
  // (issue 15: building it was ~6 ms of every one-shot `sepia search` of an ASCII word).
  let t: Uint8Array | undefined
  const n = text.length
  let out = ''
  /** Start of the text not copied to `out` yet. */
  let copied = 0
  let i = 0
  while (i < n) {
    // Jump to the next unit from U+1100 on (a regex scan is faster than a loop over the codes).
    CANDIDATE.lastIndex = i
    if (!CANDIDATE.test(text)) break
    i = CANDIDATE.lastIndex - 1
    t ??= bmpTable()
    let w = cjkAt(text, i, t)
    if (w === 0) {
      i++
      continue
    }
    // A run starts at i: each bigram is text[a, c) where a, b, c are the starts of three characters.
    out += text.slice(copied, i) + ' '
    let a = i
    let b = i + w
    w = b < n ? cjkAt(text, b, t) : 0
    if (w === 0) out += text.slice(a, b)
    else {
      let first = true
      while (w !== 0) {
        const c = b + w
        out += first ? text.slice(a, c) : ' ' + text.slice(a, c)
        first = false
        a = b
        b = c
        w = b < n ? cjkAt(text, b, t) : 0
      }
    }
    out += ' '
    copied = b
    i = b
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/** The reference form of {@link ftsText}: a replace of every CJK run by a Unicode-property regex (kept for the tests). */
export function ftsTextByRegex(text: string): string {
  if (!CJK_CHAR.test(text)) return text
  return text.replace(CJK_RUN, (run) => {
    const chars = Array.from(run)
    if (chars.length === 1) return ` ${run} `
    const grams: string[] = []
    for (let i = 0; i + 1 < chars.length; i++) grams.push(chars[i]! + chars[i + 1]!)
    return ` ${grams.join(' ')} `
  })
}
