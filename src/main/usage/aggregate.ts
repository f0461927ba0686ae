/**
 * Usage and cost aggregations over the catalog's `usage` table (one row per message that records
 * token usage; the readers already applied their de-duplication rules, e.g. Claude Code's one
 * node per `message.id`, Codex's forks counted once).
 *
 * SQL sums tokens per (15-minute UTC bucket, model, long-context flag, group); JavaScript turns
 * buckets into days of the requested time zone (every zone's offset is a multiple of 15 minutes,
 * so a bucket never straddles a local midnight) and prices the tokens whose store recorded no
 * cost. Sub-agent sessions are rolled into their root session for `by: "session"`.
 */
import type Database from 'better-sqlite3'
import { SepiaError } from '../../shared/api'
import type { UsageGroupBy, UsageQuery, UsageReport, UsageRow, UsageTotals } from '../../shared/catalog'
import { isAgentId, type AgentId } from '../../shared/ir'
import { THINKING_SEPARATE, TOKENS_UNKNOWN } from '../../shared/usage-rules'
import { inList } from '../catalog/store'
import { isWindowsPath, projectKey } from '../../shared/project-key'
import { costOf, type PriceBook } from './pricing'
import { checkTimeZone, dayOf, localTimeZone, nextDay, startOfDay } from './zone'

const GROUPS: readonly UsageGroupBy[] = ['day', 'project', 'model', 'session', 'agent']
const BUCKET_MS = 900_000
/** `TOKENS_UNKNOWN` as an SQL list of literals (constant agent ids, checked to be plain words). */
const TU_SQL = `(${TOKENS_UNKNOWN.map((a) => {
  if (!/^[a-z0-9-]+$/.test(a)) throw new Error(`bad agent id ${a}`)
  return `'${a}'`
}).join(', ')})`
/** Column `c` of `usage u`, 0 for an agent of {@link TOKENS_UNKNOWN}. */
const tok = (c: string): string => `CASE WHEN s.agent IN ${TU_SQL} THEN 0 ELSE u.${c} END`

interface SqlRow {
  b: number | null
  model: string | null
  long: number
  sid: number
  n: number
  inp: number
  outp: number
  cr: number
  cw: number
  th: number
  recorded: number | null
  n_un: number
  u_inp: number
  u_outp: number
  u_cr: number
  u_cw: number
  u_th: number
  th_sep: number
  n_tu: number
}

interface SessionInfo {
  sid: number
  home: string
  agent: string
  session_id: string
  parent_session_id: string | null
  title: string | null
  project: string | null
}

/** An empty totals object. */
export function emptyTotals(): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, thinkingTokens: 0, totalTokens: 0, cost: 0, recordedCost: 0, messages: 0, unpricedMessages: 0, tokensUnknownMessages: 0 }
}

function bound(value: string | number | undefined, name: string, timeZone: string, end: boolean): number | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return startOfDay(end ? nextDay(value) : value, timeZone)
  throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${name}" must be a day (YYYY-MM-DD) or ms since epoch; got ${JSON.stringify(value)}.` })
}

function lastFolder(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean)
  return parts[parts.length - 1] ?? path
}

/** Validate a {@link UsageQuery} (throws `BAD_ARGUMENT`). */
export function checkUsageQuery(q: UsageQuery): { by: UsageGroupBy; timeZone: string; since?: number; until?: number } {
  if (!q || typeof q !== 'object') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'Give the usage query as an object, e.g. {by: "day"}.' })
  if (!GROUPS.includes(q.by)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `Usage can be grouped by ${GROUPS.slice(0, -1).join(', ')} or ${GROUPS[GROUPS.length - 1]}; got ${JSON.stringify(q.by)}.` })
  if (q.agent !== undefined && !isAgentId(q.agent)) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${String(q.agent)}" is not an agent Sepia knows.` })
  const timeZone = checkTimeZone(q.timeZone ?? localTimeZone())
  const out: { by: UsageGroupBy; timeZone: string; since?: number; until?: number } = { by: q.by, timeZone }
  const since = bound(q.since, 'since', timeZone, false)
  const until = bound(q.until, 'until', timeZone, true)
  if (since !== undefined) out.since = since
  if (until !== undefined) out.until = until
  return out
}

/**
 * One statement a usage aggregation asks its backend to run: SQL with `?` placeholders (a
 * PostgreSQL backend renumbers them `$1...`) over `sessions s` and `usage u`, portable between
 * SQLite and PostgreSQL (no boolean sums, no dialect functions but `substr`).
 */
