/**
 * CJK search (issue 15) and the v8 index against the v7 one.
 *
 * - A 2+ character Japanese, Chinese or Korean word inside a longer run of such characters is
 *   found (the v7 index kept a run as one token, so only the whole run matched), with highlights.
 * - Over the real fixture homes (no CJK text), the v8 index (contentless, `ftsText`) gives exactly
 *   the matches of the v7 index (external content, plain text) for every query the fixtures'
 *   words make: the same session ids and message indexes, built here beside it as the reference.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AGENTS } from '../agents/registry'
import { findAppRoot } from '../context'
import { LibraryService } from '../library'
import { layoutForHome } from '../platform'
import { ftsText, ftsTextByRegex } from './cjk'
import { parseQuery } from './query'
import { searchCatalog } from './search'

const ROOT = findAppRoot()
const dir = mkdtempSync(join(tmpdir(), 'sepia-cjk-'))
const home = join(dir, 'home')
const ID = 'cccccccc-3333-4333-8333-000000000003'
/** Sentences whose words sit inside longer runs of CJK characters (no spaces). */
const TEXTS = [
  '昨日は東京都庁の近くで新しいラーメン屋を見つけました。',
  'このリポジトリの設定ファイルを読み込む関数がエラーを返します。',
  '我们需要修改数据库连接池的配置文件才能解决这个问题。',
  '请检查日志里面的错误信息然后重新部署服务器。',
  '로그인페이지에서오류가발생했습니다',
]
let lib: LibraryService

