/**
 * The user-facing strings of the session actions (Continue in…, Checkpoints, Export, Collect for
 * review, secrets reveal, recent folders): the entries of `locales/*.json` that take values, as
 * functions over the live message tree (see strings.ts, i18n.ts). Merged into `strings`
 * (strings.ts) under the keys below; kept in their own file so the main strings file stays short.
 */
import type { RestoreFileStatus } from '../../shared/checkpoints'
import type { ConvertWarning, ConvertWarningKind, WarningSeverity } from '../../shared/convert'
import type { ExportFormat } from '../../shared/export'
import type { HomeOs } from '../../shared/ir'
import { formatList } from './format'
import { count, L, tr, trn, withValues } from './i18n'

/** Operating system names as `describeWarning` (src/shared/convert.ts) writes them; product names, not translated. */
const OS_NAMES: Record<HomeOs, string> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' }

/** A convert warning of one kind, in the user's words. */
type PlainWarnings = { [K in ConvertWarningKind]?: (w: Extract<ConvertWarning, { kind: K }>) => string }

/** Strings of the session actions, grouped by dialog. */
export const actionStrings = {
  /** Words every action dialog uses. */
  actions: withValues(L.actions, {
    errorCode: (code: string) => tr('actions.errorCode', { code }),
  }),

  convert: withValues(L.convert, {
    intro: (agent: string) => tr('convert.intro', { agent }),
    lost: (n: number) => trn('convert.lost', n),
    changes: (n: number) => trn('convert.changes', n),
    severity: L.convert.severity satisfies Record<WarningSeverity, string>,
    messageCount: (n: number) => trn('convert.messageCount', n),
    toolCallCount: (n: number) => trn('convert.toolCallCount', n),
    counts: (messages: number, tools: number) =>
      tr('convert.counts', { messages: trn('convert.messageCount', messages), tools: trn('convert.toolCallCount', tools) }),
    cannotWrite: (name: string) => tr('convert.cannotWrite', { name }),
    submit: (name: string) => tr('convert.submit', { name }),
    doneTitle: (name: string) => tr('convert.doneTitle', { name }),
    /**
     * Issue 17: what the user loses, in their words, for the warnings whose own text
     * (`describeWarning`, src/shared/convert.ts) speaks of signatures, prompts, ids or pairing.
     * The dialog shows this line, with the technical text one click away under `warningWhy`.
     * Every other kind is here too so it reads in the user's language; its English message is
     * `describeWarning`'s text word for word, so in English there is nothing under "Why".
     */
    warningPlain: {
      'thinking-unsigned-dropped': (w) => trn('convert.warningPlain.thinking-unsigned-dropped', w.count),
      'thinking-other-provider-dropped': (w) => trn('convert.warningPlain.thinking-other-provider-dropped', w.count),
      'input-usage-dropped': (w) => trn('convert.warningPlain.input-usage-dropped', w.count),
      'usage-not-representable': (w) => trn('convert.warningPlain.usage-not-representable', w.count),
      'tool-id-rewritten': (w) => trn('convert.warningPlain.tool-id-rewritten', w.count),
      'orphan-result-as-text': (w) => trn('convert.warningPlain.orphan-result-as-text', w.count),
      'unpaired-call-result-added': (w) => trn('convert.warningPlain.unpaired-call-result-added', w.count),
      'result-moved': (w) => trn('convert.warningPlain.result-moved', w.count),
      'twin-folded': (w) => trn('convert.warningPlain.twin-folded', w.count),
      'block-dropped': (w) => trn('convert.warningPlain.block-dropped', w.count),
      'event-dropped': (w) => trn('convert.warningPlain.event-dropped', w.count, { event: w.event }),
      // The kinds below: English is `describeWarning`'s own text (so no "Why" fold there), the other
      // languages translate it.
      'tool-mapped': (w) => trn('convert.warningPlain.tool-mapped', w.count, { from: w.from, to: w.to }),
      'tool-kept': (w) => trn('convert.warningPlain.tool-kept', w.count, { name: w.name }),
      'tool-split': (w) => trn('convert.warningPlain.tool-split', w.count, { name: w.name, into: count(w.into) }),
      'tools-as-text': (w) => trn('convert.warningPlain.tools-as-text', w.count),
      'image-as-note': (w) => trn('convert.warningPlain.image-as-note', w.count),
      'image-undecodable': (w) => trn('convert.warningPlain.image-undecodable', w.count),
      'file-as-note': (w) => trn('convert.warningPlain.file-as-note', w.count),
      'injected-context-dropped': (w) => trn('convert.warningPlain.injected-context-dropped', w.count),
      'system-message-dropped': (w) => trn('convert.warningPlain.system-message-dropped', w.count),
      'branch-dropped': (w) => trn('convert.warningPlain.branch-dropped', w.count),
      'subagent-flattened': (w) => trn('convert.warningPlain.subagent-flattened', w.count),
      'subagent-no-transcript': (w) => trn('convert.warningPlain.subagent-no-transcript', w.count),
      'checkpoints-dropped': (w) => trn('convert.warningPlain.checkpoints-dropped', w.count),
      'empty-message-dropped': (w) => trn('convert.warningPlain.empty-message-dropped', w.count),
      'message-skipped-by-target': (w) => trn('convert.warningPlain.message-skipped-by-target', w.count),
      'foreign-project-path': (w) => tr('convert.warningPlain.foreign-project-path', { path: w.path, os: OS_NAMES[w.os] }),
      'secrets-masked': (w) => trn('convert.warningPlain.secrets-masked', w.count),
    } satisfies PlainWarnings as PlainWarnings,
    /** After "Open in terminal": the terminal Sepia started ("gnome-terminal", "Windows Terminal"). */
    openedTerminal: (terminal: string) => tr('convert.openedTerminal', { terminal }),
    readBack: (messages: number, tools: number) =>
      tr('convert.readBack', { messages: trn('convert.messageCount', messages), tools: trn('convert.toolCallCount', tools) }),
  }),

  checkpoints: withValues(L.checkpoints, {
    files: (n: number) => trn('checkpoints.files', n),
    previewTitle: (label: string) => tr('checkpoints.previewTitle', { label }),
    summaryAdded: (n: number) => tr('checkpoints.summaryAdded', { n: count(n) }),
    summaryModified: (n: number) => tr('checkpoints.summaryModified', { n: count(n) }),
    summaryDeleted: (n: number) => tr('checkpoints.summaryDeleted', { n: count(n) }),
    summaryUnchanged: (n: number) => tr('checkpoints.summaryUnchanged', { n: count(n) }),
    /** "1 added, 2 changed" (the non-zero counts, as a list of the language), else "No files". */
    summary: (c: Record<RestoreFileStatus, number>) => {
      const parts = [
        c.added ? tr('checkpoints.summaryAdded', { n: count(c.added) }) : '',
        c.modified ? tr('checkpoints.summaryModified', { n: count(c.modified) }) : '',
        c.deleted ? tr('checkpoints.summaryDeleted', { n: count(c.deleted) }) : '',
        c.unchanged ? tr('checkpoints.summaryUnchanged', { n: count(c.unchanged) }) : '',
      ].filter(Boolean)
      return parts.length ? formatList(parts) : L.checkpoints.summaryNone
    },
    status: L.checkpoints.status satisfies Record<RestoreFileStatus, string>,
    statusHint: L.checkpoints.statusHint satisfies Record<RestoreFileStatus, string>,
    selected: (n: number, total: number) => tr('checkpoints.selected', { n: count(n), total: count(total) }),
    sizes: (before: string, after: string) => tr('checkpoints.sizes', { before, after }),
    restore: (n: number) => trn('checkpoints.restore', n),
    exportFiles: (n: number) => trn('checkpoints.exportFiles', n),
    writtenList: (n: number) => trn('checkpoints.writtenList', n),
    unchangedList: (n: number) => trn('checkpoints.unchangedList', n),
    undone: (n: number) => trn('checkpoints.undone', n),
  }),

  exporting: withValues(L.exporting, {
    formats: L.exporting.formats satisfies Record<ExportFormat, string>,
    downloaded: (name: string) => tr('exporting.downloaded', { name }),
  }),

  collect: withValues(L.collect, {
    progress: (done: number, total: number, phase: string) => tr('collect.progress', { phase, done: count(done), total: count(total) }),
    phases: L.collect.phases as Record<string, string>,
    files: (n: number) => trn('collect.files', n),
    summary: (files: number, bytes: string) => tr('collect.summary', { files: trn('collect.files', files), bytes }),
    leftOut: (n: number) => trn('collect.leftOut', n),
  }),

  secretsBanner: withValues(L.secretsBanner, {
    hidden: (n: number) => trn('secretsBanner.hidden', n),
  }),

  recent: withValues(L.recent, {
    kinds: L.recent.kinds as Record<string, string>,
    sessions: (n: number) => trn('recent.sessions', n),
    open: (path: string) => tr('recent.open', { path }),
  }),
}
