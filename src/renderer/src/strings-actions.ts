/**
 * The user-facing strings of the session actions (Continue in…, Checkpoints, Export, Collect for
 * review, secrets reveal, recent folders). Merged into `strings` (strings.ts) under the keys
 * below, so every string stays reachable through `strings` for translation; kept in their own
 * file so the main strings file stays short.
 */
import type { RestoreFileStatus } from '../../shared/checkpoints'
import type { ConvertWarning, ConvertWarningKind, WarningSeverity } from '../../shared/convert'
import type { ExportFormat } from '../../shared/export'

const nf = new Intl.NumberFormat()
const plural = (n: number, one: string, many: string): string => `${nf.format(n)} ${n === 1 ? one : many}`

/** A convert warning of one kind, in the user's words. */
type PlainWarnings = { [K in ConvertWarningKind]?: (w: Extract<ConvertWarning, { kind: K }>) => string }

/** Strings of the session actions, grouped by dialog. */
export const actionStrings = {
  /** Words every action dialog uses. */
  actions: {
    label: 'Session actions',
    close: 'Close',
    cancel: 'Cancel',
    back: 'Back',
    done: 'Done',
    copy: 'Copy',
    copied: 'Copied',
    copySelected: 'Selected — press Ctrl+C (⌘C) to copy',
    choose: 'Choose…',
    loading: 'Loading…',
    folderLabel: 'Folder',
    folderPlaceholder: '/home/ana/review  or  C:\\Users\\ana\\review',
    typedFolderHint: 'Type the full path of a folder. In the browser, Sepia cannot show a folder picker.',
    allowQuestion: 'Allow Sepia to write into',
    allowWhy: 'Sepia writes only into folders you choose. This allows this one action; nothing else is written there.',
    allowOnce: 'Allow once',
  },

  convert: {
    open: 'Continue in…',
    openHint: 'Write this session for another agent, to carry on there',
    title: 'Continue in another agent',
    intro: (agent: string) => `Sepia writes a copy of this ${agent} session for the agent you choose, as a new session. The original is not changed.`,
    targets: 'Agent to continue in',
    loading: 'Working out what each agent can hold…',
    textOnly: 'Text only',
    textOnlyHint: 'Write tool calls and their results as plain text. Use it when the other agent refuses the tool calls.',
    projectFolder: 'Project folder on this computer',
    projectFolderHint: 'The other agent lists the session under this folder. Change it when the project lives elsewhere here.',
    projectFolderForeign:
      'This folder is from another computer (another operating system): the other agent would not find the session. Enter the project folder on this computer.',
    nothingLost: 'Nothing is lost',
    lost: (n: number) => `${plural(n, 'kind of content', 'kinds of content')} left out`,
    changes: (n: number) => plural(n, 'change', 'changes'),
    severity: { loss: 'left out', change: 'changed', info: 'note' } satisfies Record<WarningSeverity, string>,
    /**
     * Issue 17: what the user loses, in their words, for the warnings whose own text
     * (`describeWarning`, src/shared/convert.ts) speaks of signatures, prompts, ids or pairing.
     * The dialog shows this line, with the technical text one click away under {@link actionStrings.convert.warningWhy}.
     */
    warningPlain: {
      'thinking-unsigned-dropped': (w) =>
        `The model’s reasoning (“Thinking”) in ${plural(w.count, 'place', 'places')} is not carried over: the other agent’s model would refuse it. Every message and answer is kept.`,
      'thinking-other-provider-dropped': (w) =>
        `The model’s reasoning (“Thinking”) in ${plural(w.count, 'place', 'places')} is not carried over: it can only go back to the company whose model wrote it. Every message and answer is kept.`,
      'input-usage-dropped': (w) =>
        `How much of the model’s memory ${plural(w.count, 'message', 'messages')} used is not carried over (it was counted for another agent), so the other agent does not shorten the conversation at once. The conversation itself is kept.`,
      'usage-not-representable': (w) =>
        `Token and cost numbers of ${plural(w.count, 'message', 'messages')} are not carried over: the other agent has no place for them. The conversation itself is kept.`,
      'tool-id-rewritten': (w) => `${plural(w.count, 'tool step was', 'tool steps were')} given a new label the other agent accepts. Nothing is lost.`,
      'orphan-result-as-text': (w) => `${plural(w.count, 'tool output', 'tool outputs')} whose request is missing kept as plain text.`,
      'unpaired-call-result-added': (w) =>
        `${plural(w.count, 'tool step', 'tool steps')} never got an answer; each is marked “no result recorded” so the other agent keeps it.`,
      'result-moved': (w) => `${plural(w.count, 'tool output', 'tool outputs')} moved next to the step that asked for it. Nothing is lost.`,
      'twin-folded': (w) => `${plural(w.count, 'answer', 'answers')} that the agent stored twice written once. Nothing is lost.`,
      'block-dropped': (w) => `${plural(w.count, 'piece', 'pieces')} of content with no text, of a kind Sepia cannot show, left out.`,
      'event-dropped': (w) => `${plural(w.count, 'marker', 'markers')} (“${w.event}”) left out: they are not messages.`,
    } satisfies PlainWarnings as PlainWarnings,
    /** The fold under a plain warning with Sepia's technical reason. */
    warningWhy: 'Why',
    counts: (messages: number, tools: number) => `${plural(messages, 'message', 'messages')}, ${plural(tools, 'tool call', 'tool calls')}`,
    writesInto: 'Writes into',
    cannotWrite: (name: string) => `Sepia cannot write ${name} sessions yet.`,
    sameAgent: 'This session’s own agent.',
    noTargets: 'Sepia cannot write this session for any other agent yet.',
    submit: (name: string) => `Continue in ${name}`,
    converting: 'Writing and checking…',
    doneTitle: (name: string) => `Ready to continue in ${name}`,
    written: 'Written',
    home: 'Into the home folder',
    files: 'Files created',
    backups: 'Copies made before a database was changed',
    verified: 'Checked: the new session reads back the same',
    verifyFailed: 'Checked: the new session reads back with differences',
    readBack: (messages: number, tools: number) => `Read back: ${plural(messages, 'message', 'messages')}, ${plural(tools, 'tool call', 'tool calls')}.`,
    resume: 'To continue, run this command',
    resumeIn: 'in the folder',
    resumeShell: 'Or, in one line',
  },

  checkpoints: {
    open: 'Checkpoints',
    openHint: 'See and restore the project’s files as they were at a checkpoint',
    title: 'Checkpoints',
    loading: 'Looking for checkpoints…',
    none: 'This session has no checkpoints Sepia can restore.',
    project: 'Project folder',
    projectMissing: 'not on this computer',
    restoresInto: 'Restores into',
    targetTitle: 'Where should the files go?',
    exportHint: 'Choose the project’s folder to restore it, or an empty folder to export the files as they were at a checkpoint.',
    useFolder: 'Use this folder',
    otherFolder: 'Write into another folder…',
    files: (n: number) => plural(n, 'file', 'files'),
    showInTranscript: 'Show in transcript',
    preview: 'Preview',
    previewing: 'Comparing with the files on disk…',
    previewTitle: (label: string) => `Restore: ${label}`,
    target: 'Folder',
    summary: (c: Record<RestoreFileStatus, number>) =>
      [
        c.added ? `${nf.format(c.added)} added` : '',
        c.modified ? `${nf.format(c.modified)} changed` : '',
        c.deleted ? `${nf.format(c.deleted)} deleted` : '',
        c.unchanged ? `${nf.format(c.unchanged)} already the same` : '',
      ]
        .filter(Boolean)
        .join(', ') || 'No files',
    status: { added: 'added', modified: 'changed', deleted: 'deleted', unchanged: 'same' } satisfies Record<RestoreFileStatus, string>,
    statusHint: {
      added: 'Missing now; the checkpoint has it. It will be created.',
      modified: 'Differs from the checkpoint. It will be put back as it was.',
      deleted: 'Did not exist at the checkpoint. It will be deleted.',
      unchanged: 'Already as at the checkpoint. Nothing to do.',
    } satisfies Record<RestoreFileStatus, string>,
    selectAll: 'Select all',
    selectNone: 'Select none',
    selected: (n: number, total: number) => `${nf.format(n)} of ${nf.format(total)} selected`,
    showDiff: 'Show changes',
    binary: 'Binary file: no line changes to show.',
    noDiff: 'No line changes to show.',
    sizes: (before: string, after: string) => `${before} → ${after}`,
    refused: 'Not restored',
    refusedHint: 'Sepia will not write these files:',
    restore: (n: number) => `Restore ${plural(n, 'file', 'files')}`,
    exportFiles: (n: number) => `Write ${plural(n, 'file', 'files')} into this folder`,
    restoring: 'Restoring…',
    nothingSelected: 'Select at least one file to restore.',
    doneTitle: 'Files restored',
    nothingWritten: 'Nothing needed writing: every selected file was already as at the checkpoint.',
    writtenList: (n: number) => `${plural(n, 'file', 'files')} written or deleted`,
    unchangedList: (n: number) => `${plural(n, 'file', 'files')} already the same`,
    backup: 'Copies of the files as they were before',
    undo: 'Undo restore',
    undoing: 'Putting the files back…',
    undone: (n: number) => `${plural(n, 'file', 'files')} put back as ${n === 1 ? 'it was' : 'they were'} before the restore.`,
    skipped: 'Left alone (changed again since the restore):',
  },

  exporting: {
    open: 'Export…',
    openHint: 'Save this session as a file',
    title: 'Export this session',
    format: 'Format',
    formats: {
      md: 'Markdown (.md)',
      html: 'Web page (.html)',
      json: 'Sepia JSON (.json)',
      atif: 'ATIF trajectory (.json)',
      pdf: 'PDF (.pdf)',
    } satisfies Record<ExportFormat, string>,
    includeThinking: 'Include thinking',
    includeToolOutput: 'Include tool output',
    toolOutputHint: 'Without it, each tool call is one line, without its arguments and result.',
    folder: 'Save into folder',
    defaultFolder: 'Sepia’s exports folder (if none is chosen)',
    browserNote: 'The file is downloaded by the browser.',
    submit: 'Export',
    exporting: 'Exporting…',
    downloaded: (name: string) => `Downloaded ${name}.`,
    written: 'Files written',
  },

  collect: {
    open: 'Collect for review…',
    openHint: 'Copy the agent history of the open folders for someone else to open in Sepia',
    title: 'Collect for review',
    intro: 'Copies the agent history of the open folders into a new folder or zip file, for someone else to open with Sepia. The stores are only read.',
    demo: 'The demo library cannot be collected. Open a folder first.',
    as: 'Write as',
    asFolder: 'A folder',
    asZip: 'One zip file',
    where: 'Put it in',
    name: 'Name',
    includeCredentials: 'Include credential files (API keys, sign-in tokens)',
    credentialsWarning:
      'Credential files let whoever receives the bundle use these accounts. Include them only if you trust the person and need them to reproduce a problem.',
    submit: 'Collect',
    collecting: 'Collecting…',
    cancel: 'Cancel',
    cancelling: 'Stopping…',
    progress: (done: number, total: number, phase: string) => `${phase}: ${nf.format(done)} of ${nf.format(total)} files`,
    phases: { scan: 'Looking for files', copy: 'Copying', zip: 'Zipping', verify: 'Checking', export: 'Exporting' } as Record<string, string>,
    doneTitle: 'Bundle written',
    path: 'Written to',
    manifest: 'List of files with checksums',
    summary: (files: number, bytes: string) => `${plural(files, 'file', 'files')}, ${bytes}`,
    leftOut: (n: number) => `${plural(n, 'credential file', 'credential files')} left out.`,
    warnings: 'Notes',
  },

  secretsBanner: {
    hidden: (n: number) => `${plural(n, 'secret', 'secrets')} hidden (API keys, tokens, passwords).`,
    reveal: 'Reveal',
    revealing: 'Revealing…',
    shown: 'Secrets are shown for this session. They are hidden again when you open another session.',
    hide: 'Hide again',
  },

  recent: {
    title: 'Recent',
    kinds: { folder: 'folder', zip: 'zip', file: 'file' } as Record<string, string>,
    sessions: (n: number) => plural(n, 'session', 'sessions'),
    open: (path: string) => `Open ${path}`,
  },
}