export interface UsageStatement {
  sql: string
  args: unknown[]
}

/** Options of {@link usageSteps}: the column of `sessions` that holds the home (SQLite `home`, the team catalog `machine`). */
export interface UsageDialect {
  homeColumn: string
}

/**
 * The aggregation as steps: yields the statements to run (sessions, then the usage sums) and
 * takes each one's rows (numbers as numbers; a backend that returns bigints as text converts
 * them), returns the report. {@link aggregateUsage} drives it on better-sqlite3; the team catalog
 * (src/main/team/catalog.ts) on PostgreSQL, so both answer the same. Rejects `BAD_ARGUMENT` for a
 * bad query (on the first step).
 */
export function* usageSteps(homes: readonly string[], query: UsageQuery, prices: PriceBook, dialect: UsageDialect = { homeColumn: 'home' }): Generator<UsageStatement, UsageReport, Record<string, unknown>[]> {
  const { by, timeZone, since, until } = checkUsageQuery(query)
  const report: UsageReport = { by, timeZone, rows: [], totals: emptyTotals(), unpricedModels: [], tokensUnknown: [], pricing: { updated: prices.table.updated, source: prices.table.source } }
  if (homes.length === 0) return report
  const home = dialect.homeColumn

  // Sessions of the open homes; the same (agent, id) under two homes counts once (first home).
  // (One home cannot hold an id twice; days and models need no session details then.)
  const needInfo = by === 'session' || by === 'project' || by === 'agent' || homes.length > 1
  const sessions = needInfo ? ((yield { sql: `SELECT sid, ${home} AS home, agent, session_id, parent_session_id, title, project FROM sessions WHERE ${home} IN ${inList(homes.length)}`, args: [...homes] }) as unknown as SessionInfo[]) : []
  for (const s of sessions) s.sid = Number(s.sid)
  const order = new Map(homes.map((h, i) => [h, i]))
  sessions.sort((a, b) => order.get(a.home)! - order.get(b.home)!)
  const seen = new Set<string>()
  const info = new Map<number, SessionInfo>()
  const byKey = new Map<string, SessionInfo>()
  const skip: number[] = []
  for (const s of sessions) {
    const key = `${s.agent}/${s.session_id}`
    if (seen.has(key)) {
      skip.push(s.sid)
      continue
    }
    seen.add(key)
    info.set(s.sid, s)
    byKey.set(key, s)
  }

  // The first spelling seen of each project (shared/project-key.ts, as `list` and the library do).
  const projectSpelling = new Map<string, string>()
  for (const s of info.values()) if (s.project?.trim() && !projectSpelling.has(projectKey(s.project))) projectSpelling.set(projectKey(s.project), s.project)

  const where: string[] = [`s.${home} IN ${inList(homes.length)}`]
  const args: unknown[] = [...homes]
  if (skip.length) {
    where.push(`u.sid NOT IN ${inList(skip.length)}`)
    args.push(...skip)
  }
  if (query.agent) {
    where.push('s.agent = ?')
    args.push(query.agent)
  }
  if (query.project !== undefined) {
    if (typeof query.project !== 'string' || query.project === '') throw new SepiaError({ code: 'BAD_ARGUMENT', message: 'The project filter must be a folder path.' })
    const p = query.project.replace(/[\\/]+$/, '')
    if (isWindowsPath(p)) {
      // Windows folders match without regard to case or slash direction (projectKey).
      const k = projectKey(p)
      const col = `lower(replace(s.project, '/', ?))`
      where.push(`(${col} = ? OR substr(${col}, 1, ?) = ?)`)
      args.push('\\', k, '\\', k.length + 1, `${k}\\`)
    } else {
      where.push(`(s.project = ? OR substr(s.project, 1, ?) = ?)`)
      args.push(p, p.length + 1, `${p}/`)
    }
  }
  if (since !== undefined) {
    where.push('u.created_at >= ?')
    args.push(since)
  }
  if (until !== undefined) {
    where.push('u.created_at < ?')
    args.push(until)
  }
  const bucket = by === 'day' ? `u.created_at / ${BUCKET_MS}` : 'NULL'
  const bySid = by === 'session' || by === 'project' || by === 'agent'
  const big = `CASE WHEN ${tok('input_tokens')} + ${tok('cache_read_tokens')} + ${tok('cache_write_tokens')} > 200000 THEN 1 ELSE 0 END`
  const groupBy = [by === 'day' ? bucket : null, 'u.model', big, ...(bySid ? ['u.sid'] : [])].filter((g) => g !== null).join(', ')
  const [inp, outp, cr, cw, th] = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'thinking_tokens'].map(tok)
  const raw = yield {
    sql: `SELECT ${bucket} AS b, u.model AS model, ${big} AS long, ${bySid ? 'u.sid' : '0'} AS sid,
        count(*) AS n, sum(${inp}) AS inp, sum(${outp}) AS outp, sum(${cr}) AS cr, sum(${cw}) AS cw,
        sum(${th}) AS th, sum(u.cost) AS recorded, sum(CASE WHEN u.cost IS NULL THEN 1 ELSE 0 END) AS n_un,
        sum(CASE WHEN u.cost IS NULL THEN ${inp} ELSE 0 END) AS u_inp, sum(CASE WHEN u.cost IS NULL THEN ${outp} ELSE 0 END) AS u_outp,
        sum(CASE WHEN u.cost IS NULL THEN ${cr} ELSE 0 END) AS u_cr, sum(CASE WHEN u.cost IS NULL THEN ${cw} ELSE 0 END) AS u_cw,
        sum(CASE WHEN u.cost IS NULL AND s.agent IN ${inList(THINKING_SEPARATE.length)} THEN ${th} ELSE 0 END) AS u_th,
        sum(CASE WHEN s.agent IN ${inList(THINKING_SEPARATE.length)} THEN ${th} ELSE 0 END) AS th_sep,
        ${TOKENS_UNKNOWN.map((a, i) => `sum(CASE WHEN s.agent = '${a}' THEN 1 ELSE 0 END) AS tu_n_${i}, sum(CASE WHEN s.agent = '${a}' THEN u.cost ELSE 0 END) AS tu_c_${i}`).join(', ')}
       FROM usage u JOIN sessions s ON s.sid = u.sid
       WHERE ${where.join(' AND ')}
       GROUP BY ${groupBy}`,
    args: [...THINKING_SEPARATE, ...THINKING_SEPARATE, ...args],
  }
  const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v))
  const rows: SqlRow[] = raw.map((r) => ({
    b: r.b === null || r.b === undefined ? null : Number(r.b),
    model: (r.model as string | null) ?? null,
    long: num(r.long),
    sid: num(r.sid),
    n: num(r.n),
    inp: num(r.inp),
    outp: num(r.outp),
    cr: num(r.cr),
    cw: num(r.cw),
    th: num(r.th),
    recorded: r.recorded === null || r.recorded === undefined ? null : Number(r.recorded),
    n_un: num(r.n_un),
    u_inp: num(r.u_inp),
    u_outp: num(r.u_outp),
    u_cr: num(r.u_cr),
    u_cw: num(r.u_cw),
    u_th: num(r.u_th),
    th_sep: num(r.th_sep),
    n_tu: TOKENS_UNKNOWN.reduce((t, _a, i) => t + num(r[`tu_n_${i}`]), 0),
  }))
  const tokensUnknown = TOKENS_UNKNOWN.map((agent, i) => ({ agent, messages: 0, cost: 0, i }))
  for (const r of raw) for (const t of tokensUnknown) {
    t.messages += num(r[`tu_n_${t.i}`])
    t.cost += num(r[`tu_c_${t.i}`])
  }
  report.tokensUnknown = tokensUnknown.filter((t) => t.messages > 0).map(({ agent, messages, cost }) => ({ agent, messages, cost }))

  // Root session of a sub-agent (parent chain within the same home and agent).
  const rootOf = (sid: number): SessionInfo | undefined => {
    let s = info.get(sid)
    for (let i = 0; s?.parent_session_id && i < 64; i++) {
      const p = byKey.get(`${s.agent}/${s.parent_session_id}`)
      if (!p || p === s) break
      s = p
    }
    return s
  }
  const groups = new Map<string, UsageRow & { models: string[]; subs?: Set<number> }>()
  const dayCache = new Map<number, string>()
  const unpriced = new Set<string>()
  for (const r of rows) {
    let key: string
    let label: string
    let extra: Partial<UsageRow> = {}
    if (by === 'day') {
      if (r.b === null) key = 'unknown'
      else {
        key = dayCache.get(r.b) ?? dayOf(r.b * BUCKET_MS, timeZone)
        dayCache.set(r.b, key)
      }
      label = key
    } else if (by === 'model') {
      key = r.model ?? 'unknown'
      label = key
    } else {
      const s = by === 'session' ? rootOf(r.sid) : info.get(r.sid)
      if (by === 'agent') {
        key = s?.agent ?? 'unknown'
        label = key
      } else if (by === 'project') {
        // One folder recorded in two spellings (`c:\…` and `C:\…`) is one project, as in the list.
        const shown = s?.project ? projectSpelling.get(projectKey(s.project)) ?? s.project : undefined
        key = shown ?? '(no project)'
        label = shown ? lastFolder(shown) : key
      } else {
        key = s ? `${s.agent}/${s.session_id}` : 'unknown'
        label = s?.title ?? s?.session_id ?? key
        extra = s ? { agent: s.agent as AgentId, sessionId: s.session_id, ...(s.project ? { project: s.project } : {}) } : {}
      }
    }
    let g = groups.get(key)
    if (!g) {
      g = { key, label, ...emptyTotals(), models: [], ...extra }
      groups.set(key, g)
    }
    if (by === 'session' && r.sid !== rootOf(r.sid)?.sid) (g.subs ??= new Set()).add(r.sid)
    if (r.model && !g.models.includes(r.model)) g.models.push(r.model)
    const price = prices.price(r.model)
    let priced = 0
    if (r.n_un > 0) {
      if (price) priced = costOf(price, { input: r.u_inp, output: r.u_outp + r.u_th, cacheRead: r.u_cr, cacheWrite: r.u_cw }, r.long === 1)
      else if (r.u_inp + r.u_outp + r.u_cr + r.u_cw > 0) {
        g.unpricedMessages += r.n_un
        unpriced.add(r.model ?? 'unknown')
      }
    }
    for (const t of [g, report.totals]) {
      t.messages += r.n
      t.tokensUnknownMessages += r.n_tu
      t.inputTokens += r.inp
      // Reasoning is output for every agent (THINKING_SEPARATE).
      t.outputTokens += r.outp + r.th_sep
      t.cacheReadTokens += r.cr
      t.cacheWriteTokens += r.cw
      t.thinkingTokens += r.th
      t.totalTokens += r.inp + r.outp + r.th_sep + r.cr + r.cw
      t.recordedCost += r.recorded ?? 0
      t.cost += (r.recorded ?? 0) + priced
    }
    if (!price && r.n_un > 0 && r.u_inp + r.u_outp + r.u_cr + r.u_cw > 0) report.totals.unpricedMessages += r.n_un
  }
  for (const g of groups.values()) {
    const { subs, ...row } = g
    if (by === 'session') row.subagentSessions = subs?.size ?? 0
    report.rows.push(row)
  }
  if (by === 'day') report.rows.sort((a, b) => a.key.localeCompare(b.key))
  else report.rows.sort((a, b) => b.cost - a.cost || b.totalTokens - a.totalTokens || a.key.localeCompare(b.key))
  report.unpricedModels = [...unpriced].sort()
  return report
}

