/**
 * The user-facing strings of the archive (issue 19): the first-start question, the retention
 * warnings, the "Archived" note and Put back in the session view, and the archive's part of
 * Settings: `archive.*` in `locales/*.json`; plain entries are live getters, entries that take
 * values are functions (see i18n.ts). Merged into `strings` (strings.ts) under `archive`.
 */
import { displayLocale } from './format'
import { count, L, tr, trn, withValues } from './i18n'

const UNITS = ['archive.kb', 'archive.mb', 'archive.gb', 'archive.tb'] as const

/**
 * Bytes as `1.2 GB` (decimal units, as file managers show them), in the language in effect
 * (`1,2 Go` in French): one decimal below 10 of a unit, none above.
 */
export function formatSize(n: number): string {
  if (n < 1000) return trn('archive.bytes', n)
  let v = n
  let i = -1
  while (v >= 1000 && i < UNITS.length - 1) {
    v /= 1000
    i++
  }
  const digits = v < 10 ? 1 : 0
  const value = new Intl.NumberFormat(displayLocale(), { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(v)
  return tr(UNITS[i] ?? 'archive.tb', { n: value })
}

const sessions = (n: number): string => trn('archive.sessions', n)
const days = (n: number): string => trn('archive.days', n)

/** The archive's strings. */
export const archiveStrings = {
  archive: withValues(L.archive, {
    /** The first-start question; `size` is the size of the session files now (formatted), or undefined. */
    question: (size: string | undefined) => (size ? `${tr('archive.question')} ${tr('archive.questionSize', { size })}` : tr('archive.question')),
    /** "Claude Code will delete 14 sessions in the next 7 days" */
    willDelete: (agent: string, n: number, d: number) => tr('archive.willDelete', { agent, sessions: sessions(n), days: days(d) }),
    partlySafe: (archived: number, due: number) => tr('archive.partlySafe', { archived: count(archived), due: count(due) }),
    retentionSetting: (setting: string, file: string, d: number, defaulted: boolean) =>
      defaulted ? tr('archive.retentionDefault', { setting, file, days: days(d) }) : tr('archive.retentionSet', { setting, file }),
    /** "Archived: deleted by Claude Code on 12 Nov" */
    archivedNote: (agent: string, date: string) => tr('archive.archivedNote', { agent, date }),
    putBackDone: (n: number, command: string | undefined) =>
      command ? `${trn('archive.putBackDone', n)} ${tr('archive.putBackResume', { command })}` : trn('archive.putBackDone', n),
    size: (stored: string, raw: string) => tr('archive.size', { stored, raw }),
    counts: (n: number, gone: number) => (gone ? tr('archive.countsGone', { sessions: sessions(n), gone: count(gone) }) : tr('archive.counts', { sessions: sessions(n) })),
    capFull: (n: number) => trn('archive.capFull', n),
    pruned: (n: number, freed: string) => trn('archive.pruned', n, { freed }),
    /** The parts the entries above are built from, each usable alone. */
    questionSize: (size: string) => tr('archive.questionSize', { size }),
    sessions,
    days,
    retentionSet: (setting: string, file: string) => tr('archive.retentionSet', { setting, file }),
    retentionDefault: (setting: string, file: string, d: number) => tr('archive.retentionDefault', { setting, file, days: days(d) }),
    putBackResume: (command: string) => tr('archive.putBackResume', { command }),
    countsGone: (n: number, gone: number) => tr('archive.countsGone', { sessions: sessions(n), gone: count(gone) }),
    /** `n` bytes below 1,000; larger sizes go through {@link formatSize}. */
    bytes: (n: number) => trn('archive.bytes', n),
    /** A size in a unit, `value` already formatted ("1.2"). */
    kb: (value: string) => tr('archive.kb', { n: value }),
    mb: (value: string) => tr('archive.mb', { n: value }),
    gb: (value: string) => tr('archive.gb', { n: value }),
    tb: (value: string) => tr('archive.tb', { n: value }),
  }),
}
