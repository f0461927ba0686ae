/**
 * `sepia timeline [--home DIR]... [--agent ID] [--session ID] [--project P] [--csv | --jsonl | --json]`:
 * the timeline (seed 000's row model) from a terminal. `--csv` and `--jsonl` print the export
 * (`exportTimeline`), `--json` every row as one JSON document, and without a format a table with
 * one line per row (time, session, turn type, tool, text cut to one line, recovered source).
 */
import { SepiaError } from '../shared/api'
import { AGENT_IDS, isAgentId } from '../shared/ir'
import type { TimelineFilter, TimelineRow } from '../shared/timeline'
import type { SepiaService } from '../main/api'
import { AGENTS } from '../main/agents/registry'
import { unknownAgentError } from './agent-arg'
import { MAX_PAGE } from '../main/timeline/service'
import { plural } from '../shared/plural'

/** Usage lines of the command. */
export const TIMELINE_USAGE = `  sepia timeline [--home DIR] [--agent ID] [--session ID] [--project P] [--csv|--jsonl|--json]
                                                one row per turn and event (seed 000 row model)
`

/** Options the timeline command reads. */
export interface TimelineCliOptions {
  agent?: string
  session?: string
  project?: string
  csv?: boolean
  jsonl?: boolean
  json?: boolean
}

/** Run `sepia timeline`. Resolves the exit code (2 for conflicting formats). */
export async function runTimeline(api: SepiaService, o: TimelineCliOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const formats = [o.csv && 'csv', o.jsonl && 'jsonl', o.json && 'json'].filter(Boolean)
  if (formats.length > 1) {
    err.write(`Choose one output format: --csv, --jsonl or --json.\n\n${TIMELINE_USAGE}`)
    return 2
  }
  const filter: TimelineFilter = {}
  if (o.agent !== undefined) {
    if (!isAgentId(o.agent)) throw unknownAgentError(o.agent, AGENT_IDS, AGENTS, 'reads')
    filter.agent = o.agent
  }
  if (o.session !== undefined) filter.sessionId = o.session
  if (o.project !== undefined) filter.project = o.project
  if (o.csv || o.jsonl) {
    out.write(await api.exportTimeline(o.csv ? 'csv' : 'jsonl', filter))
    return 0
  }
  const rows: TimelineRow[] = []
  let total = 0
  let diagnostics: unknown[] = []
  for (let offset = 0; ; offset += MAX_PAGE) {
    const page = await api.getTimeline({ ...filter, offset, limit: MAX_PAGE })
    rows.push(...page.rows)
    total = page.total
    diagnostics = page.diagnostics
    if (offset + MAX_PAGE >= page.total) break
  }
  if (o.json) {
    out.write(JSON.stringify({ total, rows, diagnostics }, null, 2) + '\n')
    return 0
  }
  out.write(formatTimeline(rows))
  return 0
}

/** A plain-text table, one line per row. */
export function formatTimeline(rows: readonly TimelineRow[]): string {
  const lines = [`${plural(rows.length, 'row')}`]
  for (const r of rows) {
    const when = r.timestampUtc !== undefined ? new Date(r.timestampUtc).toISOString().replace('T', ' ').slice(0, 19) : '-'.padEnd(19)
    const text = r.text.replace(/\s+/g, ' ').trim()
    const tool = r.toolName ? ` ${r.toolName}` : ''
    const from = r.recovered ? `  [recovered: ${r.recovered.source}]` : ''
    lines.push(`${when}  ${r.sessionId.padEnd(24).slice(0, 40)}  ${r.turnType.padEnd(11)}${tool}  ${text.length > 100 ? `${text.slice(0, 99)}…` : text}${from}`.trimEnd())
  }
  return lines.join('\n') + '\n'
}
