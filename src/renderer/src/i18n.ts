/**
 * vue-i18n for the renderer (issue 17 "Languages"): the message files `locales/<code>.json`
 * (`en.json` is the source and the schema; every other file has exactly its keys), one global
 * i18n instance that follows {@link uiLocale}, and the helpers `strings.ts` is built with.
 *
 * Components do not call `t` themselves: they read `strings` (strings.ts), a typed tree whose
 * plain entries are live getters over {@link tr} and whose entries that take values are
 * functions. Reading either inside a render or a `computed` tracks the language, so a language
 * change re-renders without a reload. The instance needs no `app.use` (tests render components
 * without it); main.ts installs it anyway for `$t` in a pinch.
 *
 * Plurals (vue-i18n `a | b` syntax) choose their form with `Intl.PluralRules` of the language:
 * one form: always it; two forms: `one | other`; three: `zero | one | other`.
 */
import { createI18n } from 'vue-i18n'
import { watch } from 'vue'
import en from './locales/en.json'
import { formatNumber } from './format'
import { DEFAULT_LOCALE, uiLocale, type LocaleCode } from './locale'

/** The shape of every message file: `en.json`'s. */
export type Messages = typeof en

/** Every message file under `./locales`, by code (the file name without `.json`). */
const files = import.meta.glob<{ default: Messages }>('./locales/*.json', { eager: true })
export const MESSAGES: Readonly<Record<LocaleCode, Messages>> = Object.fromEntries(
  Object.entries(files).map(([path, mod]) => [path.replace(/^.*\/([^/]+)\.json$/, '$1'), mod.default]),
)

/** The shipped languages: English first, then the others by code. */
export const LOCALES: readonly LocaleCode[] = [DEFAULT_LOCALE, ...Object.keys(MESSAGES).filter((c) => c !== DEFAULT_LOCALE).sort()]

/** A shipped language's name in that language (`language.name` of its file: "日本語"); the code when unknown. */
export function languageName(code: LocaleCode): string {
  return MESSAGES[code]?.language.name ?? code
}

/** The dotted path of every message of `T` (`"toolbar.more"`). */
type Paths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Paths<T[K], `${P}${K}.`>
}[keyof T & string]
/** A key of `en.json`; a key it lacks does not compile. */
export type MessageKey = Paths<Messages>
/** Values for a message's `{placeholders}`. */
export type Named = Record<string, string | number>

/** vue-i18n's plural rule for a language, from `Intl.PluralRules` (see the module comment). */
export function pluralRule(locale: LocaleCode): (choice: number, choicesLength: number) => number {
  const rules = new Intl.PluralRules(locale)
  return (choice, choicesLength) => {
    if (choicesLength <= 1) return 0
    const one = rules.select(Math.abs(choice)) === 'one'
    if (choicesLength === 2) return one ? 0 : 1
    return choice === 0 ? 0 : one ? 1 : 2
  }
}

/** The one i18n instance (Composition API mode). */
export const i18n = createI18n({
  legacy: false,
  locale: uiLocale.value,
  fallbackLocale: DEFAULT_LOCALE,
  messages: MESSAGES as Record<string, Messages>,
  pluralRules: Object.fromEntries(LOCALES.map((code) => [code, pluralRule(code)])),
  missingWarn: false,
  fallbackWarn: false,
  warnHtmlMessage: false,
})

watch(uiLocale, (code) => (i18n.global.locale.value = code), { flush: 'sync' })

const t = i18n.global.t as unknown as (key: string, named: Named, plural?: number) => string

/**
 * Rendered messages by language, key and values. vue-i18n's `t` costs tens of microseconds a call
 * (more in a development build), and a long transcript reads thousands of strings per render;
 * messages do not change while the app runs, so each rendering is kept (bounded: the map starts
 * afresh past {@link CACHE_LIMIT} entries). Reading {@link uiLocale} first keeps the caller
 * reactive to a language change.
 */
const cache = new Map<string, string>()
const CACHE_LIMIT = 20_000

function translate(key: string, named: Named, plural?: number): string {
  const locale = uiLocale.value
  let id = `${locale}\u0000${key}`
  for (const k in named) id += `\u0000${k}\u0001${named[k]}`
  if (plural !== undefined) id += `\u0000#${plural}`
  let out = cache.get(id)
  if (out === undefined) {
    out = plural === undefined ? t(key, named) : t(key, named, plural)
    if (cache.size >= CACHE_LIMIT) cache.clear()
    cache.set(id, out)
  }
  return out
}

/** A count formatted for the language in effect ("1,234", "1 234"). */
export function count(n: number): string {
  return formatNumber(n)
}

/** The message `key` in the language in effect, with `named` put in its `{placeholders}`. */
export function tr(key: MessageKey, named: Named = {}): string {
  return translate(key, named)
}

/**
 * A plural message: the form for `n` (see {@link pluralRule}), with `{n}` the count formatted for
 * the language and `named` in the other placeholders.
 */
export function trn(key: MessageKey, n: number, named: Named = {}): string {
  return translate(key, { ...named, n: count(n) }, n)
}

/**
 * A tree shaped like `en.json` whose every message is a getter returning it in the language in
 * effect (`live(en).toolbar.reload` → "Reload" or "再読み込み"). Messages with placeholders come
 * back raw; `strings.ts` puts a function over each of them ({@link withValues}).
 */
export function live<T extends object>(tree: T, prefix = ''): T {
  const out = {} as T
  for (const [k, v] of Object.entries(tree)) {
    const key = `${prefix}${k}`
    if (typeof v === 'string') Object.defineProperty(out, k, { enumerable: true, configurable: true, get: () => translate(key, {}) })
    else Object.defineProperty(out, k, { enumerable: true, configurable: true, value: live(v as object, `${key}.`) })
  }
  return out
}

/**
 * `base` (a {@link live} group) with `extra`'s members added or put in place of its own; getters
 * on either side stay getters (nothing is read now). Typed as the merge, `extra` winning.
 */
export function withValues<T extends object, F extends object>(base: T, extra: F): Omit<T, keyof F> & F {
  const out = {}
  Object.defineProperties(out, Object.getOwnPropertyDescriptors(base))
  Object.defineProperties(out, Object.getOwnPropertyDescriptors(extra))
  return out as Omit<T, keyof F> & F
}

/** The message tree of `en.json`, live (see {@link live}). */
export const L: Messages = live(en)
