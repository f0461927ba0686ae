/**
 * Issue 20 item 2: `sepia mcp`, driven by the official SDK's client over stdio. The server is the
 * CLI run through tsx (`node tsx/dist/cli.mjs src/cli/index.ts mcp`) with HOME set to a temporary
 * copy of the real Claude Code fixture home, so it serves "the user's own home". Expected counts
 * come from reading the fixture's JSONL files here, not from Sepia.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { REPO_ROOT } from './helpers/golden'
import { realHome } from './helpers/fixture-homes'
import { seedSecretsHome } from './helpers/seed-secrets'
import { FAKE_SECRETS } from './builders/secrets/fake-secrets'

const PROJECT_DIR = '.claude/projects/-home-ana-src-ledger-api'
const THINK_SESSION = '59d2b1d8-139c-406e-9af8-d7379d3f42fd'

interface Line { type?: string; uuid?: string; message?: { id?: string; role?: string; content?: unknown; usage?: { input_tokens?: number; output_tokens?: number } } }
function lines(file: string): Line[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Line)
}

async function connect(home: string, args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), join(REPO_ROOT, 'src/cli/index.ts'), 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share') },
    stderr: 'pipe',
  })
  const client = new Client({ name: 'sepia-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] }
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string; json: any }> {
  const r = (await client.callTool({ name, arguments: args })) as ToolResult
  const text = r.content.map((c) => c.text).join('\n')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { isError: r.isError === true, text, json }
}

describe('sepia mcp over stdio (SDK client)', () => {
  let home: string
  let client: Client
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'sepia-mcp-home-'))
    cpSync(realHome('claude-code'), home, { recursive: true })
    client = await connect(home)
  }, 60_000)
  afterAll(async () => {
    await client?.close()
  })

  it('lists its four read-only tools', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(['get_session', 'list_recent_sessions', 'search_sessions', 'usage_summary'])
    for (const t of tools) expect(t.annotations?.readOnlyHint).toBe(true)
    const search = tools.find((t) => t.name === 'search_sessions')!
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(['agent', 'limit', 'project', 'role', 'since', 'tool', 'until', 'query'].sort())
  })

  it('search_sessions finds a known prompt in its session', async () => {
    const r = await call(client, 'search_sessions', { query: '"What is 17"', role: 'user' })
    expect(r.isError).toBe(false)
    const prompts = readdirSync(join(home, PROJECT_DIR)).filter((f) => f.endsWith('.jsonl')).filter((f) => lines(join(home, PROJECT_DIR, f)).some((l) => l.type === 'user' && typeof l.message?.content === 'string' && l.message.content.includes('What is 17')))
    expect(prompts).toContain(`${THINK_SESSION}.jsonl`)
    expect(r.json.hits.map((h: { sessionId: string }) => `${h.sessionId}.jsonl`).sort()).toEqual(prompts.sort())
    for (const h of r.json.hits) expect([h.role, h.agent]).toEqual(['user', 'claude-code'])
    const none = await call(client, 'search_sessions', { query: 'What is 17', agent: 'codex' })
    expect(none.json.hits).toEqual([])
  })

  it('list_recent_sessions lists every session file of the project, newest first', async () => {
    const dir = join(home, PROJECT_DIR)
    const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => f.replace(/\.jsonl$/, ''))
    const r = await call(client, 'list_recent_sessions', { project: '/home/ana/src/ledger-api', limit: 500 })
    expect(r.isError).toBe(false)
    const ids: string[] = r.json.sessions.map((s: { id: string }) => s.id)
    for (const f of files) expect(ids).toContain(f)
    const times = r.json.sessions.map((s: { lastActivityAt?: string; createdAt?: string }) => Date.parse(s.lastActivityAt ?? s.createdAt ?? '0'))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
    const two = await call(client, 'list_recent_sessions', { limit: 2 })
    expect(two.json.sessions).toHaveLength(2)
    const elsewhere = await call(client, 'list_recent_sessions', { project: '/nowhere' })
    expect(elsewhere.json).toEqual({ total: 0, sessions: [] })
  })

  it('get_session pages over the messages, tool output only when asked', async () => {
    const raw = lines(join(home, PROJECT_DIR, `${THINK_SESSION}.jsonl`))
    const prompt = raw.find((l) => l.type === 'user')!.message!.content as string
    const whole = await call(client, 'get_session', { id: THINK_SESSION, limit: 500 })
    expect(whole.isError).toBe(false)
    expect(whole.json.session.agent).toBe('claude-code')
    expect(whole.json.messages.find((m: { role: string }) => m.role === 'user').content).toBe(prompt)
    expect(whole.json.messages).toHaveLength(whole.json.totalMessages)
    const page = await call(client, 'get_session', { id: THINK_SESSION, offset: 1, limit: 1 })
    expect(page.json.messages).toHaveLength(1)
    expect(page.json.messages[0].index).toBe(1)
    expect(page.json.messages[0].nodeId).toBe(whole.json.messages[1].nodeId)

    // A session with tool calls: results are left out by default.
    const tools = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
    const results = lines(join(home, PROJECT_DIR, `${tools}.jsonl`)).filter((l) => l.type === 'user' && Array.isArray(l.message?.content) && (l.message!.content as { type: string }[]).some((b) => b.type === 'tool_result'))
    expect(results.length).toBeGreaterThan(0)
    const bare = await call(client, 'get_session', { id: tools, limit: 500 })
    const bareTools = bare.json.messages.filter((m: { role: string }) => m.role === 'tool')
    expect(bareTools.length).toBeGreaterThanOrEqual(results.length)
    for (const m of bareTools) expect(m.content).toBeUndefined()
    const full = await call(client, 'get_session', { id: tools, agent: 'claude-code', limit: 500, includeToolOutput: true })
    expect(full.json.messages.filter((m: { role: string; content?: string }) => m.role === 'tool' && typeof m.content === 'string')).toHaveLength(bareTools.length)
    expect(full.text).toContain('# Notes')
  })

  it('usage_summary totals the output tokens the store recorded', async () => {
    const seen = new Map<string, number>()
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name))
        else if (e.name.endsWith('.jsonl')) for (const l of lines(join(dir, e.name))) if (l.type === 'assistant' && l.message?.id && l.message.usage) seen.set(l.message.id, l.message.usage.output_tokens ?? 0)
      }
    }
    walk(join(home, '.claude/projects'))
    const expected = [...seen.values()].reduce((a, b) => a + b, 0)
    expect(expected).toBeGreaterThan(0)
    const r = await call(client, 'usage_summary', { by: 'agent', timeZone: 'UTC' })
    expect(r.isError).toBe(false)
    expect(r.json.rows.map((x: { key: string }) => x.key)).toEqual(['claude-code'])
    expect(r.json.totals.outputTokens).toBe(expected)
    const byDay = await call(client, 'usage_summary', { by: 'day', since: '2026-11-30', until: '2026-11-30', timeZone: 'UTC' })
    expect(byDay.json.totals.outputTokens).toBe(expected)
    const empty = await call(client, 'usage_summary', { since: '2020-01-01', until: '2020-01-02' })
    expect(empty.json.totals.totalTokens).toBe(0)
  })

  it('bad arguments give clear errors', async () => {
    const bad = async (name: string, args: Record<string, unknown>, pattern: RegExp): Promise<void> => {
      let text: string
      try {
        const r = await call(client, name, args)
        expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true)
        text = r.text
      } catch (e) {
        text = (e as Error).message
      }
      expect(text).toMatch(pattern)
    }
    await bad('search_sessions', { query: '' }, /query/)
    await bad('search_sessions', {}, /query/)
    await bad('search_sessions', { query: 'x', agent: 'emacs' }, /agent/)
    await bad('search_sessions', { query: 'x', limit: 0 }, /limit/)
    await bad('search_sessions', { query: 'x', since: 'yesterday' }, /since|date/i)
    await bad('get_session', { id: 'no-such-session' }, /SESSION_NOT_FOUND/)
    await bad('get_session', { id: THINK_SESSION, offset: -1 }, /offset/)
    await bad('usage_summary', { by: 'week' }, /by/)
    await bad('usage_summary', { timeZone: 'Mars/Olympus' }, /time ?zone|Mars/i)
    await bad('no_such_tool', {}, /no_such_tool|not found/i)
  })
})

describe('sepia mcp keeps secrets masked', () => {
  it('seeded secrets never appear in tool results, even with tool output', async () => {
    const seeded = seedSecretsHome(realHome('claude-code'))
    const home = mkdtempSync(join(tmpdir(), 'sepia-mcp-own-'))
    const client = await connect(home, ['--home', seeded])
    try {
      const list = await call(client, 'list_recent_sessions', { limit: 500 })
      expect(list.json.total).toBeGreaterThan(0)
      let text = list.text
      let masked = 0
      for (const s of list.json.sessions as { id: string; agent: string }[]) {
        const r = await call(client, 'get_session', { id: s.id, agent: s.agent, limit: 500, includeToolOutput: true, maxChars: 100_000 })
        expect(r.isError).toBe(false)
        masked += r.json.maskedSecrets ?? 0
        text += r.text
      }
      for (const q of ['key', 'token', 'password', 'sk', 'ghp', 'AKIA', 'secret']) text += (await call(client, 'search_sessions', { query: q, limit: 500 })).text
      expect(masked).toBeGreaterThan(0)
      for (const s of FAKE_SECRETS) {
        const mid = Math.floor(s.secret.length / 2)
        expect(text.includes(s.secret), s.kind).toBe(false)
        expect(text.includes(s.secret.slice(mid - 8, mid + 8)), s.kind).toBe(false)
      }
    } finally {
      await client.close()
    }
  }, 120_000)
})
