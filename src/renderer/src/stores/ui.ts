/**
 * The window's own state: the view shown, the theme, which dialog is open (open-folder, command
 * palette, About), and a passing notice (e.g. "drag and drop needs the desktop app"). The view is
 * kept in sessionStorage (a reload stays on it); the theme choice in localStorage (see theme.ts),
 * and the UI language choice too (see locale.ts).
 */
import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { LOCALES } from '../i18n'
import { applyLocale, loadLanguageChoice, resolveLanguage, saveLanguageChoice, systemLanguages, type LanguageChoice } from '../locale'
import { applyTheme, loadChoice, nextChoice, resolveTheme, saveChoice, systemDarkQuery, type ThemeChoice } from '../theme'
import { isViewId, type ViewId } from '../views'
import { useLibraryStore } from './library'

const VIEW_KEY = 'sepia.view'

/** A short message shown above the views, with an optional button. */
export interface Notice {
  message: string
  /** What the button does: open the folder dialog. */
  action?: 'open-folder'
  /** What the notice reports, for tests and styling (`data-kind` on the bar), e.g. 'put-back'. */
  kind?: string
}

function storedView(): ViewId {
  try {
    const v = sessionStorage.getItem(VIEW_KEY)
    return isViewId(v) ? v : 'library'
  } catch {
    return 'library'
  }
}

export const useUiStore = defineStore('ui', () => {
  const view = ref<ViewId>(storedView())
  const themeChoice = ref<ThemeChoice>(loadChoice())
  const systemDark = ref(false)
  const theme = computed(() => resolveTheme(themeChoice.value, systemDark.value))
  const languageChoice = ref<LanguageChoice>(loadLanguageChoice(LOCALES))
  const systemPreferred = ref<readonly string[]>(systemLanguages())
  /** The shipped language that best matches the system's preferences. */
  const systemLanguage = computed(() => resolveLanguage('system', systemPreferred.value, LOCALES))
  /** The UI language in effect (a locale file's code). */
  const language = computed(() => resolveLanguage(languageChoice.value, systemPreferred.value, LOCALES))
  const openFolderOpen = ref(false)
  const paletteOpen = ref(false)
  const aboutOpen = ref(false)
  const notice = ref<Notice | null>(null)
  /** "Collect for review…" (components/session-actions/CollectDialog.vue). */
  const collectOpen = ref(false)
  /** Bumped by Ctrl/Cmd-F while a session is open: the session view opens its find bar. */
  const findSeq = ref(0)
  /** "Open a session by id" (Ctrl/Cmd-G). */
  const openByIdOpen = ref(false)
  /** Session action dialogs open now (Continue in…, Checkpoints, Export…), by id. */
  const actionDialogs = ref<string[]>([])
  const anyDialogOpen = computed(
    () => openFolderOpen.value || openByIdOpen.value || paletteOpen.value || aboutOpen.value || collectOpen.value || actionDialogs.value.length > 0,
  )

  /** A session action dialog opened or closed (so the list shortcuts stay off while it is open). */
  function setActionDialog(id: string, open: boolean): void {
    const has = actionDialogs.value.includes(id)
    if (open && !has) actionDialogs.value = [...actionDialogs.value, id]
    else if (!open && has) actionDialogs.value = actionDialogs.value.filter((d) => d !== id)
  }

  watch(view, (v) => {
    try {
      sessionStorage.setItem(VIEW_KEY, v)
    } catch {
      // Not kept across reloads.
    }
  })

  /** Follow the system theme and apply the theme in effect to the document (call once, at start). */
  function startTheme(): void {
    const query = systemDarkQuery()
    systemDark.value = query.matches
    query.addEventListener('change', (e) => (systemDark.value = e.matches))
    watch(theme, (t) => applyTheme(t), { immediate: true })
  }

  /**
   * Follow the system's languages (the `languagechange` event) and put the UI language in effect
   * (vue-i18n, Intl formatting, `<html lang>`); call once, at start, before mounting.
   */
  function startLanguage(): void {
    if (typeof window !== 'undefined') window.addEventListener('languagechange', () => (systemPreferred.value = systemLanguages()))
    watch(language, (code) => applyLocale(code), { immediate: true, flush: 'sync' })
  }

  /** Choose the UI language, or `system` (kept for next time; applied at once, no reload). */
  function setLanguage(choice: LanguageChoice): void {
    languageChoice.value = choice
    saveLanguageChoice(choice)
  }

  /** Choose a theme (kept for next time). */
  function setTheme(choice: ThemeChoice): void {
    themeChoice.value = choice
    saveChoice(choice)
  }

  /** System → Light → Dark → System. */
  function cycleTheme(): void {
    setTheme(nextChoice(themeChoice.value))
  }

  /** Show a view. */
  function show(id: ViewId): void {
    view.value = id
  }

  /** "Open folder…": the system dialog in Electron, the typed-path dialog in browser mode. */
  async function openFolder(): Promise<void> {
    notice.value = null
    view.value = 'library'
    if ((await useLibraryStore().chooseFolder()) === 'ask') openFolderOpen.value = true
  }

  /** Open a folder (or zip, or store file) the user dropped on the window. */
  async function openDropped(path: string): Promise<void> {
    notice.value = null
    view.value = 'library'
    const library = useLibraryStore()
    const err = await library.openHome(path)
    if (err && library.library) library.actionError = err
  }

  return {
    view,
    themeChoice,
    theme,
    languageChoice,
    systemLanguage,
    language,
    openFolderOpen,
    paletteOpen,
    aboutOpen,
    collectOpen,
    findSeq,
    openByIdOpen,
    notice,
    anyDialogOpen,
    setActionDialog,
    startTheme,
    startLanguage,
    setLanguage,
    setTheme,
    cycleTheme,
    show,
    openFolder,
    openDropped,
  }
})
