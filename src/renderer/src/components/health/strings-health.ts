/**
 * Words of the Health view (issue 14 "Reading health"): `health.*` in `locales/*.json`; plain
 * entries are live getters, entries that take values are functions (see i18n.ts).
 */
import { L, tr, trn, withValues } from '../../i18n'

export const healthStrings = withValues(L.health, {
  sessions: (n: number) => trn('health.sessions', n),
  files: (n: number) => trn('health.files', n),
  records: (n: number) => trn('health.records', n),
  unknownType: (n: number, type: string) => trn('health.unknownType', n, { type }),
  unanswered: (n: number, names: string) => trn('health.unanswered', n, { names }),
  unread: (name: string, n: number) => trn('health.unread', n, { name }),
  secrets: (n: number) => trn('health.secrets', n),
  reported: (path: string, secrets: number) => tr('health.reported', { path, secrets: trn('health.secrets', secrets) }),
})
