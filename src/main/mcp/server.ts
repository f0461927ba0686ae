/**
 * `sepia mcp`: Sepia's API as a Model Context Protocol server over stdio (issue 20 item 2), built
 * on the official SDK (`@modelcontextprotocol/sdk`: `McpServer`, `StdioServerTransport`; input
 * schemas in zod, which the SDK depends on). An agent calls these tools to search its user's own
 * past sessions:
 *
 * - `search_sessions` — full-text search (`SepiaApi.search`): query and the search API's filters.
 * - `get_session` — one session, paged over its messages (`SepiaApi.getSessionPage`); tool output
 *   only with `includeToolOutput`.
 * - `list_recent_sessions` — sessions newest first (by last activity), optionally in one project.
 * - `usage_summary` — tokens and cost by day, agent, project, model or session (`SepiaApi.getUsage`).
 *
 * Read-only: no tool converts, restores, exports or reveals. Every text comes from the API's masked
 * path (`getSessionPage`, `search`, `getLibrary`), never `revealSecrets`. Bad arguments give an
 * `isError` result whose text says what is wrong (zod validation by the SDK, or a `SepiaError`).
 * Results are JSON text (one `text` content item).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { SepiaError } from '../../shared/api'
import type { SearchFilters, UsageQuery } from '../../shared/catalog'
import { AGENT_IDS, type AgentId, type MessageNode, type SessionSummary } from '../../shared/ir'
import type { SepiaService } from '../api'
import { localTimeZone } from '../usage/zone'

const agentEnum = z.enum(AGENT_IDS as unknown as [AgentId, ...AgentId[]])
const dateArg = z
  .string()
  .regex(/^(\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?|\d+d)$/, 'a date YYYY-MM-DD (or an ISO time), or Nd for N days ago')

/** `7d` becomes the UTC day N days before `now`; other values pass as the API takes them. */
function dateValue(v: string | undefined, now: number): string | undefined {
  if (v === undefined) return undefined
  const rel = /^(\d+)d$/.exec(v)
  return rel ? new Date(now - Number(rel[1]) * 86_400_000).toISOString().slice(0, 10) : v
}

function ok(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] }
}

/** A tool's failure as an `isError` result naming the error code (`SESSION_NOT_FOUND`, `BAD_ARGUMENT`, ...). */
function fail(e: unknown): CallToolResult {
  const se = SepiaError.from(e)
  return { isError: true, content: [{ type: 'text', text: `${se.code}: ${se.message}` }] }
}

async function guarded(run: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return ok(await run())
  } catch (e) {
    return fail(e)
  }
}

function underProject(dir: string | undefined, project: string): boolean {
  if (!dir) return false
  const p = project.replace(/[\\/]+$/, '')
  return dir === p || dir.startsWith(p + '/') || dir.startsWith(p + '\\')
}

function summary(s: SessionSummary): Record<string, unknown> {
  return {
    agent: s.agent,
    id: s.id,
    title: s.title,
    project: s.workingDirectory,
    model: s.model,
    createdAt: s.createdAt !== undefined ? new Date(s.createdAt).toISOString() : undefined,
    lastActivityAt: s.lastActivityAt !== undefined ? new Date(s.lastActivityAt).toISOString() : undefined,
    messageCount: s.messageCount,
    toolCallCount: s.toolCallCount,
    parentSessionId: s.parentSessionId,
    firstPrompt: s.firstPrompt,
  }
}

/** One message as the `get_session` tool gives it; tool results keep only their length unless `includeToolOutput`. */
function message(n: MessageNode, index: number, includeToolOutput: boolean): Record<string, unknown> {
  const m: Record<string, unknown> = { index, nodeId: n.nodeId, role: n.role }
  if (n.createdAt !== undefined) m.createdAt = new Date(n.createdAt).toISOString()
  if (n.model) m.model = n.model
  if (n.event) m.event = n.event
  if (n.role === 'tool') {
    m.toolName = n.toolName
    m.toolCallId = n.toolCallId
    if (n.isError) m.isError = true
    if (includeToolOutput) m.content = n.content
    else m.omitted = `tool output (${n.content.length} characters): call again with includeToolOutput: true to see it`
  } else {
    m.content = n.content
    if (n.thinking) m.thinking = n.thinking
  }
  if (n.toolCalls?.length) m.toolCalls = n.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, status: c.status, ...(c.isError ? { isError: true } : {}) }))
  return m
}

