/**
 * The first-start welcome (issue 17): what Sepia found, the four things people come for, and
 * whether to show it. Pure except {@link welcomeOpen} (one shared flag, so the palette can open it
 * again) and the localStorage helpers.
 */
import { ref } from 'vue'
import type { Library } from '../../shared/api'
import { L, tr, trn, withValues } from './i18n'

/** localStorage key: set to "1" once the user closed the welcome. */
export const WELCOME_SEEN_KEY = 'sepia.welcome.seen'
/**
 * localStorage key: "1" shows the welcome even in an automated browser (`navigator.webdriver`),
 * where it is otherwise not shown on its own so other browser tests see the app as before.
 */
export const WELCOME_FORCE_KEY = 'sepia.welcome.force'

/** Whether the welcome dialog is open. */
export const welcomeOpen = ref(false)

/** The welcome's words (`welcome.*` in `locales/*.json`; plain entries are live getters, see i18n.ts). */
export const welcomeStrings = withValues(L.welcome, {
  line: (agent: string, sessions: number, projects: number): string =>
    projects > 0
      ? tr('welcome.lineWithProjects', { agent, sessions: trn('welcome.sessions', sessions), projects: trn('welcome.projects', projects) })
      : tr('welcome.line', { agent, sessions: trn('welcome.sessions', sessions) }),
  lineWithProjects: (agent: string, sessions: number, projects: number): string =>
    tr('welcome.lineWithProjects', { agent, sessions: trn('welcome.sessions', sessions), projects: trn('welcome.projects', projects) }),
  sessions: (n: number) => trn('welcome.sessions', n),
  projects: (n: number) => trn('welcome.projects', n),
  /** The four things people come for: `[what, how]`. */
  get tasks(): readonly (readonly [string, string])[] {
    const t = L.welcome.tasks
    return [
      [t.find.what, t.find.how],
      [t.continue.what, t.continue.how],
      [t.undo.what, t.undo.how],
      [t.share.what, t.share.how],
    ]
  },
})

/** One "Agent: N sessions in M projects" line per agent with sessions, in the library's agent order. */
export function welcomeSummary(library: Library): string[] {
  const out: string[] = []
  for (const a of library.agents) {
    const own = library.sessions.filter((s) => s.agent === a.id && !s.parentSessionId && !s.hidden)
    if (own.length === 0) continue
    const projects = new Set(own.map((s) => s.workingDirectory).filter((d): d is string => !!d)).size
    out.push(welcomeStrings.line(a.displayName, own.length, projects))
  }
  return out
}

/** Whether the welcome opens on its own: not seen yet, and (in an automated browser) only when forced. */
export function shouldAutoOpen(storage: Pick<Storage, 'getItem'> | undefined, webdriver: boolean): boolean {
  try {
    if (!storage || storage.getItem(WELCOME_SEEN_KEY) === '1') return false
    return !webdriver || storage.getItem(WELCOME_FORCE_KEY) === '1'
  } catch {
    return false
  }
}

/** Remember that the welcome was closed (ignored when storage is unavailable). */
export function rememberSeen(storage: Pick<Storage, 'setItem'> | undefined): void {
  try {
    storage?.setItem(WELCOME_SEEN_KEY, '1')
  } catch {
    /* private mode: the welcome shows again next time */
  }
}
