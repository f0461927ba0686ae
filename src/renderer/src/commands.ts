/**
 * The command palette's commands, as data: actions (open folder, demo, reload, about, welcome), "Go to"
 * every view, the theme, the UI language, and one "open session" per session of the library. Pure: the palette
 * passes what the commands do ({@link CommandActions}); tests pass fakes.
 */
import type { Library } from '../../shared/api'
import type { AgentId } from '../../shared/ir'
import { formatDateTime, lastFolderName } from './format'
import { displayTitle } from './library-tree'
import { strings } from './strings'
import type { Theme, ThemeChoice } from './theme'
import { welcomeStrings } from './welcome'
import { VIEWS, type ViewId } from './views'

/** The kinds of command, in the order the palette lists them. */
export type CommandGroup = 'action' | 'view' | 'theme' | 'language' | 'session'

/** One command. */
export interface Command {
  /** Stable id (`open-folder`, `view:usage`, `theme:dark`, `session:<agent>/<id>`). */
  id: string
  group: CommandGroup
  label: string
  /** Dim text after the label (a session's agent, project and date). */
  detail?: string
  run: () => void
}

/** What the commands do. */
export interface CommandActions {
  openFolder(): void
  openDemo(): void
  reload(): void
  about(): void
  show(view: ViewId): void
  setTheme(choice: ThemeChoice): void
  openSession(agent: AgentId, id: string): void
  /** "Show the welcome" (the first-start welcome again; offered when given). */
  welcome?(): void
  /** "Collect for review…" (offered when given and the library is not the demo). */
  collectForReview?(): void
  /** Choose the UI language (`system` or a locale code; offered when given with `ctx.languages`). */
  setLanguage?(choice: string): void
}

/** What the command list depends on. */
export interface CommandContext {
  library: Library | null
  view: ViewId
  themeChoice: ThemeChoice
  /** The theme in effect (for "toggle"). */
  theme: Theme
  /** The UI language choice now (`system` or a code; locale.ts). */
  languageChoice?: string
  /** The language choices to offer, each with its label ("日本語", "Same as this computer (English)"). */
  languages?: readonly { choice: string; name: string }[]
}

/** Every command for the current state, actions first, sessions (newest first) last. */
export function buildCommands(ctx: CommandContext, act: CommandActions): Command[] {
  const p = strings.palette
  const out: Command[] = [
    { id: 'open-folder', group: 'action', label: p.openFolder, run: () => act.openFolder() },
    { id: 'demo', group: 'action', label: p.demo, run: () => act.openDemo() },
  ]
  if (ctx.library) out.push({ id: 'reload', group: 'action', label: p.reload, run: () => act.reload() })
  const collect = act.collectForReview
  if (collect && ctx.library && !ctx.library.homes.some((h) => h.isDemo)) out.push({ id: 'collect', group: 'action', label: strings.collect.open, run: () => collect() })
  out.push({ id: 'about', group: 'action', label: p.about, run: () => act.about() })
  const welcome = act.welcome
  if (welcome) out.push({ id: 'welcome', group: 'action', label: welcomeStrings.paletteLabel, run: () => welcome() })
  for (const v of VIEWS) if (v.id !== ctx.view) out.push({ id: `view:${v.id}`, group: 'view', label: p.goTo(v.label), run: () => act.show(v.id) })
  out.push({ id: 'theme:toggle', group: 'theme', label: p.toggleTheme, run: () => act.setTheme(ctx.theme === 'dark' ? 'light' : 'dark') })
  for (const choice of ['system', 'light', 'dark'] as const) {
    if (choice !== ctx.themeChoice) out.push({ id: `theme:${choice}`, group: 'theme', label: p.setTheme(strings.theme.names[choice]), run: () => act.setTheme(choice) })
  }
  const setLanguage = act.setLanguage
  if (setLanguage)
    for (const l of ctx.languages ?? [])
      if (l.choice !== ctx.languageChoice) out.push({ id: `language:${l.choice}`, group: 'language', label: p.setLanguage(l.name), run: () => setLanguage(l.choice) })
  const names = new Map(ctx.library?.agents.map((a) => [a.id, a.displayName]) ?? [])
  const sessions = [...(ctx.library?.sessions ?? [])].sort((a, b) => (b.createdAt ?? b.lastActivityAt ?? 0) - (a.createdAt ?? a.lastActivityAt ?? 0))
  for (const s of sessions) {
    const detail = [names.get(s.agent) ?? s.agent, s.workingDirectory ? lastFolderName(s.workingDirectory) : undefined, formatDateTime(s.createdAt) || undefined]
      .filter(Boolean)
      .join(' · ')
    out.push({ id: `session:${s.agent}/${s.id}`, group: 'session', label: p.openSession(displayTitle(s)), detail, run: () => act.openSession(s.agent, s.id) })
  }
  return out
}
