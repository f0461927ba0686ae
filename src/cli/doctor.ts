/**
 * `sepia doctor [--home DIR] [--json]`: how much of the history Sepia understood (issue 14
 * "Reading health"), in plain words, then per home and agent: sessions and files read, records
 * by type, record types Sepia does not know (with the first file and line), files skipped and
 * why, sessions read only in part, tool calls without a result, and stores of agents Sepia
 * cannot read yet.
 *
 * `sepia doctor --report FILE [--out DIR]`: write a masked copy of one session file (secrets,
 * user names and home paths replaced) into DIR (default: Sepia's data folder) for a bug report.
 * Nothing is sent.
 */
import type { AgentHealth, HealthReport } from '../shared/health'
import type { SepiaService } from '../main/api'
import { safeText } from './terminal'
import { unreadStoreLine } from '../main/health/unread'
import { plural } from '../shared/plural'

/** Usage lines of the command. */
export const DOCTOR_USAGE = `  sepia doctor [--home DIR] [--json]           what Sepia could read of your history, and what not
  sepia doctor --report FILE [--out DIR]        write a masked copy of FILE to attach to a bug report (sends nothing)
`

const MAX_LINES = 10

function where(p: { path: string; line?: number }): string {
  return p.line !== undefined ? `${p.path}:${p.line}` : p.path
}

/** The per-agent block of the text report. */
function agentLines(a: AgentHealth): string[] {
  const out = [`  ${a.displayName}: ${plural(a.sessions, 'session')}, ${plural(a.filesRead, 'file')}${a.records ? `, ${plural(a.records, 'record')}` : ''}`]
  if (a.records) {
    const byType = new Map<string, number>()
    for (const r of a.recordTypes) byType.set(r.type, (byType.get(r.type) ?? 0) + r.count)
    const versions = [...new Set(a.recordTypes.map((r) => r.version).filter((v): v is string => !!v))]
    out.push(`    record types: ${[...byType].map(([t, c]) => `${t} ${c}`).join(', ')}`)
    if (versions.length) out.push(`    agent versions: ${versions.join(', ')}`)
  }
  for (const u of a.unknownTypes) out.push(`    skipped: ${u.count} "${u.type}" ${u.count === 1 ? 'record' : 'records'} of a kind Sepia does not read yet (first at ${where(u.first)})`)
  // A reason that opens with its own path ("<path> is a folder, ...") is not given it twice.
  for (const f of a.skippedFiles.slice(0, MAX_LINES)) out.push(`    file not read: ${f.line === undefined && f.reason.startsWith(f.path) ? f.reason : `${where(f)}: ${f.reason}`}`)
  if (a.skippedFiles.length > MAX_LINES) out.push(`    … and ${plural(a.skippedFiles.length - MAX_LINES, 'more file')} not read`)
  for (const p of a.partialSessions.slice(0, MAX_LINES)) {
    out.push(`    read in part: session ${p.sessionId}${p.title ? ` "${p.title}"` : ''}`)
    for (const d of p.problems.slice(0, 3)) out.push(`      ${where(d)}: ${d.message}`)
  }
  if (a.partialSessions.length > MAX_LINES) out.push(`    … and ${a.partialSessions.length - MAX_LINES} more sessions read in part`)
  for (const c of a.unansweredCalls.slice(0, MAX_LINES)) out.push(`    no result recorded: ${c.count} tool ${c.count === 1 ? 'call' : 'calls'} (${c.names.join(', ')}) in session ${c.sessionId}`)
  if (a.unansweredCalls.length > MAX_LINES) out.push(`    … and ${a.unansweredCalls.length - MAX_LINES} more sessions with calls without a result`)
  return out
}

/** The whole text report. */
export function formatHealth(r: HealthReport): string {
  const lines = [r.summary]
  for (const h of r.homes) {
    lines.push('', h.home)
    if (h.agents.length === 0 && h.unreadStores.length === 0) lines.push('  No agent history found here.')
    for (const a of h.agents) lines.push(...agentLines(a))
    for (const u of h.unreadStores) {
      lines.push(`  ${unreadStoreLine(u)}`)
      for (const p of u.paths) lines.push(`    ${p}`)
    }
  }
  if (r.interruptedWrites?.length) {
    lines.push('', 'Interrupted writes (Sepia was stopped mid-write; what the next start did):')
    for (const w of r.interruptedWrites) lines.push(`  ${new Date(w.recoveredAt).toISOString()} ${w.kind}, ${w.outcome}: ${w.message}`)
  }
  return lines.join('\n') + '\n'
}

/** Run `sepia doctor`. Resolves the exit code (0 also when problems were found: they are the report). */
export async function runDoctor(api: SepiaService, o: { json: boolean; report?: string; out?: string }, out: NodeJS.WritableStream): Promise<number> {
  if (o.report !== undefined) {
    await api.ready()
    if (o.out !== undefined) api.paths.allow(o.out, 'picked')
    const r = await api.reportProblem(o.report, o.out)
    if (o.json) out.write(JSON.stringify(r, null, 2) + '\n')
    else out.write(safeText(`Wrote a masked copy of ${r.source} to ${r.path} (${plural(r.maskedSecrets, 'secret')} masked, ${plural(r.replacedPaths, 'user name or path', 'user names and paths')} replaced). Nothing was sent; attach it to your bug report.\n`))
    return 0
  }
  const report = await api.getHealth()
  out.write(o.json ? JSON.stringify(report, null, 2) + '\n' : safeText(formatHealth(report)))
  return 0
}
