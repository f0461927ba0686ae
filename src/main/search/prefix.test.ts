/**
 * `expandPrefixes` (issue 15: the prefix query was the search's p95): the expanded expression
 * finds exactly the rows FTS5's own prefix evaluation finds, and is left alone where it could not
 * be (non-ASCII tokens, too many terms). The texts are written here; the expected rows come from
 * FTS5 running the original expression.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { openCatalog, FTS_TEXT_FUNCTION } from '../catalog/schema'
import { expandPrefixes, MAX_PREFIX_TERMS } from './prefix'
import { parseQuery } from './query'

const db = openCatalog(':memory:')
const texts = [
  'call getSession then getSessionPage(3)',
  'getSessionPage1 and getSessionPage2 return pages',
  'getsess is a typo; getSesame is not a match',
  'src/main/library_catalog.ts holds the library',
  'src/main/lib.ts and src/main/libs are folders',
  'café getSession inside prose',
  'xgetsession does not start with the prefix',
  'getsessé has an accent after the prefix',
  '東京getSession mixed scripts',
  'unrelated text about tokens',
]
const ins = db.prepare(`INSERT INTO fts(rowid, text) VALUES (?, ${FTS_TEXT_FUNCTION}(?))`)
texts.forEach((t, i) => ins.run(i + 1, t))
// Many terms under one prefix: `many0` .. `many599` (more than MAX_PREFIX_TERMS).
for (let i = 0; i < MAX_PREFIX_TERMS + 88; i++) ins.run(1000 + i, `many${i} filler`)
afterAll(() => db.close())

const rows = (match: string): number[] => (db.prepare('SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC').pluck().all(match) as number[])

describe('expandPrefixes', () => {
  it.each(['getSess', 'getsessionp', 'src/main/lib', 'library_cat', 'return getSessionPage', 'tok -getSess', 'getSess -page1', 'many5', 'caf', 'zzzz'])('%s: same rows as the prefix query', (q) => {
    const match = parseQuery(q).match!
    const expanded = expandPrefixes(db, match)
    expect(rows(expanded)).toEqual(rows(match))
  })

  it('expands a plain ASCII prefix into the index terms that start with it', () => {
    const expanded = expandPrefixes(db, '"getSess"*')
    expect(expanded).toMatch(/^\(.* OR .*\)$/)
    expect(expanded).toContain('"getsessionpage1"')
    expect(expanded).not.toContain('*')
    expect(rows(expanded)).toEqual(rows('"getSess"*'))
    expect(rows(expanded).length).toBeGreaterThan(3)
  })

  it('keeps the head of a phrase in front of every term', () => {
    const expanded = expandPrefixes(db, '"src/main/lib"*')
    expect(expanded).toContain('"src/main/lib"')
    expect(expanded).toContain('"src/main/library"')
    expect(expanded).toContain('"src/main/libs"')
  })

  it('leaves a prefix alone when its token is not ASCII, when it has too many terms, or when it matches no term', () => {
    expect(expandPrefixes(db, '"café"*')).toBe('"café"*')
    expect(expandPrefixes(db, '"éget"*')).toBe('"éget"*') // the token starts with é: not `get`
    expect(expandPrefixes(db, '"many"*')).toBe('"many"*')
    expect(expandPrefixes(db, '"zzzz"*')).toBe('"zzzz"*')
    // `getsessé` is indexed folded (`getsesse`, remove_diacritics): still found through the expansion.
    expect(rows(expandPrefixes(db, '"getsess"*'))).toEqual(rows('"getsess"*'))
  })

  it('returns an expression without prefixes unchanged', () => {
    expect(expandPrefixes(db, '"a" AND "b"')).toBe('"a" AND "b"')
  })
})
