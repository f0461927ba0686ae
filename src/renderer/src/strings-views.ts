/**
 * The user-facing strings of the Search, Usage, Timeline and Settings views, the "recovered"
 * badge and the toolbar's index progress. Merged into `strings` (strings.ts) under the keys below,
 * so every string stays reachable through `strings` for translation; kept in their own file so
 * the main strings file stays short. Counts are formatted with `Intl.NumberFormat` here; other
 * numbers and dates arrive formatted (`format.ts`).
 */
import type { CredentialKind } from '../../shared/api'
import type { UsageGroupBy } from '../../shared/catalog'
import type { SettingsScope } from '../../shared/settings'
import type { TimelineTurnType } from '../../shared/timeline'

const nf = new Intl.NumberFormat()
const plural = (n: number, one: string, many: string): string => `${nf.format(n)} ${n === 1 ? one : many}`

/** Strings of the views, grouped by view. */
export const viewStrings = {
  /** The app's own preferences (Settings, components/settings/UpdatesSetting.vue). */
  appPreferences: {
    title: 'Sepia',
    checkForUpdates: 'Check for updates',
    checkForUpdatesHint: 'Off by default: Sepia works offline and asks no server anything. When on, the installed app looks for a new version each time it starts.',
    updatesOn: 'Sepia looks for a new version when it starts.',
  },
  /** A deep link `sepia://session/<agent>/<id>` (or `#/session/...` in browser mode). */
  deepLink: {
    notFound: (agent: string, id: string) => `The link names a ${agent} session "${id}" that is not in the open folders. Open the folder that holds it, then follow the link again.`,
  },
  search: {
    inputLabel: 'Search every message',
    placeholder: 'Search every message  (press / )',
    resultsLabel: 'Search results',
    /** "28 results in 101 ms"; `more`: more exist than shown. */
    count: (n: string, more: boolean, took: string) => `${n}${more ? '+' : ''} ${n === '1' && !more ? 'result' : 'results'} in ${took}`,
    partial: 'the search index is still being built, so results may be incomplete',
    indexing: 'Building the search index',
    partialNoResults: 'The search index is still being built: try again in a moment, or wait for the bar above to fill.',
    emptyTitle: 'Search the text of every message',
    emptyBody: 'Type a few words: every message of every session is searched as you type. All words must match; the last one also matches the start of a word.',
    tips: [
      ['"exact phrase"', 'matches the words in that order'],
      ['-word', 'leaves out messages with that word'],
      ['src/app.ts  snake_case', 'paths and names match as written'],
    ] as const,
    keyboard: 'Press / or Ctrl+F to come back to the box, ↓ or j k to move through the results, Enter to open one.',
    noResultsTitle: (q: string) => `No message contains “${q}”.`,
    noResultsBody: 'Check the spelling, use fewer words, or search for a part of a word.',
    noResultsFiltered: 'Nothing matches with these filters. Clear them to search everything.',
    errorTitle: 'The search failed',
    more: 'Show more results',
    tools: (names: string) => `tools: ${names}`,
    filters: {
      legend: 'Filters',
      agent: 'Agent',
      project: 'Project',
      since: 'From',
      until: 'To',
      model: 'Model',
      modelPlaceholder: 'any model',
      role: 'Who',
      tool: 'Tool',
      toolPlaceholder: 'tool name',
      sort: 'Order',
      relevance: 'Best match',
      recent: 'Newest first',
      any: 'Any',
      clear: (n: number) => `Clear ${plural(n, 'filter', 'filters')}`,
    },
  },

  usage: {
    title: 'Tokens and cost',
    loading: 'Adding up tokens and cost…',
    errorTitle: 'Usage could not be computed',
    timeZone: 'Days in time zone',
    localZone: (zone: string) => `${zone} (this computer)`,
    since: 'From',
    until: 'To',
    agent: 'Agent',
    project: 'Project',
    all: 'All',
    csv: 'Export CSV',
    totalsLabel: 'Totals',
    totalTokens: 'Total tokens',
    totalCost: 'Cost (USD)',
    total: 'Total',
    chartTitle: 'Tokens by day',
    chartTokens: 'tokens',
    chartCost: 'cost (USD)',
    chartLabel: (days: number, zone: string) => `Stacked bar chart of tokens per day over ${plural(days, 'day', 'days')} (days in ${zone}), with the cost per day as a line. The table below lists the same numbers.`,
    daysIn: (zone: string) => `days in ${zone}`,
    breakdown: 'Breakdown',
    groupBy: 'By',
    tableCaption: (group: string) => `Tokens and cost by ${group.toLocaleLowerCase()}`,
    groups: { day: 'Day', project: 'Project', model: 'Model', session: 'Session', agent: 'Agent' } satisfies Record<UsageGroupBy, string>,
    columns: {
      input: 'Input',
      output: 'Output',
      cacheRead: 'Cache read',
      cacheWrite: 'Cache write',
      total: 'Total tokens',
      cost: 'Cost',
      messages: 'Messages',
    },
    empty: 'No token usage recorded for these filters.',
    unpriced: (models: string) => `Not in the pricing table, counted as $0: ${models}.`,
    unpricedRow: (n: number) => `${plural(n, 'message', 'messages')} of a model not in the pricing table (counted as $0)`,
    pricing: (updated: string, recorded: string) =>
      `Cost is what the agents recorded (${recorded} of it), else priced from Sepia's pricing table of ${updated}. Token counts are the agents' own.`,
  },

  timeline: {
    tableLabel: 'Timeline: one row per turn or event',
    loading: 'Building the timeline…',
    errorTitle: 'The timeline could not be built',
    show: 'Show',
    everything: 'Everything',
    projects: 'One project',
    sessions: 'One session',
    count: (n: number) => plural(n, 'row', 'rows'),
    recoveredCount: (n: number) => `${nf.format(n)} recovered`,
    range: (from: string, to: string, total: string) => `Rows ${from}–${to} of ${total}`,
    pages: 'Pages',
    prev: '← Previous',
    next: 'Next →',
    exportCsv: 'Export CSV',
    exportJsonl: 'Export JSONL',
    empty: 'No turns or events in the open folders.',
    emptyFiltered: 'No turns or events for this choice.',
    openSession: (id: string) => `Open session ${id}`,
    columns: {
      timestamp_utc: 'Time (UTC)',
      session_id: 'Session',
      project_path: 'Project',
      git_branch: 'Branch',
      turn_type: 'Type',
      model: 'Model',
      tool_name: 'Tool',
      tool_use_id: 'Tool use id',
      text: 'Text',
      source: 'Source file:line',
      recovered: 'Recovered from',
    },
    turnTypes: {
      user: 'user',
      assistant: 'assistant',
      thinking: 'thinking',
      tool_use: 'tool use',
      tool_result: 'tool result',
      system: 'system',
    } satisfies Record<TimelineTurnType, string>,
  },

  settings: {
    title: 'Agent settings',
    loading: 'Reading agent settings…',
    errorTitle: 'The agent settings could not be read',
    home: 'Home',
    firstHome: (path: string) => path,
    intro: 'What shapes the agents outside their transcripts: instructions they read, tools they may run without asking, scripts they run, and files that hold secrets.',
    noDocuments: (dir: string) => `No Cline documents folder here (${dir}).`,
    empty: (home: string) => `No agent settings found in ${home}.`,
    sendsOutSummary: (n: number) => `${plural(n, 'hook sends', 'hooks send')} session data to another machine. See Hooks below.`,
    holdsSecrets: 'holds secrets — not shown',
    truncated: (size: string) => `Only the start is shown (the file has ${size} bytes).`,
    scopes: { global: 'global', project: 'project', shared: 'shared' } satisfies Record<SettingsScope, string>,
    sections: {
      rules: 'Rules',
      workflows: 'Workflows',
      skills: 'Skills',
      agents: 'Agents',
      plugins: 'Plugins',
      ignoreFiles: 'Ignore files',
      mcp: 'MCP servers',
      hooks: 'Hooks',
      permissions: 'Standing permissions',
      credentials: 'Credential files',
    },
    mcp: {
      disabled: 'disabled',
      autoApprove: 'Runs without asking:',
      none: 'nothing (asks every time)',
      env: 'Environment:',
      headers: 'Headers:',
      valuesHidden: '(values not shown)',
    },
    hooks: {
      trigger: 'Runs',
      sendsDataOut: 'sends session data out',
      sendsDataOutBody: 'This script sends data to another machine. Every hook receives the task’s data (prompts, tool calls, file paths), so that data leaves this computer when it runs. Why Sepia thinks so:',
      hosts: 'To:',
      notExecutable: 'not executable',
      notExecutableHint: 'The file is not executable: Cline skips it on macOS and Linux.',
      script: 'Show the script',
    },
    permission: { key: 'Setting', value: 'Value', file: 'File' },
    credentialsIntro: 'These files hold API keys, tokens or keys. Sepia lists them so you know they are there; it never opens them or shows their content.',
    credentialKinds: {
      'api-keys': 'API keys',
      'oauth-tokens': 'Sign-in tokens',
      'provider-settings': 'Provider settings with keys',
      'mcp-settings': 'MCP settings with secrets',
      connector: 'Connector credentials',
      'remote-config': 'Organisation upload keys',
      'webhook-token': 'Webhook token',
      'encryption-key': 'Encryption key',
    } satisfies Record<CredentialKind, string>,
  },

  recovered: {
    badge: 'recovered',
    title: (source: string, path?: string) =>
      `No transcript holds this any more: rebuilt from ${source}${path ? ` (${path})` : ''}. It may be incomplete.`,
  },

  live: {
    toolbarLabel: 'Indexing agent history',
    /** Short forms for the toolbar. */
    sessions: (done: string, total: string) => `Reading ${done} / ${total} sessions`,
    messages: (done: string, total: string) => `Indexing ${done} / ${total} messages`,
    toolbarHint: 'Sepia is still indexing agent history. The library, search and usage fill in as it goes; everything stays usable meanwhile.',
  },
}
