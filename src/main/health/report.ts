/**
 * `computeHealth(homes, agents, ctx)`: the reading-health report (src/shared/health.ts) of the
 * open homes. For every agent: discover, read each session (as the library does), and take what
 * the readers already produce: discovery diagnostics (files skipped), session diagnostics of
 * severity `error` (sessions read only in part), tool calls without a result
 * (`countPairedToolCalls`), plus the record-type census (census.ts). A record a reader skipped
 * (a line, message, event, row: `skipRecord`, `Diagnostic.skipped`) is often only a `warning` on
 * the session, but a record lost all the same: it makes the session one read in part too
 * (`isSkippedRecord`). Likewise a discovery `warning` that says a file or folder was not read at
 * all (a FIFO or folder where a session file should be, a symbolic link loop, a folder that cannot
 * be listed, a database that cannot be opened: `Diagnostic.skipped`, `isUnreadFile`) is a skipped file, not left out of the report. Never
 * throws for bad content: a session that cannot be read at all is a skipped file.
 */
import type { AgentHealth, HealthReport, HomeHealth, PartialSession, SkippedFile, UnansweredCalls } from '../../shared/health'
import type { AgentDefinition, ReadContext } from '../agents/types'
import { countPairedToolCalls, isSkippedRecord } from '../ir/build'
import type { HomeLayout } from '../platform'
import { isSkipped } from '../../shared/ir'
import { type Census, censusOf, isKnownType, UNREADABLE } from './census'
import { findUnreadStores } from './unread'

const MAX_LISTED = 200

/**
 * A discovery warning whose file (or folder) was not read at all: discovery marks it `skipped`
 * (`Diagnostic.skipped`, set where the warning is made), whatever its words.
 */
export function isUnreadFile(d: { severity: string; skipped?: number }): boolean {
  return d.severity === 'warning' && isSkipped(d)
}

/** Health of one agent under one home. */
async function agentHealth(agent: AgentDefinition, layout: HomeLayout, ctx: ReadContext): Promise<AgentHealth | undefined> {
  const found = await agent.discover(layout, ctx)
  const skippedFiles: SkippedFile[] = found.diagnostics
    .filter((d) => d.severity === 'error' || isUnreadFile(d))
    .map((d) => ({ path: d.path, ...(d.line !== undefined ? { line: d.line } : {}), agent: agent.id, reason: d.message }))
  if (found.refs.length === 0 && skippedFiles.length === 0) return undefined
  const census: Census = new Map()
  const files = new Set<string>()
  const partialSessions: PartialSession[] = []
  const unansweredCalls: UnansweredCalls[] = []
  let toolCalls = 0
  let sessions = 0
  for (const ref of found.refs) {
    let session
    try {
      session = await agent.read(ref, ctx)
    } catch (e) {
      skippedFiles.push({ path: ref.files[0] ?? ref.home, agent: agent.id, sessionId: ref.sessionId, reason: (e as Error).message })
      continue
    }
    sessions++
    // A file is counted once: Claude Code 1.x inline sub-agent threads are sessions of their own
    // read from their parent's file (fixtures/public-real/claude-code/sword-1090-siblings).
    const fresh = session.source.files.filter((f) => !files.has(f))
    for (const f of fresh) files.add(f)
    await censusOf(agent, fresh, census)
    const title = session.title
    const errors = session.diagnostics.filter((d) => d.severity === 'error' || isSkippedRecord(d))
    if (errors.length > 0 && partialSessions.length < MAX_LISTED) {
      partialSessions.push({
        sessionId: session.id,
        ...(title !== undefined ? { title } : {}),
        problems: errors.slice(0, 20).map((d) => ({ path: d.path, ...(d.line !== undefined ? { line: d.line } : {}), sessionId: session.id, agent: agent.id, message: d.message })),
      })
    }
    const paired = countPairedToolCalls(session)
    toolCalls += paired.calls
    if (paired.paired < paired.calls) {
      const answered = new Set(session.nodes.filter((n) => n.role === 'tool' && n.toolCallId).map((n) => n.toolCallId!))
      const names = session.nodes.flatMap((n) => n.toolCalls ?? []).filter((c) => !answered.has(c.id)).map((c) => c.name)
      unansweredCalls.push({ sessionId: session.id, ...(title !== undefined ? { title } : {}), count: paired.calls - paired.paired, names: names.slice(0, 5) })
    }
  }
  const recordTypes: AgentHealth['recordTypes'] = []
  const unknownTypes: AgentHealth['unknownTypes'] = []
  let records = 0
  const unreadable = census.get(UNREADABLE)?.count ?? 0
  for (const [type, e] of [...census].sort((a, b) => b[1].count - a[1].count)) {
    records += e.count
    if (type === UNREADABLE) continue
    const known = isKnownType(agent, type)
    for (const [version, count] of e.versions) recordTypes.push({ type, ...(version ? { version } : {}), count, known })
    if (!known) unknownTypes.push({ type, count: e.count, first: { ...e.first, agent: agent.id } })
  }
  return {
    agent: agent.id,
    displayName: agent.displayName,
    sessions,
    filesRead: files.size,
    records,
    recordsSkipped: unknownTypes.reduce((n, u) => n + u.count, 0) + unreadable,
    recordsUnreadable: unreadable,
    recordTypes,
    unknownTypes,
    skippedFiles,
    partialSessions,
    unansweredCalls: unansweredCalls.slice(0, MAX_LISTED),
    toolCalls,
    toolCallsWithoutResult: unansweredCalls.reduce((n, u) => n + u.count, 0),
  }
}

