/**
 * The user-facing strings of the Search, Usage, Timeline and Settings views, the "recovered"
 * badge and the toolbar's index progress: the entries of `locales/*.json` that take values, as
 * functions over the live message tree (see strings.ts, i18n.ts). Merged into `strings`
 * (strings.ts) under the keys below; kept in their own file so the main strings file stays short.
 * Counts are formatted here; other numbers and dates arrive formatted (`format.ts`).
 */
import type { CredentialKind } from '../../shared/api'
import type { UsageGroupBy } from '../../shared/catalog'
import type { SettingsScope } from '../../shared/settings'
import type { TimelineTurnType } from '../../shared/timeline'
import { count, L, tr, trn, withValues } from './i18n'

/** Strings of the views, grouped by view. */
export const viewStrings = {
  /** The app's own preferences (Settings, components/settings/UpdatesSetting.vue). */
  appPreferences: L.appPreferences,
  /** A deep link `sepia://session/<agent>/<id>` (or `#/session/...` in browser mode). */
  deepLink: withValues(L.deepLink, {
    notFound: (agent: string, id: string) => tr('deepLink.notFound', { agent, id }),
  }),
  search: withValues(L.search, {
    /** "28 results in 101 ms"; `n` formatted, `more`: more exist than shown. */
    count: (n: string, more: boolean, took: string) =>
      more ? tr('search.countMore', { n, took }) : trn('search.count', Number(n.replace(/\D/g, '')) || 0, { n, took }),
    /** "28+ results in 101 ms" (part of {@link count}). */
    countMore: (n: string, took: string) => tr('search.countMore', { n, took }),
    /** Query examples and what they do: `[example, meaning]`. */
    get tips(): readonly (readonly [string, string])[] {
      const t = L.search.tips
      return [
        [t.phrase.example, t.phrase.meaning],
        [t.exclude.example, t.exclude.meaning],
        [t.names.example, t.names.meaning],
      ]
    },
    noResultsTitle: (q: string) => tr('search.noResultsTitle', { q }),
    tools: (names: string) => tr('search.tools', { names }),
    filters: withValues(L.search.filters, {
      clear: (n: number) => trn('search.filters.clear', n),
    }),
  }),

  usage: withValues(L.usage, {
    localZone: (zone: string) => tr('usage.localZone', { zone }),
    days: (n: number) => trn('usage.days', n),
    chartLabel: (days: number, zone: string) => tr('usage.chartLabel', { days: trn('usage.days', days), zone }),
    daysIn: (zone: string) => tr('usage.daysIn', { zone }),
    /** The table's caption; `group` as in a sentence (`strings.usage.groupsInSentence`). */
    tableCaption: (group: string) => tr('usage.tableCaption', { group }),
    groups: L.usage.groups satisfies Record<UsageGroupBy, string>,
    groupsInSentence: L.usage.groupsInSentence satisfies Record<UsageGroupBy, string>,
    unpriced: (models: string) => tr('usage.unpriced', { models }),
    unpricedRow: (n: number) => trn('usage.unpricedRow', n),
    tokensUnknown: (agent: string, cost: string) => tr('usage.tokensUnknown', { agent, cost }),
    pricing: (updated: string, recorded: string) => tr('usage.pricing', { updated, recorded }),
  }),

  timeline: withValues(L.timeline, {
    count: (n: number) => trn('timeline.count', n),
    recoveredCount: (n: number) => tr('timeline.recoveredCount', { n: count(n) }),
    range: (from: string, to: string, total: string) => tr('timeline.range', { from, to, total }),
    openSession: (id: string) => tr('timeline.openSession', { id }),
    turnTypes: L.timeline.turnTypes satisfies Record<TimelineTurnType, string>,
  }),

  settings: withValues(L.settings, {
    firstHome: (path: string) => tr('settings.firstHome', { path }),
    noDocuments: (dir: string) => tr('settings.noDocuments', { dir }),
    empty: (home: string) => tr('settings.empty', { home }),
    sendsOutSummary: (n: number) => trn('settings.sendsOutSummary', n),
    truncated: (size: string) => tr('settings.truncated', { size }),
    scopes: L.settings.scopes satisfies Record<SettingsScope, string>,
    credentialKinds: L.settings.credentialKinds satisfies Record<CredentialKind, string>,
  }),

  recovered: withValues(L.recovered, {
    title: (source: string, path?: string) => (path ? tr('recovered.titleWithPath', { source, path }) : tr('recovered.title', { source })),
    titleWithPath: (source: string, path: string) => tr('recovered.titleWithPath', { source, path }),
  }),

  live: withValues(L.live, {
    /** Short forms for the toolbar. */
    sessions: (done: string, total: string) => tr('live.sessions', { done, total }),
    messages: (done: string, total: string) => tr('live.messages', { done, total }),
  }),

  /** The UI language choice (Settings). `name`: a language's own name (`language.name` of its file). */
  language: withValues(L.language, {
    system: (name: string) => tr('language.system', { name }),
  }),
}
