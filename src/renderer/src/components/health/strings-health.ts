/**
 * Words of the Health view (issue 14 "Reading health"): `health.*` in `locales/*.json`; plain
 * entries are live getters, entries that take values are functions (see i18n.ts).
 */
import type { HealthReport, InterruptedWrite } from '../../../../shared/health'
import { displayLocale, formatDateTime } from '../../format'
import { count, L, tr, trn, withValues, type MessageKey } from '../../i18n'

/** Share of records read, as `summarizeHealth` (src/main/health/report.ts) computes it: floored to 0.1, "100" when none skipped. */
function percentRead(t: HealthReport['totals']): string {
  if (t.recordsSkipped === 0) return count(100)
  const pct = Math.floor(((t.records - t.recordsSkipped) / t.records) * 1000) / 10
  return new Intl.NumberFormat(displayLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(pct)
}

const JOB_KEYS: Record<InterruptedWrite['kind'], MessageKey> = {
  convert: 'health.jobConvert',
  restore: 'health.jobRestore',
  undo: 'health.jobUndo',
  export: 'health.jobExport',
  collect: 'health.jobCollect',
}
const OUTCOME_KEYS: Record<InterruptedWrite['outcome'], MessageKey> = {
  cleaned: 'health.outcomeCleaned',
  finished: 'health.outcomeFinished',
  kept: 'health.outcomeKept',
}

export const healthStrings = withValues(L.health, {
  sessions: (n: number) => trn('health.sessions', n),
  files: (n: number) => trn('health.files', n),
  records: (n: number) => trn('health.records', n),
  unknownType: (n: number, type: string) => trn('health.unknownType', n, { type }),
  unanswered: (n: number, names: string) => trn('health.unanswered', n, { names }),
  unread: (name: string, n: number) => trn('health.unread', n, { name }),
  /** "Windsurf keeps its chats encrypted; Sepia can list them but not read them." (issue 18). */
  encrypted: (name: string) => tr('health.encrypted', { name }),
  /** How many encrypted chat files were found and when they changed (ms since epoch). */
  encryptedFound: (name: string, n: number, oldestMs: number | undefined, newestMs: number | undefined) =>
    trn('health.encryptedFound', n, { name, oldest: formatDateTime(oldestMs), newest: formatDateTime(newestMs) }),
  /** One write job a killed Sepia left unfinished and the next start recovered, in the language in effect (not `InterruptedWrite.message`, which main writes in English). */
  interrupted: (w: Pick<InterruptedWrite, 'kind' | 'outcome' | 'startedAt'>) =>
    tr('health.interrupted', {
      job: tr(JOB_KEYS[w.kind]),
      time: formatDateTime(w.startedAt),
      outcome: tr(OUTCOME_KEYS[w.outcome]),
    }),
  secrets: (n: number) => trn('health.secrets', n),
  reported: (path: string, secrets: number) => tr('health.reported', { path, secrets: trn('health.secrets', secrets) }),
  /** The parts {@link summary} is made of, each usable alone. */
  summaryReadRecords: (pct: string, records: number, sessions: number) =>
    tr('health.summaryReadRecords', { pct, records: trn('health.records', records), sessions: trn('health.sessions', sessions) }),
  summarySkipped: (n: number) => trn('health.summarySkipped', n),
  /** Records cut short or damaged (`HealthReport.totals.recordsUnreadable`). */
  summaryUnreadable: (n: number) => trn('health.summaryUnreadable', n),
  summaryReadSessions: (sessions: number, files: number) => tr('health.summaryReadSessions', { sessions: trn('health.sessions', sessions), files: trn('health.files', files) }),
  summarySkippedFiles: (n: number) => trn('health.summarySkippedFiles', n),
  summaryPartial: (n: number) => trn('health.summaryPartial', n),
  summaryUnanswered: (n: number) => trn('health.summaryUnanswered', n),
  summarySentence: (parts: readonly string[]) => tr('health.summarySentence', { parts: parts.join(tr('health.summarySeparator')) }),
  summaryUnread: (sentence: string, agents: readonly string[]) => tr('health.summaryUnread', { sentence, agents: agents.join(', ') }),
  /**
   * The report's one sentence in the language in effect: the same parts, in the same order, as
   * `summarizeHealth` (src/main/health/report.ts) writes into `HealthReport.summary` in English
   * for `sepia doctor`.
   */
  summary: (r: Pick<HealthReport, 'totals' | 'homes'>): string => {
    const t = r.totals
    const parts: string[] = []
    if (t.records > 0) {
      parts.push(healthStrings.summaryReadRecords(percentRead(t), t.records, t.sessions))
      const bad = t.recordsUnreadable ?? 0
      if (t.recordsSkipped - bad > 0) parts.push(healthStrings.summarySkipped(t.recordsSkipped - bad))
      if (bad > 0) parts.push(healthStrings.summaryUnreadable(bad))
    } else if (t.sessions === 0) parts.push(tr('health.summaryNoSessions'))
    else parts.push(healthStrings.summaryReadSessions(t.sessions, t.filesRead))
    if (t.skippedFiles > 0) parts.push(healthStrings.summarySkippedFiles(t.skippedFiles))
    if (t.partialSessions > 0) parts.push(healthStrings.summaryPartial(t.partialSessions))
    if (t.toolCallsWithoutResult > 0) parts.push(healthStrings.summaryUnanswered(t.toolCallsWithoutResult))
    const stores = r.homes.flatMap((h) => h.unreadStores)
    const unread = [...new Set(stores.filter((u) => u.reason !== 'encrypted').map((u) => u.agentName))]
    const encrypted = [...new Set(stores.filter((u) => u.reason === 'encrypted').map((u) => u.agentName))]
    const s = healthStrings.summarySentence(parts)
    return [unread.length ? healthStrings.summaryUnread(s, unread) : s, ...encrypted.map((name) => healthStrings.encrypted(name))].join(' ')
  },
})
