/**
 * `sepia push`: send one home's catalog rows to the team catalog on PostgreSQL (schema in
 * `schema.ts`). What is sent: per session the masked list summary and link results, its message
 * rows (the searchable text, masked as the SQLite catalog keeps it: `catalog/extract.ts`
 * `searchText`) and its usage rows. Never the raw store files, never unmasked text.
 *
 * Incremental and idempotent: each session's rows get a content hash (SHA-256 of what would be
 * sent); a session whose hash the team catalog already holds for this machine is not sent. A
 * second push of an unchanged home sends nothing. Sessions the home no longer has are removed
 * from the team catalog (for this machine only).
 *
 * Safe to interrupt: each session is replaced (delete + insert of its rows) in one transaction,
 * and the machine's `pushed_at` is set last; a killed push leaves every session either as it was
 * or as it is now, and the next push sends what is still missing.
 */
import { createHash } from 'node:crypto'
import { hostname } from 'node:os'
import { resolve } from 'node:path'
import type pg from 'pg'
import { SepiaError } from '../../shared/api'
import type { AgentId, Diagnostic, SessionSummary } from '../../shared/ir'
import { AGENTS } from '../agents/registry'
import type { ReadContext } from '../agents/types'
import { LibraryService } from '../library'
import { guardAgents } from '../paths'
import { layoutForHome } from '../platform'
import { maskResult } from '../secrets/mask'
import { migrate, teamPool } from './schema'
import { tsvectorOf } from './tsquery'
import { maskUrl, teamError } from './url'
import { plural } from '../../shared/plural'

/** Options of {@link pushHome}. */
export interface PushOptions {
  /** Connection URL of the team catalog (`postgres://...`; the password may come from `PGPASSWORD`). */
  url: string
  /** The home folder whose catalog is pushed. */
  home: string
  /** The machine's name in the team catalog (default: this computer's host name). */
  machine?: string
  /** A SQLite catalog file to index into (default: in memory, every store read afresh). */
  catalogPath?: string
  /** Called after each session sent or removed: (sessions handled so far, sessions to send). */
  onProgress?: (done: number, total: number) => void
  /** Clock (ms since epoch). */
  now?: () => number
}

/** What a push did. Row counts are rows written to PostgreSQL. */
export interface PushResult {
  machine: string
  /** The URL with its password masked. */
  target: string
  /** Sessions in the home. */
  sessions: number
  /** Sessions sent (new or changed). */
  sent: number
  unchanged: number
  /** Sessions removed from the team catalog (gone from the home). */
  removed: number
  messageRows: number
  usageRows: number
}

/** One session as sent: its row values, messages and usage, and the content hash of all of them. */
interface Outgoing {
  agent: AgentId
  sessionId: string
  format: string
  summary: SessionSummary
  links: Record<string, unknown>
  diagnostics: Diagnostic[] | null
  nodeCount: number
  messages: { seq: number; node_id: string; role: string; created_at: number | null; model: string | null; tool_names: string; text: string }[]
  usage: { seq: number; created_at: number | null; model: string | null; input_tokens: number; output_tokens: number; cache_read_tokens: number; cache_write_tokens: number; thinking_tokens: number; cost: number | null }[]
  hash: string
}

/** A machine name: 1-100 characters, no control characters. Rejects `BAD_ARGUMENT`. */
export function checkMachine(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '' || name.length > 100 || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new SepiaError({ code: 'BAD_ARGUMENT', message: '--machine takes a name of 1 to 100 printable characters (for example laptop-a).' })
  }
  return name.trim()
}

