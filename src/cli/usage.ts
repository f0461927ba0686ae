/**
 * `sepia usage [--by day|project|model|session|agent] [--since DATE] [--until DATE] [--tz ZONE]
 * [--agent ID] [--project DIR] [--json | --csv]`: tokens and cost from a terminal. The catalog is
 * refreshed first (only changed files are read; only the `--agent` given, when one is); the search
 * index is not filled by this command (its rows stay pending for the next run that searches).
 */
import { SepiaError } from '../shared/api'
import type { UsageGroupBy, UsageQuery, UsageReport } from '../shared/catalog'
import { AGENT_IDS, isAgentId } from '../shared/ir'
import type { SepiaService } from '../main/api'
import { AGENTS } from '../main/agents/registry'
import { unknownAgentError } from './agent-arg'
import { localTimeZone } from '../main/usage/zone'
import { usageCsv } from '../main/usage/aggregate'
import { dateOption } from './search'

/** Usage lines of the command. */
export const USAGE_USAGE = `  sepia usage [--by day|project|model|session|agent] [--since DATE] [--until DATE]
              [--tz ZONE] [--agent ID] [--project DIR] [--home DIR] [--json | --csv]
                                                tokens and cost (days in ZONE, default local; DATE: YYYY-MM-DD or 7d)
`

/** Options the usage command reads. */
export interface UsageCliOptions {
  by?: string
  since?: string
  until?: string
  tz?: string
  agent?: string
  project?: string
  json?: boolean
  csv?: boolean
}

function n(x: number): string {
  return x.toLocaleString('en-US')
}

/** A plain-text table of a report. */
export function formatUsage(r: UsageReport): string {
  const head = [r.by, 'input', 'output', 'cache read', 'cache write', 'total tokens', 'cost USD']
  // A row all of whose usage has unknown tokens (Crush) says so rather than showing zeros.
  const rows = r.rows.map((x) => {
    const t = (v: number): string => (x.messages > 0 && x.tokensUnknownMessages === x.messages ? 'unknown' : n(v))
    return [r.by === 'session' || r.by === 'project' ? `${x.label}` : x.key, t(x.inputTokens), t(x.outputTokens), t(x.cacheReadTokens), t(x.cacheWriteTokens), t(x.totalTokens), x.cost.toFixed(2)]
  })
  const tt = (v: number): string => (r.totals.messages > 0 && r.totals.tokensUnknownMessages === r.totals.messages ? 'unknown' : n(v))
  rows.push(['TOTAL', tt(r.totals.inputTokens), tt(r.totals.outputTokens), tt(r.totals.cacheReadTokens), tt(r.totals.cacheWriteTokens), tt(r.totals.totalTokens), r.totals.cost.toFixed(2)])
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const fmt = (row: string[]): string => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  const lines = [fmt(head), ...rows.map(fmt)]
  if (r.by === 'day') lines.unshift(`Days in ${r.timeZone}`)
  for (const u of r.tokensUnknown) {
    const name = AGENTS.find((a) => a.id === u.agent)?.displayName ?? u.agent
    lines.push(`${name}: tokens unknown, left out of the token totals; its cost (${u.cost.toFixed(2)} USD) is counted. ${name} keeps only the last request’s token counts, not a total for the session.`)
  }
  if (r.unpricedModels.length) lines.push(`Not in the pricing table (counted as 0 USD): ${r.unpricedModels.join(', ')}`)
  return lines.join('\n') + '\n'
}

/** Run `sepia usage`. Resolves the exit code. */
export async function runUsage(api: SepiaService, o: UsageCliOptions, out: NodeJS.WritableStream, now = Date.now()): Promise<number> {
  const by = (o.by ?? 'day') as UsageGroupBy
  const query: UsageQuery = { by, timeZone: o.tz ?? localTimeZone() }
  if (o.agent !== undefined) {
    if (!isAgentId(o.agent)) throw unknownAgentError(o.agent, AGENT_IDS, AGENTS, 'reads')
    query.agent = o.agent
  }
  if (o.project !== undefined) query.project = o.project
  const since = dateOption(o.since, now, '--since', true)
  const until = dateOption(o.until, now, '--until', true)
  if (since !== undefined) query.since = since
  if (until !== undefined) query.until = until
  await api.ready()
  api.library.refresher.textIndexing = false
  await api.library.refresh(query.agent ? [query.agent] : undefined)
  const report = await api.getUsage(query)
  out.write(o.csv ? usageCsv(report) : o.json ? JSON.stringify(report, null, 2) + '\n' : formatUsage(report))
  // No agent history here, so the built-in demo library was counted: say so, as `sepia list` and `search` do.
  if (!o.json && !o.csv && api.library.openHomes.some((h) => h.isDemo)) out.write('\n(These are the demo library\'s tokens and cost: Sepia found no agent history of yours. Use --home DIR for a copied home folder.)\n')
  return 0
}