/** Aggregate usage of the sessions under `homes` in a SQLite catalog. Rejects `BAD_ARGUMENT` for a bad query. */
export function aggregateUsage(db: Database.Database, homes: readonly string[], query: UsageQuery, prices: PriceBook): UsageReport {
  const steps = usageSteps(homes, query, prices)
  for (let step = steps.next(); ; ) {
    if (step.done) return step.value
    const st = step.value
    step = steps.next(db.prepare(st.sql).all(...st.args) as Record<string, unknown>[])
  }
}

/**
 * A report as CSV (RFC 4180 quoting): one row per group, then a `TOTAL` row. The last column,
 * `tokens_unknown_messages`, counts the messages whose tokens are unknown (Crush): where it is not
 * 0 the token columns leave those out.
 */
export function usageCsv(report: UsageReport): string {
  const head = ['key', 'label', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'thinking_tokens', 'total_tokens', 'cost_usd', 'recorded_cost_usd', 'messages', 'models', 'tokens_unknown_messages']
  const q = (v: string | number): string => {
    const s = String(v)
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
  }
  const line = (key: string, label: string, t: UsageTotals, models: string[]): string =>
    [key, label, t.inputTokens, t.outputTokens, t.cacheReadTokens, t.cacheWriteTokens, t.thinkingTokens, t.totalTokens, t.cost.toFixed(6), t.recordedCost.toFixed(6), t.messages, models.join(' '), t.tokensUnknownMessages].map(q).join(',')
  const lines = [head.join(','), ...report.rows.map((r) => line(r.key, r.label, r, r.models)), line('TOTAL', `by ${report.by} (${report.timeZone})`, report.totals, [])]
  return lines.join('\n') + '\n'
}
