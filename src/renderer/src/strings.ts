/**
 * Every user-facing string of the renderer, in one place so it can be translated.
 *
 * Plain strings for fixed words; functions for text that takes values. Numbers and dates passed
 * in are already formatted for the user's locale (see `format.ts`), except counts used for plural
 * choice, which are formatted here with `Intl.NumberFormat`.
 */
import type { ErrorCode } from '../../shared/api'
import type { Role, SessionStatus, ToolCallStatus, ToolKind } from '../../shared/ir'

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
    noMatch: (q: string) => `No session title contains “${q}”.`,
    noProject: 'No project',
    sessions: (n: number) => plural(n, 'session', 'sessions'),
    messages: (n: number) => plural(n, 'message', 'messages'),
    subagent: 'sub-agent',
    subagents: (n: number) => plural(n, 'sub-agent', 'sub-agents'),
    untitled: 'Untitled session',
    collapse: (name: string) => `Collapse ${name}`,
    expand: (name: string) => `Expand ${name}`,
    keyboardHint: '↑ ↓ or j k to move, Enter to open',
  },

  states: {
    loadingLibrary: 'Reading agent history…',
    loadingLibraryDetail: 'Sepia is looking through the folders agents write to. Large histories can take a moment.',
    loadingSession: 'Opening session…',
    emptyTitle: 'No agent history found',
    emptyBody: (home: string) =>
      `No agent history found in ${home}. Open a folder that holds a copy of someone’s agent history, or try the demo library to see what Sepia shows.`,
    emptyNoHome: 'No agent history found. Open a folder that holds agent history, or try the demo library to see what Sepia shows.',
    errorTitle: 'Sepia could not read the library',
    sessionErrorTitle: 'This session could not be opened',
    errorCode: (code: string) => `Error code: ${code}`,
    retry: 'Try again',
    noSelectionTitle: 'Choose a session',
    noSelectionBody: 'Pick a session on the left to read it here.',
    dismiss: 'Dismiss',
  },

  /** What to do next, per error code: plain words for people who are not engineers. */
  errorAdvice: {
    NOT_FOUND: 'Check the path: that folder does not exist on this computer.',
    NOT_A_DIRECTORY: 'That path is a file. Choose the folder that contains it instead.',
    SESSION_NOT_FOUND: 'The session may have been deleted or moved. Reload the library and try again.',
    UNKNOWN_AGENT: 'This version of Sepia does not know that agent. Update Sepia and try again.',
    UNKNOWN_METHOD: 'The app and its background process do not match. Restart Sepia.',
    BAD_ARGUMENT: 'Something unexpected was asked of Sepia. Reload and try again.',
    UNAUTHORIZED: 'This page lost its access key. Open Sepia again from the link it printed.',
    READ_FAILED: 'Sepia could not read a file. Check that you have permission to read the folder, then reload.',
    INTERNAL: 'Something went wrong inside Sepia. Reload; if it happens again, restart Sepia.',
  } satisfies Record<ErrorCode, string>,

  diagnostics: {
    libraryTitle: (problems: number, files: number) =>
      `${plural(files, 'file', 'files')} could not be read completely (${plural(problems, 'problem', 'problems')}). Everything else is shown.`,
    sessionTitle: (n: number) => `${plural(n, 'problem', 'problems')} while reading this session`,
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
    noMessages: 'This session has no messages.',
    tokensIn: (n: string) => `${n} in`,
    tokensOut: (n: string) => `${n} out`,
    cacheRead: (n: string) => `${n} cache read`,
    cacheWrite: (n: string) => `${n} cache write`,
    thinkingTokens: (n: string) => `${n} thinking`,
    cost: (usd: string) => usd,
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
}