/** Read the home into a SQLite catalog and turn its rows into what a push sends (masked). */
async function collect(home: string, catalogPath: string | undefined, ctx: ReadContext): Promise<{ rows: Outgoing[]; os: string }> {
  const layout = await layoutForHome({ home })
  const library = new LibraryService([{ layout, isDemo: false }], guardAgents(AGENTS), ctx, catalogPath ? { catalogPath } : {})
  try {
    await library.refresh()
    const db = library.db
    const sessions = library.store.listSessions([home], false)
    const msgStmt = db.prepare('SELECT mid, seq, node_id, role, created_at, model, tool_names, text FROM messages WHERE sid = ? ORDER BY seq')
    const useStmt = db.prepare('SELECT seq, created_at, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, thinking_tokens, cost FROM usage WHERE sid = ? ORDER BY seq')
    const diagStmt = db.prepare('SELECT diagnostics FROM sessions WHERE sid = ?').pluck()
    const rows: Outgoing[] = []
    for (const s of sessions) {
      // Titles and first prompts are transcript text: masked like every API result (issue 9 item 7).
      const summary = maskResult(s.summary)
      const messages = (msgStmt.all(s.sid) as Outgoing['messages']).map((m) => ({ seq: m.seq, node_id: m.node_id, role: m.role, created_at: m.created_at, model: m.model, tool_names: m.tool_names ?? '', text: m.text }))
      const usage = useStmt.all(s.sid) as Outgoing['usage']
      const diagText = diagStmt.get(s.sid) as string | null
      const diagnostics = diagText ? (maskResult(JSON.parse(diagText)) as Diagnostic[]) : null
      const links = { ...s.links } as Record<string, unknown>
      const body = { agent: s.agent, sessionId: s.sessionId, format: s.summary.format, summary, links, diagnostics, nodeCount: s.nodeCount, messages, usage }
      const hash = createHash('sha256').update(JSON.stringify(body)).digest('hex')
      rows.push({ ...body, hash })
    }
    return { rows, os: layout.os }
  } finally {
    await library.close()
  }
}

async function inTransaction<T>(client: pg.PoolClient, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN')
  try {
    const out = await fn()
    await client.query('COMMIT')
    return out
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw e
  }
}

/** Replace one session's rows (call inside a transaction). Returns [message rows, usage rows] written. */
async function writeSession(client: pg.PoolClient, machine: string, o: Outgoing, now: number): Promise<[number, number]> {
  await client.query('DELETE FROM sessions WHERE machine = $1 AND agent = $2 AND session_id = $3', [machine, o.agent, o.sessionId])
  const s = o.summary
  const r = await client.query(
    `INSERT INTO sessions (machine, agent, session_id, format, project, title, created_at, last_activity_at, model, message_count, tool_call_count, node_count, parent_session_id, summary, links, diagnostics, hash, pushed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING sid`,
    [
      machine, o.agent, o.sessionId, o.format, s.workingDirectory ?? null, s.title ?? null, s.createdAt ?? null, s.lastActivityAt ?? null, s.model ?? null,
      s.messageCount ?? 0, s.toolCallCount ?? 0, o.nodeCount, s.parentSessionId ?? null, JSON.stringify(s), JSON.stringify(o.links), o.diagnostics ? JSON.stringify(o.diagnostics) : null, o.hash, now,
    ],
  )
  const sid = r.rows[0].sid as string
  const mids = new Map<number, string>()
  const m = o.messages
  for (let at = 0; at < m.length; at += 1000) {
    const chunk = m.slice(at, at + 1000)
    const ins = await client.query(
      `INSERT INTO messages (sid, seq, node_id, role, created_at, model, tool_names, text, tsv)
       SELECT $1, t.seq, t.node_id, t.role, t.created_at, t.model, t.tool_names, t.text, t.tsv::tsvector
       FROM unnest($2::integer[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[]) AS t(seq, node_id, role, created_at, model, tool_names, text, tsv)
       RETURNING mid, seq`,
      [sid, chunk.map((x) => x.seq), chunk.map((x) => x.node_id), chunk.map((x) => x.role), chunk.map((x) => x.created_at), chunk.map((x) => x.model), chunk.map((x) => x.tool_names), chunk.map((x) => x.text), chunk.map((x) => tsvectorOf(x.text))],
    )
    for (const row of ins.rows as { mid: string; seq: number }[]) mids.set(row.seq, row.mid)
  }
  const u = o.usage.filter((x) => mids.has(x.seq))
  if (u.length) {
    await client.query(
      `INSERT INTO usage (mid, sid, seq, created_at, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, thinking_tokens, cost)
       SELECT t.mid, $1, t.seq, t.created_at, t.model, t.i, t.o, t.cr, t.cw, t.th, t.cost
       FROM unnest($2::bigint[], $3::integer[], $4::bigint[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::double precision[]) AS t(mid, seq, created_at, model, i, o, cr, cw, th, cost)`,
      [sid, u.map((x) => mids.get(x.seq)), u.map((x) => x.seq), u.map((x) => x.created_at), u.map((x) => x.model), u.map((x) => x.input_tokens), u.map((x) => x.output_tokens), u.map((x) => x.cache_read_tokens), u.map((x) => x.cache_write_tokens), u.map((x) => x.thinking_tokens), u.map((x) => x.cost)],
    )
  }
  return [m.length, u.length]
}

