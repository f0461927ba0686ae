/**
 * Light and dark theme. The user picks `system` (follow the operating system's
 * `prefers-color-scheme`), `light` or `dark`; the choice is kept in localStorage (`sepia.theme`).
 * The theme in effect is written to `<html data-theme="light|dark">`, which selects the colour
 * variables in `styles.css`, and to the `color-scheme` property (native controls, scroll bars).
 */

/** What the user chose. */
export type ThemeChoice = 'system' | 'light' | 'dark'
/** The theme in effect. */
export type Theme = 'light' | 'dark'

/** localStorage key of the choice. */
export const THEME_KEY = 'sepia.theme'
/** The choices in the order the theme button cycles through them. */
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark']

/** The theme in effect for a choice, given whether the system prefers dark. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  if (choice === 'system') return systemDark ? 'dark' : 'light'
  return choice
}

/** The choice after `choice` when cycling (system → light → dark → system). */
export function nextChoice(choice: ThemeChoice): ThemeChoice {
  const i = THEME_CHOICES.indexOf(choice)
  return THEME_CHOICES[(i + 1) % THEME_CHOICES.length] ?? 'system'
}

/** A stored value as a choice; anything unknown (or nothing) is `system`. */
export function parseChoice(value: string | null | undefined): ThemeChoice {
  return value === 'light' || value === 'dark' ? value : 'system'
}

/** The stored choice (`system` when storage is unavailable). */
export function loadChoice(): ThemeChoice {
  try {
    return parseChoice(localStorage.getItem(THEME_KEY))
  } catch {
    return 'system'
  }
}

/** Keep the choice; `system` removes the key. Storage errors (private mode) are ignored. */
export function saveChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY)
    else localStorage.setItem(THEME_KEY, choice)
  } catch {
    // Not kept across restarts; the choice still applies now.
  }
}

/** The operating system's colour-scheme query. */
export function systemDarkQuery(): MediaQueryList {
  return window.matchMedia('(prefers-color-scheme: dark)')
}

/** Put a theme in effect on the document. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = theme
  root.style.colorScheme = theme
}
