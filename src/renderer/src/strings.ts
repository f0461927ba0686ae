/**
 * Every user-facing string of the renderer, in one place so it can be translated.
 *
 * Plain strings for fixed words; functions for text that takes values. Numbers and dates passed
 * in are already formatted for the user's locale (see `format.ts`), except counts used for plural
 * choice, which are formatted here with `Intl.NumberFormat`.
 */
import type { ErrorCode } from '../../shared/api'
import type { Role, SessionStatus, ToolCallStatus, ToolKind } from '../../shared/ir'
import type { ThemeChoice } from './theme'
import type { ViewId } from './views'
import { actionStrings } from './strings-actions'
import { viewStrings } from './strings-views'

const nf = new Intl.NumberFormat()
const plural = (n: number, one: string, many: string): string => `${nf.format(n)} ${n === 1 ? one : many}`

/** The strings, grouped by where they appear. */
export const strings = {
  appName: 'Sepia',

  toolbar: {
    openFolder: 'Open folder…',
    demo: 'Demo library',
    reload: 'Reload',
    reloading: 'Reloading…',
    demoBadge: 'demo',
    reading: 'Reading',
    readingTitle: 'Folders Sepia is reading',
    more: (n: number) => `+${nf.format(n)} more`,
  },

  openDialog: {
    title: 'Open a folder',
    label: 'Folder path',
    hint: 'The folder that contains .claude, .cline, AppData… — usually a home folder, yours or a copy of someone else’s.',
    placeholder: '/home/ana  or  C:\\Users\\ana',
    submit: 'Open',
    opening: 'Opening…',
    cancel: 'Cancel',
    empty: 'Type the path of a folder first.',
  },

  library: {
    label: 'Library',
    filterLabel: 'Filter sessions by title',
    filterPlaceholder: 'Filter by title  (press / )',
    clearFilter: 'Clear filter',
    noMatch: (q: string) => `No session title contains “${q}”. Try fewer letters, or press Esc to clear the filter.`,
    noProject: 'No project',
    sessions: (n: number) => plural(n, 'session', 'sessions'),
    messages: (n: number) => plural(n, 'message', 'messages'),
    subagent: 'sub-agent',
    subagents: (n: number) => plural(n, 'sub-agent', 'sub-agents'),
    untitled: 'Untitled session',
    collapse: (name: string) => `Collapse ${name}`,
    expand: (name: string) => `Expand ${name}`,
    keyboardHint: '↑ ↓ or j k to move, Enter to open',
    showHidden: (n: number) => `Show ${plural(n, 'hidden session', 'hidden sessions')}`,
    hideHidden: (n: number) => `Hide ${plural(n, 'hidden session', 'hidden sessions')} again`,
    hiddenHint: 'Sessions the agent itself hides from its list (Devin CLI).',
  },

  views: {
    label: 'Views',
    library: 'Library',
    search: 'Search',
    usage: 'Usage',
    timeline: 'Timeline',
    settings: 'Settings',
  } satisfies Record<ViewId, string> & { label: string },

  theme: {
    /** Label of the theme button: what is in effect and what a click does. */
    button: (current: string, next: string) => `Theme: ${current}. Switch to ${next}`,
    names: { system: 'System', light: 'Light', dark: 'Dark' } satisfies Record<ThemeChoice, string>,
  },

  palette: {
    open: 'Command palette',
    /** The shortcut, with the platform's modifier (`Ctrl+` or `⌘`). */
    shortcut: (mod: string) => `${mod}K`,
    title: 'Command palette',
    inputLabel: 'Type a command or a session title',
    placeholder: 'Type a command or a session title…',
    results: 'Commands',
    noMatch: (q: string) => `Nothing matches “${q}”. Try fewer letters, or press Esc to close.`,
    hint: '↑ ↓ to choose, Enter to run, Esc to close',
    groups: { action: 'Action', view: 'Go to', theme: 'Theme', session: 'Session' },
    openFolder: 'Open folder…',
    demo: 'Open the demo library',
    reload: 'Reload the library',
    goTo: (view: string) => `Go to ${view}`,
    about: 'About Sepia',
    toggleTheme: 'Toggle light and dark theme',
    setTheme: (name: string) => `Theme: ${name}`,
    focusFilter: 'Filter sessions by title',
    openSession: (title: string) => title,
  },

  about: {
    open: 'About Sepia',
    title: 'About Sepia',
    tagline: 'Reads the session histories AI coding agents leave on disk.',
    version: 'Version',
    mode: 'Running as',
    modes: { electron: 'desktop app', browser: 'browser page (local server)' },
    irVersion: 'Session format (IR) version',
    platform: 'System',
    offline: 'Sepia works offline: it never sends anything anywhere.',
    agentsTitle: 'Agents Sepia reads',
    agentsCaption: 'Agents Sepia reads, with what it can do for each',
    agent: 'Agent',
    sessions: 'Sessions here',
    formats: 'Store formats found here',
    can: 'Also',
    capWrite: 'continue sessions in it',
    capCheckpoints: 'restore checkpoints',
    capThinking: 'keeps thinking signatures',
    none: '—',
    noLibrary: 'Open a folder or the demo library to see the agents.',
    unknown: 'unknown',
    close: 'Close',
    shortcutsTitle: 'Keyboard',
    /** Keys and what they do; `mod` is the platform's modifier (`Ctrl+` or `⌘`). */
    shortcuts: (mod: string): [string, string][] => [
      ['↑ ↓  j k', 'move through sessions'],
      ['Enter', 'open the session'],
      ['/', 'filter or search'],
      [`${mod}F`, 'find in the open session'],
      [`${mod}G`, 'open a session by id'],
      [`${mod}K`, 'command palette'],
      ['Esc', 'close a dialog'],
    ],
  },

  drop: {
    overlay: 'Drop a folder, a zip or a session file to open it',
    needsDesktop: 'Dropping folders onto the window needs the desktop app. Use “Open folder…” and type the folder’s path instead.',
    noPath: 'Sepia could not tell where the dropped item is on disk. Use “Open folder…” instead.',
  },

  progress: {
    sessions: (done: string, total: string) => `${done} of ${total} sessions read`,
    messages: (done: string, total: string) => `${done} of ${total} messages indexed for search`,
    starting: 'Looking for agent folders…',
    stopWaiting: 'Show what is read so far',
    stopWaitingHint: 'Reading goes on in the background and the list updates when it ends.',
  },

  states: {
    loadingLibrary: 'Reading agent history…',
    loadingLibraryDetail: 'Sepia is looking through the folders agents write to. Large histories can take a moment.',
    loadingSession: 'Opening session…',
    stopOpening: 'Stop opening it',
    emptyTitle: 'No agent history found',
    emptyBody: (home: string) =>
      `No agent history found in ${home}. Open a folder that holds a copy of someone’s agent history, or try the demo library to see what Sepia shows.`,
    emptyNoHome: 'No agent history found. Open a folder that holds agent history, or try the demo library to see what Sepia shows.',
    errorTitle: 'Sepia could not read the library',
    sessionErrorTitle: 'This session could not be opened',
    retry: 'Try again',
    noSelectionTitle: 'Choose a session',
    noSelectionBody: 'Pick a session on the left to read it here.',
    dismiss: 'Dismiss',
    noViewTitle: 'Nothing to show yet',
  },

  /**
   * What happened, per error code, in plain words: shown instead of the message from main when
   * that message uses internal words (codes, "store", "IR", option names; see `errors.ts`
   * `plainError`). The message itself stays under "Details".
   */
  errorWhat: {
    NOT_FOUND: 'Sepia could not find that on this computer.',
    NOT_A_DIRECTORY: 'That is a file, not a folder.',
    SESSION_NOT_FOUND: 'That conversation is not there any more.',
    UNKNOWN_AGENT: 'Sepia does not know the agent this belongs to.',
    UNKNOWN_METHOD: 'The window and the rest of Sepia are from different versions.',
    BAD_ARGUMENT: 'Sepia was asked something it could not understand.',
    UNAUTHORIZED: 'This page is no longer connected to Sepia.',
    READ_FAILED: 'Sepia could not read part of the conversation files.',
    CANNOT_WRITE: 'Sepia cannot write conversations for that agent yet.',
    PATH_NOT_ALLOWED: 'Sepia did not use that folder, because you have not chosen it.',
    WRITE_FAILED: 'Sepia could not write the files.',
    CHECKPOINT_NOT_FOUND: 'That checkpoint is not in the conversation any more.',
    TARGET_REQUIRED: 'Sepia needs to know which folder to use.',
    CANCELLED: 'Stopped.',
    ALREADY_EXISTS: 'Something with that name is already there.',
    UNAVAILABLE: 'This is not available here.',
    INTERNAL: 'Something went wrong inside Sepia.',
  } satisfies Record<ErrorCode, string>,

  /** The fold under an error with what a bug report needs: the code, Sepia's own message, the file. */
  errorDetails: {
    summary: 'Details',
    code: (code: string) => `Error code: ${code}`,
    message: (message: string) => `Sepia said: ${message}`,
  },

  /** What to do next, per error code: plain words for people who are not engineers. */
  errorAdvice: {
    NOT_FOUND: 'Make sure it is on this computer and the path is typed in full (for example /home/ana or C:\\Users\\ana).',
    NOT_A_DIRECTORY: 'That path is a file. Choose the folder that contains it instead.',
    SESSION_NOT_FOUND: 'The session may have been deleted or moved. Reload the library and try again.',
    UNKNOWN_AGENT: 'This version of Sepia does not know that agent. Update Sepia and try again.',
    UNKNOWN_METHOD: 'The app and its background process do not match. Restart Sepia.',
    BAD_ARGUMENT: 'Something unexpected was asked of Sepia. Reload and try again.',
    UNAUTHORIZED: 'This page lost its access key. Open Sepia again from the link it printed.',
    READ_FAILED: 'Sepia could not read a file. Check that you have permission to read the folder, then reload.',
    CANNOT_WRITE: 'Sepia cannot write sessions for that agent yet. Choose another agent.',
    PATH_NOT_ALLOWED: 'Sepia writes only into folders you choose. Choose the folder again, or type it and press “Allow once” when Sepia asks.',
    WRITE_FAILED: 'Nothing was changed. Check that the folder exists, that you may write there and that the disk is not full, then try again.',
    CHECKPOINT_NOT_FOUND: 'That checkpoint is no longer in the session. Reload the library and pick a checkpoint again.',
    TARGET_REQUIRED: 'Sepia does not know where this project lives on this computer. Pick the project folder.',
    CANCELLED: 'You stopped it; nothing more was done. Start it again when you are ready.',
    ALREADY_EXISTS: 'Something with that name is already there and was left alone. Choose another name or an empty folder.',
    UNAVAILABLE: 'This needs something that is missing here. Use the desktop app, or choose another format.',
    INTERNAL: 'Something went wrong inside Sepia. Reload; if it happens again, restart Sepia.',
  } satisfies Record<ErrorCode, string>,

  diagnostics: {
    /**
     * The banner over a list of diagnostics. Only `error` diagnostics mean something was left out;
     * warnings and notes (a branch that starts anew, an unknown record kind counted) lost nothing.
     */
    libraryTitle: (list: readonly { path: string; severity: string }[]) => {
      const errors = list.filter((d) => d.severity === 'error')
      const files = new Set((errors.length ? errors : list).map((d) => d.path)).size
      return errors.length
        ? `${plural(files, 'file', 'files')} could not be read completely (${plural(list.length, 'problem', 'problems')}). Everything else is shown.`
        : `${plural(list.length, 'note', 'notes')} on ${plural(files, 'file', 'files')} while reading. Nothing was left out.`
    },
    sessionTitle: (n: number) => `${plural(n, 'problem', 'problems')} while reading this session`,
    /** The visible words of a session row's warning badge ("3 problems"). */
    badge: (n: number) => plural(n, 'problem', 'problems'),
    more: (n: number) => `…and ${nf.format(n)} more`,
  },

  session: {
    label: 'Session',
    agent: 'Agent',
    project: 'Project',
    model: 'Model',
    started: 'Started',
    messages: 'Messages',
    status: 'Status',
    usage: 'Usage',
    branch: 'Git branch',
    sourceFiles: (n: number) => `Source files (${nf.format(n)})`,
    format: 'Format',
    parent: 'Sub-agent of',
    children: 'Sub-agents',
    showMeta: (n: number) => `Show system/injected messages (${nf.format(n)})`,
    expandTools: 'Expand all tool calls',
    collapseTools: 'Collapse all tool calls',
    noMessages: 'This session has no messages: the agent may have stopped before the first one. Its source files are listed above.',
    tokensIn: (n: string) => `${n} in`,
    tokensOut: (n: string) => `${n} out`,
    cacheRead: (n: string) => `${n} cache read`,
    cacheWrite: (n: string) => `${n} cache write`,
    thinkingTokens: (n: string) => `${n} thinking`,
    cost: (usd: string) => usd,
  },

  find: {
    label: 'Find in this session',
    placeholder: 'Find in this session…',
    /** "3 of 12" (messages with a match). */
    position: (i: number, n: number) => `${nf.format(i)} of ${nf.format(n)}`,
    none: 'No matches',
    more: 'more matches than shown',
    next: 'Next match (Enter)',
    prev: 'Previous match (Shift+Enter)',
    close: 'Close (Esc)',
  },

  openById: {
    title: 'Open a session by id',
    label: 'Session id',
    hint: 'The id an agent prints or a file name without its extension, e.g. 9f0c2b1e-…',
    open: 'Open',
    notFound: (id: string) => `No session with the id "${id}" is in the open folders. Check the id, or open the folder that holds it.`,
  },

  roles: {
    user: 'User',
    assistant: 'Assistant',
    system: 'System',
    tool: 'Tool result',
  } satisfies Record<Role, string>,

  message: {
    thinking: 'Thinking',
    injected: 'injected',
    image: 'Image',
    imageNotStored: (where: string) => `Image (not stored inline: ${where})`,
    file: 'File',
    unknownBlock: (type: string) => `Unrecognized content (${type})`,
    linkNotOpened: (url: string) => `${url} — links are not opened from Sepia. Click to copy.`,
    linkCopied: 'Link copied',
    orphanResult: 'Tool result without its call',
    empty: '(empty)',
  },

  events: {
    compaction: 'Context compacted',
    'model-change': 'Model changed',
    'unknown-event': 'Unrecognized event',
    interrupted: 'Interrupted',
    /** Markers for what the agent's CLI wrote in the user's place (src/shared/events.ts has the same words). */
    command: 'Command',
    notification: 'Background task finished',
    hook: 'Blocked by hook',
    'api-error': 'API error',
    notice: 'Note',
    /** A background task (sub-agent, shell) reported back; `status` as the agent wrote it. */
    taskNotification: (status?: string) => (status ? `Background task ${status}` : 'Background task finished'),
  },

  tool: {
    arguments: 'Arguments',
    result: 'Result',
    noResult: 'No result was recorded for this call.',
    showAll: (n: number) => `Show all ${plural(n, 'line', 'lines')}`,
    showLess: 'Show less',
    exitCode: (code: number) => `exit ${code}`,
    openSubagent: 'Open sub-agent session',
    diffNewFile: 'new file',
    diffDeleted: 'deleted',
    before: 'Before',
    after: 'After',
    diffTooLarge: 'The change is too large to compare line by line; before and after are shown in full.',
  },

  toolKinds: {
    read: 'read',
    edit: 'edit',
    delete: 'delete',
    move: 'move',
    search: 'search',
    execute: 'run',
    think: 'think',
    fetch: 'fetch',
    switch_mode: 'mode',
    other: 'other',
  } satisfies Record<ToolKind, string>,

  toolStatus: {
    pending: 'pending',
    in_progress: 'running',
    completed: 'completed',
    failed: 'failed',
  } satisfies Record<ToolCallStatus, string>,

  sessionStatus: {
    running: 'running',
    idle: 'idle',
    pending: 'pending',
    completed: 'completed',
    failed: 'failed',
    cancelled: 'cancelled',
  } satisfies Record<SessionStatus, string>,

  /** Continue in…, checkpoints, export, collect for review, secrets reveal, recent folders (strings-actions.ts). */
  ...actionStrings,

  /** Search, Usage, Timeline and Settings views, the recovered badge, the toolbar's index progress (strings-views.ts). */
  ...viewStrings,
}
