/**
 * The team catalog on PostgreSQL as a {@link CatalogReader}: what `sepia serve --catalog
 * postgres://...` shows. Read-only: it never writes to the database (pushes do, `push.ts`).
 *
 * Machines play the part homes play in the desktop catalog: `Library.homes` lists the machines
 * that pushed (path = the machine's name), each session's `home` is its machine, and a session
 * pushed by two machines is listed once, from the first machine in name order.
 *
 * A session's transcript is built from its pushed message rows (the masked, capped searchable
 * text of each message with text or usage, `catalog/extract.ts`): roles, times, models, tool
 * names and usage survive; blocks, tool arguments and checkpoints stay on the machine that pushed.
 */
import type pg from 'pg'
import { SepiaError, type Library } from '../../shared/api'
import type { SearchFilters, SearchResult, UsageQuery, UsageReport } from '../../shared/catalog'
import { IR_VERSION, type AgentId, type Diagnostic, type HomeOs, type MessageNode, type Session, type SessionSummary } from '../../shared/ir'
import { AGENTS } from '../agents/registry'
import type { CatalogReader } from '../catalog/reader'
import { usageSteps } from '../usage/aggregate'
import type { PriceBook } from '../usage/pricing'
import { checkReadable, teamPool } from './schema'
import { searchTeam } from './search'
import { maskUrl, teamError } from './url'

/** `?` placeholders as PostgreSQL's `$1...` (the usage statements have no `?` inside literals). */
function numbered(sql: string): string {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}

interface MachineRow {
  machine: string
  os: string
}

/** The team catalog at one URL. */
export class TeamCatalog implements CatalogReader {
  readonly pool: pg.Pool
  /** The URL with its password masked (for messages). */
  readonly target: string
  private checked: Promise<void> | undefined

  constructor(
    private readonly url: string,
    private readonly now: () => number = Date.now,
  ) {
    this.pool = teamPool(url, 4)
    this.target = maskUrl(url)
  }

  /** Run `fn` once the schema is known to be readable; driver errors come back with the URL masked. */
  private async read<T>(fn: () => Promise<T>): Promise<T> {
    this.checked ??= checkReadable(this.pool, this.url).catch((e: unknown) => {
      this.checked = undefined
      throw e
    })
    await this.checked
    try {
      return await fn()
    } catch (e) {
      if (e instanceof SepiaError) throw e
      throw teamError(e, this.url, 'read')
    }
  }

  /** The machines that pushed, in name order (the priority order of the catalog's "homes"). */
  async machines(): Promise<MachineRow[]> {
    return this.read(async () => (await this.pool.query('SELECT machine, os FROM machines ORDER BY machine')).rows as MachineRow[])
  }

  private async machineNames(): Promise<string[]> {
    return (await this.machines()).map((m) => m.machine)
  }

  async library(): Promise<Library> {
    const machines = await this.machines()
    return this.read(async () => {
      const r = await this.pool.query('SELECT machine, agent, session_id, summary, diagnostics FROM sessions')
      const order = new Map(machines.map((m, i) => [m.machine, i]))
      const rows = (r.rows as { machine: string; agent: string; session_id: string; summary: SessionSummary; diagnostics: Diagnostic[] | null }[]).sort((a, b) => (order.get(a.machine) ?? 0) - (order.get(b.machine) ?? 0))
      const seen = new Set<string>()
      const sessions: SessionSummary[] = []
      const diagnostics: Diagnostic[] = []
      for (const row of rows) {
        const k = `${row.agent}/${row.session_id}`
        if (seen.has(k)) continue
        seen.add(k)
        sessions.push({ ...row.summary, home: row.machine })
        if (row.diagnostics) diagnostics.push(...row.diagnostics)
      }
      sessions.sort((a, b) => (b.lastActivityAt ?? b.createdAt ?? 0) - (a.lastActivityAt ?? a.createdAt ?? 0))
      const counts = new Map<string, number>()
      for (const s of sessions) counts.set(s.agent, (counts.get(s.agent) ?? 0) + 1)
      return {
        homes: machines.map((m) => ({ path: m.machine, os: m.os as HomeOs, isDemo: false })),
        agents: AGENTS.map((a) => ({ id: a.id, displayName: a.displayName, capabilities: a.capabilities, sessionCount: counts.get(a.id) ?? 0 })),
        sessions,
        diagnostics,
        credentialFiles: [],
        teamCatalog: this.target,
        loadedAt: this.now(),
        index: { phase: 'idle', running: false, done: sessions.length, total: sessions.length, bytesDone: 0, bytesTotal: 0, textDone: 0, textTotal: 0 },
      }
    })
  }