/**
 * Push the catalog of `options.home` to the team catalog at `options.url` as `options.machine`.
 * Creates or migrates the schema first. Rejects `READ_FAILED` (URL masked, password never shown)
 * when the server cannot be reached or a statement fails; sessions written before the failure
 * stay (each is whole).
 */
export async function pushHome(options: PushOptions): Promise<PushResult> {
  const url = options.url
  const machine = checkMachine(options.machine ?? hostname())
  const home = resolve(options.home)
  const now = options.now ?? Date.now
  const { rows, os } = await collect(home, options.catalogPath, { now })
  const pool = teamPool(url, 1)
  const result: PushResult = { machine, target: maskUrl(url), sessions: rows.length, sent: 0, unchanged: 0, removed: 0, messageRows: 0, usageRows: 0 }
  try {
    await migrate(pool, url)
    const client = await pool.connect().catch((e: unknown) => {
      throw teamError(e, url, 'connect to')
    })
    try {
      await client.query(`INSERT INTO machines (machine, home, os) VALUES ($1, $2, $3) ON CONFLICT (machine) DO UPDATE SET home = excluded.home, os = excluded.os`, [machine, home, os])
      const had = new Map(((await client.query('SELECT agent, session_id, hash FROM sessions WHERE machine = $1', [machine])).rows as { agent: string; session_id: string; hash: string }[]).map((r) => [`${r.agent}/${r.session_id}`, r.hash]))
      const todo = rows.filter((o) => had.get(`${o.agent}/${o.sessionId}`) !== o.hash)
      result.unchanged = rows.length - todo.length
      const local = new Set(rows.map((o) => `${o.agent}/${o.sessionId}`))
      const gone = [...had.keys()].filter((k) => !local.has(k))
      let done = 0
      for (const o of todo) {
        const [nm, nu] = await inTransaction(client, () => writeSession(client, machine, o, now()))
        result.sent++
        result.messageRows += nm
        result.usageRows += nu
        options.onProgress?.(++done, todo.length + gone.length)
      }
      if (gone.length) {
        await inTransaction(client, async () => {
          for (const k of gone) {
            const cut = k.indexOf('/')
            await client.query('DELETE FROM sessions WHERE machine = $1 AND agent = $2 AND session_id = $3', [machine, k.slice(0, cut), k.slice(cut + 1)])
          }
        })
        result.removed = gone.length
        options.onProgress?.(todo.length + gone.length, todo.length + gone.length)
      }
      await client.query('UPDATE machines SET pushed_at = $2 WHERE machine = $1', [machine, now()])
    } catch (e) {
      throw teamError(e, url, 'write to')
    } finally {
      client.release()
    }
  } finally {
    await pool.end()
  }
  return result
}

/** One line saying what a push did (for the CLI). */
export function pushSummary(r: PushResult): string {
  if (r.sent === 0 && r.removed === 0) return `Nothing new to push: ${plural(r.sessions, 'session')} of ${r.machine} unchanged in ${r.target} (0 rows sent).`
  return `Pushed ${plural(r.sent, 'session')} (${plural(r.messageRows, 'message row')}, ${plural(r.usageRows, 'usage row')}) of ${r.machine} to ${r.target}; ${r.unchanged} unchanged, ${r.removed} removed.`
}