/** Thousands separators, locale-independent ("48,211"). */
function n(x: number): string {
  return String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** The one plain sentence of the report. */
export function summarizeHealth(r: Omit<HealthReport, 'summary'>): string {
  const t = r.totals
  const parts: string[] = []
  if (t.records > 0) {
    const pct = Math.floor(((t.records - t.recordsSkipped) / t.records) * 1000) / 10
    parts.push(`We read ${t.recordsSkipped === 0 ? '100' : pct.toFixed(1)}% of your ${n(t.records)} records in ${n(t.sessions)} ${t.sessions === 1 ? "session" : "sessions"}`)
    const bad = t.recordsUnreadable ?? 0
    const unknown = t.recordsSkipped - bad
    if (unknown > 0) parts.push(`${n(unknown)} ${unknown === 1 ? 'record' : 'records'} of a kind Sepia does not read yet ${unknown === 1 ? 'was' : 'were'} skipped`)
    if (bad > 0) parts.push(`${n(bad)} ${bad === 1 ? 'record was' : 'records were'} cut short or damaged and could not be read`)
  } else if (t.sessions === 0) parts.push('Sepia found no session it can read here')
  else parts.push(`We read ${n(t.sessions)} ${t.sessions === 1 ? "session" : "sessions"} in ${n(t.filesRead)} ${t.filesRead === 1 ? "file" : "files"}`)
  if (t.skippedFiles > 0) parts.push(`${n(t.skippedFiles)} ${t.skippedFiles === 1 ? 'file' : 'files'} could not be read`)
  if (t.partialSessions > 0) parts.push(`${n(t.partialSessions)} ${t.partialSessions === 1 ? 'session was' : 'sessions were'} read only in part`)
  if (t.toolCallsWithoutResult > 0) parts.push(`${n(t.toolCallsWithoutResult)} tool ${t.toolCallsWithoutResult === 1 ? 'call has' : 'calls have'} no recorded result`)
  // An encrypted store (Windsurf, Trae; issue 18) is not history Sepia cannot read "yet": it gets its own sentence.
  const stores = r.homes.flatMap((h) => h.unreadStores)
  const unread = [...new Set(stores.filter((u) => u.reason !== 'encrypted').map((u) => u.agentName))]
  const encrypted = [...new Set(stores.filter((u) => u.reason === 'encrypted').map((u) => u.agentName))]
  let s = parts.join('; ') + '.'
  if (unread.length) s += ` Found history of ${unread.join(', ')}, which Sepia cannot read yet.`
  for (const name of encrypted) s += ` ${name} keeps its chats encrypted; Sepia can list them but not read them.`
  return s
}

/** The report over `homes` (each an opened home's layout). `now` stamps it (ms since epoch). */
export async function computeHealth(homes: readonly HomeLayout[], agents: readonly AgentDefinition[], ctx: ReadContext): Promise<HealthReport> {
  const out: HomeHealth[] = []
  for (const layout of homes) {
    const list: AgentHealth[] = []
    for (const a of agents) {
      const h = await agentHealth(a, layout, ctx)
      if (h) list.push(h)
    }
    out.push({ home: layout.home, agents: list, unreadStores: await findUnreadStores(layout) })
  }
  const all = out.flatMap((h) => h.agents)
  const sum = (f: (a: AgentHealth) => number): number => all.reduce((x, a) => x + f(a), 0)
  const base = {
    generatedAt: ctx.now(),
    homes: out,
    totals: {
      sessions: sum((a) => a.sessions),
      filesRead: sum((a) => a.filesRead),
      records: sum((a) => a.records),
      recordsSkipped: sum((a) => a.recordsSkipped),
      recordsUnreadable: sum((a) => a.recordsUnreadable ?? 0),
      skippedFiles: sum((a) => a.skippedFiles.length),
      partialSessions: sum((a) => a.partialSessions.length),
      toolCallsWithoutResult: sum((a) => a.toolCallsWithoutResult),
    },
  }
  return { ...base, summary: summarizeHealth(base) }
}
