/**
 * `sepia search <query> [--agent ID] [--project DIR] [--since DATE] [--until DATE] [--role R]
 * [--tool NAME] [--limit N] [--json]`: full-text search from a terminal. The catalog is refreshed
 * first (only changed files are read) and the search index completed, so results are whole.
 */
import { SepiaError } from '../shared/api'
import type { SearchFilters, SearchResult } from '../shared/catalog'
import { AGENT_IDS, isAgentId, type Role } from '../shared/ir'
import type { SepiaService } from '../main/api'
import { AGENTS } from '../main/agents/registry'
import { unknownAgentError } from './agent-arg'
import { plural } from '../shared/plural'
import { localMinute, localZoneName } from './terminal'

/** Usage lines of the search and usage commands (for the CLI's help). */
export const SEARCH_USAGE = `  sepia search <query> [--agent ID] [--project DIR] [--since DATE] [--until DATE]
               [--role R] [--tool NAME] [--limit N] [--home DIR] [--json]
                                                find words in every session (DATE: YYYY-MM-DD, YYYY-MM-DDTHH:MM or 7d;
${' '.repeat(48)}R: user, assistant, tool or system)
`

/** Options the search command reads. */
export interface SearchCliOptions {
  agent?: string
  project?: string
  since?: string
  until?: string
  role?: string
  tool?: string
  limit?: string
  json?: boolean
}

/**
 * `--since`/`--until` as typed (`option` names it in the error): `7d` (that many days before `now`,
 * ms since epoch, as a UTC day `YYYY-MM-DD`), a day `YYYY-MM-DD`, or, unless `dayOnly` (usage
 * counts whole days), a day and time `YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]` (Date.parse; no zone is
 * local time). Throws `BAD_ARGUMENT` naming the forms accepted for anything else ("yesterday").
 */
export function dateOption(value: string | undefined, now: number, option = '--since', dayOnly = false): string | undefined {
  if (value === undefined) return undefined
  const rel = /^(\d+)d$/.exec(value)
  if (rel) return new Date(now - Number(rel[1]) * 86_400_000).toISOString().slice(0, 10)
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (day && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return value
  if (!dayOnly && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value.replace(' ', 'T')))) return value.replace(' ', 'T')
  throw new SepiaError({
    code: 'BAD_ARGUMENT',
    message: `${option} "${value}" is not a date Sepia reads. Give a day (2026-11-30)${dayOnly ? '' : ', a day and time (2026-11-30T14:00)'} or a number of days ago (7d).`,
  })
}

/** The roles a message can have, for `--role` (src/shared/ir.ts `Role`). */
const ROLES: readonly Role[] = ['user', 'assistant', 'tool', 'system']

/** Text output: one hit per block with matches in [brackets]. */
export function formatHits(r: SearchResult): string {
  const lines = [`${plural(`${r.hits.length}${r.more ? '+' : ''}`, 'match', 'matches')} for "${r.query}" (${r.tookMs} ms)${r.partial ? ' — index still filling, results may be missing' : ''}`]
  if (r.hits.length > 0) lines.push(`Times in ${localZoneName()}.`)
  for (const h of r.hits) {
    let text = ''
    let at = 0
    for (const [a, b] of h.highlights) {
      text += h.snippet.slice(at, a) + '[' + h.snippet.slice(a, b) + ']'
      at = b
    }
    text += h.snippet.slice(at)
    const when = localMinute(h.createdAt)
    lines.push('', `${h.agent} ${h.sessionId} #${h.nodeIndex} ${when} ${h.role}${h.sessionTitle ? `  ${h.sessionTitle}` : ''}`, `  ${text}`)
  }
  return lines.join('\n') + '\n'
}

/** Run `sepia search`. Resolves the exit code. */
export async function runSearch(api: SepiaService, query: string | undefined, o: SearchCliOptions, out: NodeJS.WritableStream, now = Date.now()): Promise<number> {
  if (!query) throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'sepia search needs something to look for, e.g. sepia search "parseLine".' })
  const filters: SearchFilters = {}
  if (o.agent !== undefined) {
    if (!isAgentId(o.agent)) throw unknownAgentError(o.agent, AGENT_IDS, AGENTS, 'reads')
    filters.agent = o.agent
  }
  if (o.project !== undefined) filters.project = o.project
  const since = dateOption(o.since, now, '--since')
  const until = dateOption(o.until, now, '--until')
  if (since !== undefined) filters.since = since
  if (until !== undefined) filters.until = until
  if (o.role !== undefined) {
    if (!ROLES.includes(o.role as Role)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `--role "${o.role}" is not a role; the roles are ${ROLES.join(', ')}.` })
    filters.role = o.role as Role
  }
  if (o.tool !== undefined) filters.toolName = o.tool
  if (o.limit !== undefined) {
    const n = Number(o.limit)
    if (!Number.isInteger(n) || n < 1) throw new SepiaError({ code: 'BAD_ARGUMENT', message: '--limit must be a whole number of at least 1.' })
    filters.limit = n
  }
  await api.ready()
  await api.library.refresh()
  await api.library.whenIdle()
  const result = await api.search(query, filters)
  out.write(o.json ? JSON.stringify(result, null, 2) + '\n' : formatHits(result))
  // No agent history here, so the built-in demo library was searched: say so, as `sepia list` does.
  if (!o.json && api.library.openHomes.some((h) => h.isDemo)) out.write('\n(These are from the demo library: Sepia found no agent history of yours. Use --home DIR to search a copied home folder.)\n')
  return 0
}