  async session(agent: AgentId, id: string): Promise<Session> {
    const machines = await this.machineNames()
    return this.read(async () => {
      const r = await this.pool.query(
        `SELECT sid, machine, summary, links FROM sessions WHERE agent = $1 AND session_id = $2 ORDER BY array_position($3::text[], machine) LIMIT 1`,
        [agent, id, machines],
      )
      const row = r.rows[0] as { sid: string; machine: string; summary: SessionSummary; links: Record<string, unknown> | null } | undefined
      if (!row) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `No ${agent} session "${id}" in the team catalog at ${this.target}.` })
      const m = await this.pool.query(
        `SELECT m.seq, m.node_id, m.role, m.created_at, m.model, m.tool_names, m.text,
                u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens, u.thinking_tokens, u.cost, u.mid IS NOT NULL AS has_usage
         FROM messages m LEFT JOIN usage u ON u.mid = m.mid WHERE m.sid = $1 ORDER BY m.seq`,
        [row.sid],
      )
      const nodes: MessageNode[] = (m.rows as Record<string, unknown>[]).map((x) => {
        const n: MessageNode = { nodeId: String(x.node_id), role: x.role as MessageNode['role'], content: String(x.text) }
        if (x.created_at !== null) n.createdAt = Number(x.created_at)
        if (x.model !== null) n.model = String(x.model)
        const tools = String(x.tool_names ?? '').trim()
        if (tools && n.role === 'tool') n.toolName = tools.split(/\s+/)[0]!
        if (x.has_usage) {
          n.usage = { inputTokens: Number(x.input_tokens), outputTokens: Number(x.output_tokens), cacheReadTokens: Number(x.cache_read_tokens), cacheWriteTokens: Number(x.cache_write_tokens), thinkingTokens: Number(x.thinking_tokens) }
          if (x.cost !== null) n.usage.cost = Number(x.cost)
        }
        return n
      })
      const s = row.summary
      const session: Session = {
        irVersion: IR_VERSION,
        id: s.id,
        agent: s.agent,
        checkpoints: [],
        nodes,
        source: { format: s.format, files: s.files ?? [], home: row.machine },
        diagnostics: [],
        metadata: { teamCatalog: { machine: row.machine } },
      }
      for (const k of ['title', 'workingDirectory', 'model', 'createdAt', 'lastActivityAt', 'status', 'parentSessionId', 'childSessionIds', 'agentName', 'usage'] as const) {
        if (s[k] !== undefined) (session as unknown as Record<string, unknown>)[k] = s[k]
      }
      return session
    })
  }

  async search(query: string, filters?: SearchFilters): Promise<SearchResult> {
    const machines = await this.machineNames()
    return this.read(() => searchTeam(this.pool, machines, query, filters ?? {}))
  }

  async usage(query: UsageQuery, prices: PriceBook): Promise<UsageReport> {
    const machines = await this.machineNames()
    return this.read(async () => {
      const steps = usageSteps(machines, query, prices, { homeColumn: 'machine' })
      for (let step = steps.next(); ; ) {
        if (step.done) return step.value
        const r = await this.pool.query(numbered(step.value.sql), step.value.args)
        step = steps.next(r.rows as Record<string, unknown>[])
      }
    })
  }

  /** Close the connections. */
  async close(): Promise<void> {
    await this.pool.end()
  }
}
