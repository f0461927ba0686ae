/**
 * Pure helpers of the archive's UI (issue 19): the retention warning's sentence, the "Archived:
 * deleted by … on …" note, and whether the first-start question may open on its own.
 */
import type { ArchivedMark, RetentionWarning } from '../../../../shared/archive'
import { strings } from '../../strings'

/**
 * localStorage key: "1" asks the first-start question even in an automated browser
 * (`navigator.webdriver`), where it is otherwise not asked so other browser tests see the app as before.
 */
export const ARCHIVE_ASK_FORCE_KEY = 'sepia.archive.ask'

/** Whether the question may open on its own (always, except in an automated browser unless forced). */
export function archiveQuestionAllowed(storage: Pick<Storage, 'getItem'> | undefined, webdriver: boolean): boolean {
  if (!webdriver) return true
  try {
    return storage?.getItem(ARCHIVE_ASK_FORCE_KEY) === '1'
  } catch {
    return false
  }
}

/** "Claude Code will delete 14 sessions in the next 7 days; they are safe in Sepia's archive". */
export function warningText(w: RetentionWarning): string {
  const t = strings.archive
  const tail = w.archived >= w.due ? t.safe : w.archived > 0 ? t.partlySafe(w.archived, w.due) : t.notArchived
  return `${t.willDelete(w.agentName, w.due, w.withinDays)}; ${tail}`
}

/** "Archived: deleted by Claude Code on 12 Nov" (the day in the user's locale). */
export function archivedNote(mark: ArchivedMark, locale?: string): string {
  const date = new Date(mark.goneAt).toLocaleDateString(locale, { day: 'numeric', month: 'short' })
  return strings.archive.archivedNote(mark.agentName, date)
}