/**
 * The MCP server over `api` (not yet connected). `now` (ms since epoch) anchors `Nd` dates.
 * The tools refresh the catalog before answering (only changed files are read).
 */
export function createMcpServer(api: SepiaService, version: string, now: () => number = Date.now): McpServer {
  const server = new McpServer({ name: 'sepia', version })
  let fresh: Promise<void> | undefined
  /** Refresh changed files and wait for the search index (at most one refresh at a time). */
  const refresh = async (): Promise<void> => {
    await api.ready()
    fresh ??= (async () => {
      try {
        await api.library.refresh()
        await api.library.whenIdle()
      } finally {
        fresh = undefined
      }
    })()
    await fresh
  }
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

  server.registerTool(
    'search_sessions',
    {
      title: 'Search past agent sessions',
      description:
        'Full-text search over every message of the user\'s past AI coding agent sessions (Claude Code, Codex, Cline, Cursor, Gemini CLI, OpenCode, ...). Words must all match (the last also as a prefix); "quoted phrases"; -word excludes. Returns hits with a snippet, session id, agent and the message index (use get_session with offset to read around it). Secrets are masked.',
      inputSchema: {
        query: z.string().trim().min(1, 'query must not be empty'),
        agent: agentEnum.optional().describe('only this agent'),
        project: z.string().min(1).optional().describe('project folder: sessions in it or under it'),
        since: dateArg.optional().describe('messages at or after this day (YYYY-MM-DD, or 7d)'),
        until: dateArg.optional().describe('messages before this day (YYYY-MM-DD, or 7d)'),
        role: z.enum(['user', 'assistant', 'tool', 'system']).optional(),
        tool: z.string().min(1).optional().describe("messages that call this tool (the agent's own tool name), or its results"),
        limit: z.number().int().min(1).max(500).optional().describe('hits to return (default 30)'),
      },
      annotations: readOnly,
    },
    async (a) =>
      guarded(async () => {
        const filters: SearchFilters = {}
        if (a.agent) filters.agent = a.agent
        if (a.project) filters.project = a.project
        const since = dateValue(a.since, now())
        const until = dateValue(a.until, now())
        if (since !== undefined) filters.since = since
        if (until !== undefined) filters.until = until
        if (a.role) filters.role = a.role
        if (a.tool) filters.toolName = a.tool
        if (a.limit) filters.limit = a.limit
        await refresh()
        const r = await api.search(a.query, filters)
        return {
          query: r.query,
          more: r.more,
          partial: r.partial,
          hits: r.hits.map((h) => ({
            agent: h.agent,
            sessionId: h.sessionId,
            sessionTitle: h.sessionTitle,
            project: h.project,
            messageIndex: h.nodeIndex,
            role: h.role,
            createdAt: h.createdAt !== undefined ? new Date(h.createdAt).toISOString() : undefined,
            toolNames: h.toolNames,
            snippet: h.snippet,
          })),
        }
      }),
  )

  server.registerTool(
    'get_session',
    {
      title: 'Read one past session',
      description:
        'The messages of one session, a page at a time (offset/limit over its messages), secrets masked. Tool outputs are left out unless includeToolOutput is true. Give the agent when the id could belong to several.',
      inputSchema: {
        id: z.string().trim().min(1, 'id must not be empty').describe('session id (from search_sessions or list_recent_sessions)'),
        agent: agentEnum.optional(),
        offset: z.number().int().min(0).optional().describe('first message (0-based, default 0)'),
        limit: z.number().int().min(1).max(500).optional().describe('messages to return (default 50)'),
        includeToolOutput: z.boolean().optional().describe('include tool results (default false)'),
        maxChars: z.number().int().min(100).max(100_000).optional().describe('longer texts are cut to this many characters (default 4000)'),
      },
      annotations: readOnly,
    },
    async (a) =>
      guarded(async () => {
        await refresh()
        const lib = await api.getLibrary()
        const matches = lib.sessions.filter((s) => s.id === a.id && (!a.agent || s.agent === a.agent))
        if (matches.length === 0) throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: `No session "${a.id}"${a.agent ? ` of ${a.agent}` : ''} in ${lib.homes.map((h) => h.path).join(', ')}. Use search_sessions or list_recent_sessions to find ids.` })
        if (matches.length > 1) throw new SepiaError({ code: 'BAD_ARGUMENT', message: `"${a.id}" is a session of ${matches.map((s) => s.agent).join(' and ')}: give the agent.` })
        const s = matches[0]!
        const offset = a.offset ?? 0
        const page = await api.getSessionPage(s.agent, s.id, { offset, limit: a.limit ?? 50, maxChars: a.maxChars ?? 4000 })
        const includeToolOutput = a.includeToolOutput ?? false
        return {
          session: summary(s),
          totalMessages: page.totalNodes,
          offset: page.offset,
          nextOffset: page.offset + page.nodes.length < page.totalNodes ? page.offset + page.nodes.length : undefined,
          maskedSecrets: page.session.maskedSecrets,
          messages: page.nodes.map((n, i) => message(n, page.offset + i, includeToolOutput)),
        }
      }),
  )

  server.registerTool(
    'list_recent_sessions',
    {
      title: 'List recent sessions',
      description: 'Past sessions, newest activity first, optionally only those of one project folder (or under it) or one agent.',
      inputSchema: {
        project: z.string().min(1).optional().describe('project folder: sessions in it or under it'),
        agent: agentEnum.optional(),
        limit: z.number().int().min(1).max(500).optional().describe('sessions to return (default 20)'),
      },
      annotations: readOnly,
    },
    async (a) =>
      guarded(async () => {
        await refresh()
        const lib = await api.getLibrary()
        const when = (s: SessionSummary): number => s.lastActivityAt ?? s.createdAt ?? 0
        const list = lib.sessions
          .filter((s) => !s.hidden && (!a.agent || s.agent === a.agent) && (!a.project || underProject(s.workingDirectory, a.project)))
          .sort((x, y) => when(y) - when(x))
        const limit = a.limit ?? 20
        return { total: list.length, sessions: list.slice(0, limit).map(summary) }
      }),
  )

  server.registerTool(
    'usage_summary',
    {
      title: 'Token and cost usage',
      description: 'Tokens and cost (USD) of past sessions grouped by day, agent, project, model or session, with totals. Days are in timeZone (default the machine\'s).',
      inputSchema: {
        by: z.enum(['day', 'agent', 'project', 'model', 'session']).optional().describe('grouping (default day)'),
        since: dateArg.optional().describe('first day, inclusive (YYYY-MM-DD, or 7d)'),
        until: dateArg.optional().describe('last day, inclusive (YYYY-MM-DD, or 7d)'),
        agent: agentEnum.optional(),
        project: z.string().min(1).optional(),
        timeZone: z.string().min(1).optional().describe('IANA time zone, e.g. Europe/Paris'),
      },
      annotations: readOnly,
    },
    async (a) =>
      guarded(async () => {
        const q: UsageQuery = { by: a.by ?? 'day', timeZone: a.timeZone ?? localTimeZone() }
        if (a.agent) q.agent = a.agent
        if (a.project) q.project = a.project
        const since = dateValue(a.since, now())
        const until = dateValue(a.until, now())
        if (since !== undefined) q.since = since
        if (until !== undefined) q.until = until
        await refresh()
        return api.getUsage(q)
      }),
  )
  return server
}

/**
 * Serve `api` over stdio until stdin closes. Anything main would print to stdout goes to stderr
 * (stdout carries only JSON-RPC). Resolves once connected.
 */
export async function runMcpServer(api: SepiaService, version: string): Promise<McpServer> {
  console.log = (...args: unknown[]): void => console.error(...args)
  console.info = console.log
  const server = createMcpServer(api, version)
  await server.connect(new StdioServerTransport())
  return server
}
