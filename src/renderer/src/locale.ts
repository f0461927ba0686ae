/**
 * The UI language in effect and the user's choice of it (issue 17 "Languages").
 *
 * The user picks `system` (follow the operating system: `navigator.languages`, best match among the
 * languages Sepia ships) or one language code; the choice is kept in localStorage
 * (`sepia.language`). The language in effect is {@link uiLocale}: vue-i18n (`i18n.ts`) and the
 * Intl formatters (`format.ts`) follow it, so a change applies live, without a reload, and
 * `<html lang>` follows it too. No Vue component state here; no vue-i18n import.
 */
import { ref } from 'vue'

/** A language code as the locale files are named (BCP 47: `en`, `ja`, `zh-CN`). */
export type LocaleCode = string
/** What the user chose: follow the system, or one language. */
export type LanguageChoice = 'system' | LocaleCode

/** localStorage key of the choice (absent: `system`). */
export const LANGUAGE_KEY = 'sepia.language'
/** The language used when nothing better matches, and the source of every message. */
export const DEFAULT_LOCALE: LocaleCode = 'en'

/** The language in effect (a code of a shipped locale file). Reactive: read it to follow changes. */
export const uiLocale = ref<LocaleCode>(DEFAULT_LOCALE)

/** The language subtag of a BCP 47 tag, lower case (`zh-Hant-TW` → `zh`). */
function languageOf(tag: string): string {
  return tag.split(/[-_]/)[0]?.toLowerCase() ?? ''
}

/**
 * Whether a Chinese tag asks for Traditional script (`zh-Hant`, `zh-TW`, `zh-HK`, `zh-MO`), which
 * Sepia's `zh-CN` (Simplified) does not serve.
 */
function isTraditionalChinese(tag: string): boolean {
  return /^zh[-_](hant|tw|hk|mo)\b/i.test(tag)
}

/**
 * The best shipped language for the user's preferred languages (most preferred first, as
 * `navigator.languages`): an exact match (case-insensitive), else the same language (`de-AT` →
 * `de`, `zh-Hans-SG` → `zh-CN`, `en-GB` → `en`), tried per preference in order; else
 * {@link DEFAULT_LOCALE}. Traditional Chinese does not match Simplified.
 */
export function matchLocale(preferred: readonly string[], available: readonly LocaleCode[]): LocaleCode {
  for (const tag of preferred) {
    const exact = available.find((a) => a.toLowerCase() === tag.toLowerCase())
    if (exact) return exact
    if (isTraditionalChinese(tag)) continue
    const lang = languageOf(tag)
    const same = available.find((a) => languageOf(a) === lang)
    if (same) return same
  }
  return available.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : (available[0] ?? DEFAULT_LOCALE)
}

const NONE: readonly string[] = []

/** The operating system's preferred languages as the page sees them (empty outside a browser). */
export function systemLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return NONE
  if (navigator.languages?.length) return navigator.languages
  return navigator.language ? [navigator.language] : []
}

/** A stored value as a choice: a shipped code, else `system`. */
export function parseLanguageChoice(value: string | null | undefined, available: readonly LocaleCode[]): LanguageChoice {
  return value && available.includes(value) ? value : 'system'
}

/** The stored choice (`system` when none, unknown, or storage is unavailable). */
export function loadLanguageChoice(available: readonly LocaleCode[]): LanguageChoice {
  try {
    return parseLanguageChoice(localStorage.getItem(LANGUAGE_KEY), available)
  } catch {
    return 'system'
  }
}

/** Keep the choice; `system` removes the key. Storage errors (private mode) are ignored. */
export function saveLanguageChoice(choice: LanguageChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(LANGUAGE_KEY)
    else localStorage.setItem(LANGUAGE_KEY, choice)
  } catch {
    // Not kept across restarts; the choice still applies now.
  }
}

/** The language in effect for a choice. */
export function resolveLanguage(choice: LanguageChoice, preferred: readonly string[], available: readonly LocaleCode[]): LocaleCode {
  return choice !== 'system' && available.includes(choice) ? choice : matchLocale(preferred, available)
}

/** Put a language in effect: {@link uiLocale} and, in a page, `<html lang>`. */
export function applyLocale(code: LocaleCode): void {
  uiLocale.value = code
  if (typeof document !== 'undefined') document.documentElement.lang = code
}

/**
 * The locale for dates, numbers and money (Intl): the user's own regional variant of the language
 * in effect when the system prefers one (`en-GB` when the UI is English and the system says
 * `en-GB`, so dates read day-first), else the language in effect itself. Reactive like
 * {@link uiLocale}.
 */
export function formatLocale(): string {
  const ui = uiLocale.value
  const preferred = systemLanguages()
  if (lastFormat && lastFormat.ui === ui && lastFormat.preferred === preferred) return lastFormat.locale
  const locale = regionalVariant(ui, preferred)
  lastFormat = { ui, preferred, locale }
  return locale
}

/** The last answer of {@link formatLocale} (it runs for every number and date shown). */
let lastFormat: { ui: LocaleCode; preferred: readonly string[]; locale: string } | undefined

/** The first of `preferred` in the language of `ui` (same script for Chinese), canonical; else `ui`. */
function regionalVariant(ui: LocaleCode, preferred: readonly string[]): string {
  const lang = languageOf(ui)
  for (const tag of preferred) {
    if (languageOf(tag) !== lang || isTraditionalChinese(tag) !== isTraditionalChinese(ui)) continue
    try {
      return Intl.getCanonicalLocales(tag)[0] ?? ui
    } catch {
      // Not a valid tag: try the next one.
    }
  }
  return ui
}