beforeAll(async () => {
  const cwd = '/home/ana/src/cjk'
  const folder = join(home, '.claude/projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'))
  mkdirSync(folder, { recursive: true })
  let parent: string | null = null
  const lines = TEXTS.map((text, i) => {
    const uuid = `${ID.slice(0, 24)}${String(i + 1).padStart(12, '0')}`
    const line = JSON.stringify({ parentUuid: parent, type: 'user', message: { role: 'user', content: text }, uuid, timestamp: `2026-05-01T10:0${i}:00.000Z`, cwd, sessionId: ID })
    parent = uuid
    return line
  })
  writeFileSync(join(folder, `${ID}.jsonl`), lines.join('\n') + '\n')
  lib = new LibraryService([{ layout: await layoutForHome({ home }), isDemo: false }], AGENTS, { now: () => 0 }, { workers: 0 })
  await lib.load()
  await lib.whenIdle()
})
afterAll(async () => {
  await lib.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Indexes of TEXTS containing `word` (an independent reading: a substring test). */
const expected = (word: string) => TEXTS.flatMap((t, i) => (t.includes(word) ? [i] : []))

describe('CJK search', () => {
  it('turns CJK runs into bigrams and leaves other text alone', () => {
    expect(ftsText('src/main/lib.ts café')).toBe('src/main/lib.ts café')
    expect(ftsText('東京都に')).toBe(' 東京 京都 都に ')
    expect(ftsText('a東b')).toBe('a 東 b')
  })

  it.each(['東京', '東京都', '設定', 'ファイル', 'エラー', '関数', '数据库', '配置文件', '日志', '服务器', '오류', '페이지'])('finds %s inside a longer run, highlighted', (word) => {
    const r = searchCatalog(lib.db, lib.homePaths, `${word} `)
    const want = expected(word)
    expect(want.length).toBeGreaterThan(0)
    expect(r.hits.map((h) => h.nodeIndex).sort()).toEqual(want)
    for (const h of r.hits) {
      expect(h.sessionId).toBe(ID)
      expect(h.highlights.map(([a, b]) => h.snippet.slice(a, b))).toContain(word)
    }
  })

  it('does not match the characters of a word out of order or apart', () => {
    expect(searchCatalog(lib.db, lib.homePaths, '京東 ').hits).toEqual([])
    expect(searchCatalog(lib.db, lib.homePaths, '東庁 ').hits).toEqual([])
  })

  it('matches a word as typed (prefix) and a phrase across scripts', () => {
    expect(searchCatalog(lib.db, lib.homePaths, '数据').hits.map((h) => h.nodeIndex)).toEqual([2])
    expect(searchCatalog(lib.db, lib.homePaths, '"東京都庁"').hits.map((h) => h.nodeIndex)).toEqual([0])
  })
})

describe('the v8 index against the v7 one', () => {
  let ref: LibraryService
  const refDir = mkdtempSync(join(tmpdir(), 'sepia-ftsref-'))
  afterAll(async () => {
    await ref?.close()
    rmSync(refDir, { recursive: true, force: true })
  })

  it('gives the same matches for the fixtures` words, phrases and prefixes', async () => {
    const homes = readdirSync(join(ROOT, 'fixtures/real'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(ROOT, 'fixtures/real', d.name, 'home'))
    ref = new LibraryService(await Promise.all(homes.map(async (h) => ({ layout: await layoutForHome({ home: h }), isDemo: false }))), AGENTS, { now: () => 0 }, { workers: 0, catalogPath: join(refDir, 'catalog.sqlite') })
    await ref.load()
    await ref.whenIdle()
    const db = ref.db
    // The v7 index: external content over messages.text, the same tokenizer, the raw text.
    db.exec(`CREATE VIRTUAL TABLE v7 USING fts5(text, content='messages', content_rowid='mid', tokenize='unicode61 remove_diacritics 2')`)
    db.exec(`INSERT INTO v7(rowid, text) SELECT mid, text FROM messages WHERE text != ''`)
    const words = new Map<string, number>()
    for (const t of db.prepare('SELECT text FROM messages ORDER BY mid').pluck().all() as string[]) for (const w of t.match(/[\p{L}\p{N}_./-]{3,}/gu) ?? []) words.set(w, (words.get(w) ?? 0) + 1)
    const picked = [...words].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w)
    const queries = [...picked.slice(0, 150), ...picked.filter((_, i) => i % 17 === 0).slice(0, 100)]
    for (let i = 0; i + 1 < 60; i += 2) queries.push(`${picked[i]} ${picked[i + 1]}`, `"${picked[i]} ${picked[i + 1]}"`, picked[i]!.slice(0, 4))
    const at = (table: string, match: string) =>
      (db.prepare(`SELECT s.session_id AS id, m.seq AS seq FROM ${table} f JOIN messages m ON m.mid = f.rowid JOIN sessions s ON s.sid = m.sid WHERE ${table} MATCH ? ORDER BY 1, 2`).all(match) as { id: string; seq: number }[]).map((r) => `${r.id}#${r.seq}`)
    let compared = 0
    let matched = 0
    for (const q of queries) {
      const p = parseQuery(q)
      for (const match of [p.match, p.exact]) {
        if (!match) continue
        const want = at('v7', match)
        expect(at('fts', match), `${q} → ${match}`).toEqual(want)
        compared++
        if (want.length) matched++
      }
    }
    expect(compared).toBeGreaterThan(250)
    expect(matched).toBeGreaterThan(200)
  })
})

describe('ftsText (one pass over the character codes) against the regex form', () => {
  it('gives the same text for every code point of planes 0-3 alone, doubled and next to a CJK character', () => {
    let compared = 0
    for (let c = 0; c < 0x40000; c++) {
      const ch = String.fromCodePoint(c)
      for (const s of [ch, `a${ch}${ch}b`, `${ch}東`, `京${ch}`]) {
        if (ftsText(s) !== ftsTextByRegex(s)) expect(ftsText(s), `U+${c.toString(16)} in ${JSON.stringify(s)}`).toBe(ftsTextByRegex(s))
        compared++
      }
    }
    expect(compared).toBe(0x40000 * 4)
  })

  it('gives the same text for random mixes of scripts, astral characters and lone surrogates', () => {
    // Han, Kana, Hangul (Jamo too), the iteration mark and long vowel, Han ext. B, a Kana
    // supplement, emoji, lone surrogates, punctuation, the units next to U+1100.
    const pool = ['a', ' ', '東', '京', '都', 'に', 'ー', '々', 'ア', '가', '\u1100', '\u10ff', '\ud840\udc00', '\ud82c\udc01', '\ud83d\ude00', '\ud840', '\udc00', '。', 'é', '\u3006', '\uff66', '\u2e80', '\u31f0', 'x']
    let seed = 7
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    for (let k = 0; k < 50_000; k++) {
      let s = ''
      for (let j = next(14); j > 0; j--) s += pool[next(pool.length)]
      if (ftsText(s) !== ftsTextByRegex(s)) expect(ftsText(s), JSON.stringify(s)).toBe(ftsTextByRegex(s))
    }
    // Unchanged text is the same string, not a copy.
    const plain = 'no CJK here — “quotes” and emoji 😀'
    expect(ftsText(plain)).toBe(plain)
    expect(ftsText('これは量子計算機の話です')).toBe(' これ れは は量 量子 子計 計算 算機 機の の話 話で です ')
  })
})
