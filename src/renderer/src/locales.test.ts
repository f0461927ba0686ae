/**
 * The message files (issue 17 "Languages"): every `locales/<code>.json` has exactly the keys of
 * `en.json`, the same `{placeholders}` in each message, plural forms that fit the language, and
 * compiles with vue-i18n; the `strings` tree over them hands out finished text; the language
 * follows the system's preferences, or the user's choice, live.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { formatCost, formatDateTime, formatNumber } from './format'
import { i18n, LOCALES, MESSAGES } from './i18n'
import { applyLocale, matchLocale, resolveLanguage, uiLocale } from './locale'
import { strings } from './strings'

type Tree = { [key: string]: string | Tree }
/** The files as they are on disk, by file name (`ja.json`), read without i18n.ts. */
const FILES: Record<string, Tree> = Object.fromEntries(
  Object.entries(import.meta.glob<Tree>('./locales/*.json', { import: 'default', eager: true })).map(([p, tree]) => [p.replace(/^.*\//, ''), tree]),
)

/** Every message of a file by dotted key. */
function flatten(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(`${prefix}${k}`, v)
    else flatten(v, `${prefix}${k}.`, out)
  }
  return out
}
/** The named placeholders of a message (`{name}`; literals like `{'@'}` are not placeholders). */
const placeholders = (m: string): string[] => [...new Set([...m.matchAll(/\{\s*([A-Za-z_]\w*)\s*\}/g)].map((x) => x[1] ?? ''))].sort()
/** The plural forms of a message (vue-i18n: separated by `|`). */
const forms = (m: string): string[] => m.split(/(?<!\{')\|(?!'\})/)

const files = Object.keys(FILES).sort()
const read = (f: string): Tree => FILES[f] ?? {}
const en = flatten(read('en.json'))

describe('locale files', () => {
  it('ship English and Japanese at least, each loaded by i18n.ts', () => {
    expect(files).toEqual(expect.arrayContaining(['en.json', 'ja.json']))
    expect([...LOCALES].sort()).toEqual(files.map((f) => f.replace(/\.json$/, '')).sort())
    expect(LOCALES[0]).toBe('en')
  })

  for (const file of files) {
    const code = file.replace(/\.json$/, '')
    const messages = flatten(read(file))

    it(`${file}: the keys of en.json, no more, no fewer`, () => {
      expect([...en.keys()].filter((k) => !messages.has(k)), 'missing keys').toEqual([])
      expect([...messages.keys()].filter((k) => !en.has(k)), 'extra keys').toEqual([])
    })

    it(`${file}: the same placeholders and fitting plural forms in every message`, () => {
      const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories
      const problems: string[] = []
      for (const [key, source] of en) {
        const m = messages.get(key)
        if (m === undefined) continue
        if (m.trim() === '') problems.push(`${key}: empty`)
        if (placeholders(m).join() !== placeholders(source).join()) problems.push(`${key}: {${placeholders(m).join('}, {')}} instead of {${placeholders(source).join('}, {')}}`)
        const n = forms(m).length
        if (forms(source).length === 1 && n > 1) problems.push(`${key}: plural forms where English has none`)
        if (forms(source).length > 1) {
          const wanted = categories.includes('one') ? 2 : 1
          if (n !== wanted && n !== forms(source).length) problems.push(`${key}: ${n} plural forms, ${code} needs ${wanted}`)
        }
      }
      expect(problems).toEqual([])
    })

    it(`${file}: every message compiles and renders with vue-i18n`, () => {
      const one = createI18n({ legacy: false, locale: code, messages: { [code]: read(file) }, missingWarn: false, fallbackWarn: false, warnHtmlMessage: false })
      const t = one.global.t as unknown as (key: string, named: Record<string, string>, plural: number) => string
      const bad: string[] = []
      for (const [key, m] of messages) {
        const named = Object.fromEntries(placeholders(m).map((p) => [p, `<${p}>`]))
        const out = t(key, named, 2)
        if (out === key || /\{\s*\w+\s*\}/.test(out)) bad.push(`${key}: ${out}`)
      }
      expect(bad).toEqual([])
    })
  }

  it('name each language in its own words', () => {
    expect(MESSAGES.en?.language.name).toBe('English')
    expect(MESSAGES.ja?.language.name).toBe('日本語')
  })
})

describe('strings over the locale files', () => {
  afterEach(() => applyLocale('en'))

  it('hands out finished text: no plain entry is a message that needs values', () => {
    const raw: string[] = []
    const walk = (o: object, path: string): void => {
      for (const [k, v] of Object.entries(o)) {
        const source = en.get(`${path}${k}`)
        if (typeof v === 'string') {
          if (source !== undefined && (placeholders(source).length > 0 || forms(source).length > 1)) raw.push(`${path}${k}: ${source}`)
        } else if (v && typeof v === 'object' && !Array.isArray(v)) walk(v, `${path}${k}.`)
      }
    }
    walk(strings, '')
    expect(raw).toEqual([])
  })

  it('switches language live: plain entries, functions, plurals and Intl formatting', () => {
    expect(strings.toolbar.reload).toBe('Reload')
    expect(strings.library.sessions(1)).toBe('1 session')
    expect(strings.library.sessions(1234)).toBe('1,234 sessions')
    expect(strings.palette.goTo('Usage')).toBe('Go to Usage')
    expect(strings.checkpoints.summary({ added: 1, modified: 2, deleted: 0, unchanged: 0 })).toBe('1 added, 2 changed')
    applyLocale('ja')
    expect(i18n.global.locale.value).toBe('ja')
    expect(strings.toolbar.reload).toBe('再読み込み')
    expect(strings.views.settings).toBe('設定')
    expect(strings.library.sessions(1)).toBe('1 件のセッション')
    expect(strings.palette.goTo(strings.views.usage)).toBe('使用量へ移動')
    expect(formatNumber(1234567)).toBe('1,234,567')
    expect(formatCost(1.5)).toMatch(/\$1\.50/)
    expect(formatDateTime(Date.UTC(2025, 2, 12, 12))).toMatch(/2025\/03\/12|2025年3月12日/)
    applyLocale('en')
    expect(strings.toolbar.reload).toBe('Reload')
    expect(formatDateTime(Date.UTC(2025, 2, 12, 12))).toMatch(/Mar 12, 2025|12 Mar 2025/)
  })

  it('follows the system languages, or the choice', () => {
    const available = ['en', 'ja', 'de', 'zh-CN']
    expect(matchLocale(['ja-JP', 'en-US'], available)).toBe('ja')
    expect(matchLocale(['fr-FR', 'de-AT'], available)).toBe('de')
    expect(matchLocale(['zh-Hans-CN'], available)).toBe('zh-CN')
    expect(matchLocale(['zh-TW'], available)).toBe('en')
    expect(matchLocale(['pt-BR'], available)).toBe('en')
    expect(matchLocale([], available)).toBe('en')
    expect(resolveLanguage('system', ['ja'], available)).toBe('ja')
    expect(resolveLanguage('de', ['ja'], available)).toBe('de')
    expect(resolveLanguage('ko', ['ja'], available)).toBe('ja')
    expect(uiLocale.value).toBe('en')
  })
})
