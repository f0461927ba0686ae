/**
 * The user-facing strings of "Move to another computer…" and "Install a session bundle…" (issue 19,
 * src/renderer/src/components/session-actions/MoveDialog.vue and InstallBundleDialog.vue):
 * `move.*` and `installBundle.*` in `locales/*.json`; plain entries are live getters, entries that
 * take values are functions (see i18n.ts).
 */
import { L, tr, trn, withValues } from './i18n'

export const moveStrings = {
  move: withValues(L.move, {
    files: (n: number) => trn('move.files', n),
    unsupported: (agent: string) => tr('move.unsupported', { agent }),
    /** `bytes` is already formatted (`formatSize`). */
    summary: (files: number, bytes: string) => tr('move.summary', { files: trn('move.files', files), bytes }),
  }),
  installBundle: withValues(L.installBundle, {
    projectHint: (recorded: string) => tr('installBundle.projectHint', { recorded }),
    newId: (old: string) => tr('installBundle.newId', { old }),
    readBack: (messages: number) => trn('installBundle.readBack', messages),
  }),
}
