/**
 * Every user-facing string of the renderer, as one typed tree over the message files
 * (`locales/<code>.json`, vue-i18n; see i18n.ts).
 *
 * A plain entry (`strings.toolbar.reload`) is a getter: it returns the message in the language in
 * effect, so a template or `computed` that reads it follows a language change. An entry that takes
 * values is a function (`strings.palette.goTo(view)`). Numbers and dates passed in are already
 * formatted for the user's locale (see `format.ts`), except counts used for plural choice, which
 * are formatted here. The words themselves live only in the JSON files: `en.json` is the schema.
 */
import type { ErrorCode } from '../../shared/api'
import { isProblem, type Role, type SessionStatus, type ToolCallStatus, type ToolKind } from '../../shared/ir'
import { count, L, tr, trn, withValues } from './i18n'
import type { ThemeChoice } from './theme'
import type { ViewId } from './views'
import { healthStrings } from './components/health/strings-health'
import { actionStrings } from './strings-actions'
import { viewStrings } from './strings-views'
import { welcomeStrings } from './welcome'
import { archiveStrings } from './strings-archive'
import { moveStrings } from './strings-move'

/** The strings, grouped by where they appear. */
export const strings = withValues(L, {
  toolbar: withValues(L.toolbar, {
    more: (n: number) => tr('toolbar.more', { n: count(n) }),
  }),

  library: withValues(L.library, {
    noMatch: (q: string) => tr('library.noMatch', { q }),
    sessions: (n: number) => trn('library.sessions', n),
    messages: (n: number) => trn('library.messages', n),
    /** Title of a session's machine in a team catalog (issue 20). */
    machine: (name: string) => tr('library.machine', { name }),
    subagents: (n: number) => trn('library.subagents', n),
    collapse: (name: string) => tr('library.collapse', { name }),
    expand: (name: string) => tr('library.expand', { name }),
    showHidden: (n: number) => trn('library.showHidden', n),
    hideHidden: (n: number) => trn('library.hideHidden', n),
  }),

  views: L.views satisfies Record<ViewId, string> & { label: string },

  theme: withValues(L.theme, {
    /** Label of the theme button: what is in effect and what a click does. */
    button: (current: string, next: string) => tr('theme.button', { current, next }),
    names: L.theme.names satisfies Record<ThemeChoice, string>,
  }),

  palette: withValues(L.palette, {
    /** The shortcut, with the platform's modifier (`Ctrl+` or `⌘`). */
    shortcut: (mod: string) => tr('palette.shortcut', { mod }),
    noMatch: (q: string) => tr('palette.noMatch', { q }),
    goTo: (view: string) => tr('palette.goTo', { view }),
    setTheme: (name: string) => tr('palette.setTheme', { name }),
    setLanguage: (name: string) => tr('palette.setLanguage', { name }),
    openSession: (title: string) => tr('palette.openSession', { title }),
  }),

  about: withValues(L.about, {
    /** Keys and what they do; `mod` is the platform's modifier (`Ctrl+` or `⌘`). */
    shortcuts: (mod: string): [string, string][] => [
      ['↑ ↓  j k', L.about.keys.move],
      ['Enter', L.about.keys.open],
      ['/', L.about.keys.filter],
      [`${mod}F`, L.about.keys.find],
      [`${mod}G`, L.about.keys.openById],
      [`${mod}K`, L.about.keys.palette],
      ['Esc', L.about.keys.close],
    ],
  }),

  progress: withValues(L.progress, {
    sessions: (done: string, total: string) => tr('progress.sessions', { done, total }),
    messages: (done: string, total: string) => tr('progress.messages', { done, total }),
  }),

  states: withValues(L.states, {
    emptyBody: (home: string) => tr('states.emptyBody', { home }),
    errorCode: (code: string) => tr('states.errorCode', { code }),
    /** Browser mode: the loopback server is gone (`detail`: what fetch threw). */
    serverNoAnswer: (detail: string) => tr('states.serverNoAnswer', { detail }),
    /** Browser mode: an answer that is not Sepia's (`status`: the HTTP status). */
    serverBadAnswer: (status: number) => tr('states.serverBadAnswer', { status: String(status) }),
  }),

  /** What to do next, per error code: plain words for people who are not engineers. */
  errorAdvice: L.errorAdvice satisfies Record<ErrorCode, string>,

  diagnostics: withValues(L.diagnostics, {
    /**
     * The banner over a list of diagnostics. `error` diagnostics and skipped ones (`isProblem`: a
     * file not read, a record skipped) mean something was left out; other warnings and notes (a
     * branch that starts anew, an unknown record kind counted) lost nothing.
     */
    libraryTitle: (list: readonly { path: string; severity: string; skipped?: number | undefined }[]) => {
      const errors = list.filter(isProblem)
      const files = trn('diagnostics.files', new Set((errors.length ? errors : list).map((d) => d.path)).size)
      return errors.length
        ? tr('diagnostics.libraryErrors', { files, problems: trn('diagnostics.problems', errors.length) })
        : tr('diagnostics.libraryNotes', { notes: trn('diagnostics.notes', list.length), files })
    },
    /** The parts of {@link libraryTitle}: `files`, `problems`, `notes` as the plural entries below say them. */
    libraryErrors: (files: string, problems: string) => tr('diagnostics.libraryErrors', { files, problems }),
    libraryNotes: (notes: string, files: string) => tr('diagnostics.libraryNotes', { notes, files }),
    files: (n: number) => trn('diagnostics.files', n),
    problems: (n: number) => trn('diagnostics.problems', n),
    notes: (n: number) => trn('diagnostics.notes', n),
    sessionTitle: (n: number) => trn('diagnostics.sessionTitle', n),
    /** The tooltip of a session row's notes badge: warnings that lost nothing (not `isProblem`). */
    noteTitle: (n: number) => trn('diagnostics.noteTitle', n),
    /** The visible words of a session row's warning badge ("3 problems"): diagnostics that left something out (`isProblem`). */
    badge: (n: number) => trn('diagnostics.badge', n),
    more: (n: number) => tr('diagnostics.more', { n: count(n) }),
  }),

  session: withValues(L.session, {
    sourceFiles: (n: number) => tr('session.sourceFiles', { n: count(n) }),
    showMeta: (n: number) => tr('session.showMeta', { n: count(n) }),
    tokensIn: (n: string) => tr('session.tokensIn', { n }),
    tokensOut: (n: string) => tr('session.tokensOut', { n }),
    cacheRead: (n: string) => tr('session.cacheRead', { n }),
    cacheWrite: (n: string) => tr('session.cacheWrite', { n }),
    thinkingTokens: (n: string) => tr('session.thinkingTokens', { n }),
    cost: (usd: string) => tr('session.cost', { usd }),
    lastRequestTokens: (input: string, output: string) => tr('session.lastRequestTokens', { input, output }),
  }),

  find: withValues(L.find, {
    /** "3 of 12" (messages with a match). */
    position: (i: number, n: number) => tr('find.position', { i: count(i), n: count(n) }),
  }),

  openById: withValues(L.openById, {
    notFound: (id: string) => tr('openById.notFound', { id }),
  }),

  roles: L.roles satisfies Record<Role, string>,

  message: withValues(L.message, {
    imageNotStored: (where: string) => tr('message.imageNotStored', { where }),
    unknownBlock: (type: string) => tr('message.unknownBlock', { type }),
    linkNotOpened: (url: string) => tr('message.linkNotOpened', { url }),
  }),

  events: withValues(L.events, {
    /** A background task (sub-agent, shell) reported back; `status` as the agent wrote it. */
    taskNotification: (status?: string) => (status ? tr('events.taskNotification', { status }) : L.events.notification),
  }),

  tool: withValues(L.tool, {
    showAll: (n: number) => trn('tool.showAll', n),
    exitCode: (code: number) => tr('tool.exitCode', { code: String(code) }),
  }),

  toolKinds: L.toolKinds satisfies Record<ToolKind, string>,
  toolStatus: L.toolStatus satisfies Record<ToolCallStatus, string>,
  sessionStatus: L.sessionStatus satisfies Record<SessionStatus, string>,

  /** Continue in…, checkpoints, export, collect for review, secrets reveal, recent folders (strings-actions.ts). */
  ...actionStrings,

  /** Search, Usage, Timeline and Settings views, the recovered badge, the toolbar's index progress (strings-views.ts). */
  ...viewStrings,

  /**
   * What happened, per error code, in plain words: shown instead of the message from main when
   * that message uses internal words (codes, "store", "IR", option names; see `errors.ts`
   * `plainError`). The message itself stays under "Details".
   */
  errorWhat: L.errorWhat satisfies Record<ErrorCode, string>,

  /** The fold under an error with what a bug report needs: the code, Sepia's own message. */
  errorDetails: withValues(L.errorDetails, {
    code: (code: string) => tr('errorDetails.code', { code }),
    message: (message: string) => tr('errorDetails.message', { message }),
  }),

  /** The archive: first-start question, retention warnings, Put back, its Settings (strings-archive.ts). */
  ...archiveStrings,

  /** Move to another computer…, Install a session bundle… (strings-move.ts). */
  ...moveStrings,

  /** The first-start welcome (welcome.ts). */
  welcome: welcomeStrings,

  /** The Health view (components/health/strings-health.ts). */
  health: healthStrings,
})
