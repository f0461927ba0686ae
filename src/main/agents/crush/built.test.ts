/**
 * The Crush home built from Crush's own schema and types (fixtures/built/crush, see its README.md:
 * the CLI cannot be installed here, fixtures/real/crush/README.md). It holds what the public real
 * databases lack: the current schema (`is_summary_message`, `todos`, `read_files`), reasoning
 * parts, a failed tool call, a failed command, an edit with its `files` versions, a sub-agent
 * session, a summary, a `!` shell command, an image, an API error and a cancel, and the global
 * server workspace's store. Every count is taken from SQL over a read-only copy of each database
 * here (`json_each` over `parts`), never from Sepia.
 */
import Database from 'better-sqlite3'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { snapshotTree } from '../../../../tests/helpers/snapshot'
import { readHomeOf } from '../../../../tests/builders/testing'
import { closeCrushDbs } from './db'
import { LAST_REQUEST_NOTE } from './read'
import { crush } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'built', 'crush', 'home')
const PROJECT = join(HOME, 'src', 'notes-cli')
const DBS = [join(PROJECT, '.crush', 'crush.db'), join(HOME, '.local', 'share', 'crush', '.crush', 'crush.db')]

/** Run `fn` on a read-only copy of `db` in a temporary folder. */
function onCopy<T>(db: string, fn: (d: Database.Database) => T): T {
  const tmp = mkdtempSync(join(tmpdir(), 'sepia-crush-built-'))
  try {
    copyFileSync(db, join(tmp, 'c.db'))
    const d = new Database(join(tmp, 'c.db'), { readonly: true })
    try {
      return fn(d)
    } finally {
      d.close()
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

interface Truth {
  db: string
  id: string
  parent: string | null
  title: string
  created: number
  messageCount: number
  /** Rows by role, without summary rows and user rows that hold only shell_command parts. */
  roles: Record<string, number>
  summaries: number
  shellParts: number
  toolCalls: number
  toolResults: number
  toolErrors: number
  reasoning: number
  binary: number
  errors: number
  canceled: number
  children: string[]
  files: number
  prompt: number
  completion: number
  cost: number
  /** Sum of the sub-agents' `cost` (Crush adds each to its parent's). */
  childCost: number
  todos: unknown
}

function truth(db: string): Truth[] {
  return onCopy(db, (d) =>
    (d.prepare('SELECT * FROM sessions ORDER BY created_at').all() as Record<string, any>[]).map((s) => {
      const shellOnly = "NOT EXISTS (SELECT 1 FROM json_each(messages.parts) j WHERE json_extract(j.value, '$.type') != 'shell_command')"
      const roles = Object.fromEntries(
        (d.prepare(`SELECT role, COUNT(*) AS n FROM messages WHERE session_id = ? AND is_summary_message = 0 AND NOT (role = 'user' AND ${shellOnly}) GROUP BY role`).all(s.id) as { role: string; n: number }[]).map((r) => [r.role, r.n]),
      )
      const parts = (type: string, extra = '') =>
        (d.prepare(`SELECT COUNT(*) AS n FROM messages, json_each(messages.parts) WHERE session_id = ? AND json_extract(json_each.value, '$.type') = ? ${extra}`).get(s.id, type) as { n: number }).n
      const one = (sql: string) => (d.prepare(sql).get(s.id) as { n: number }).n
      return {
        db, id: s.id, parent: s.parent_session_id, title: s.title, created: s.created_at * 1000, messageCount: s.message_count, roles,
        summaries: one('SELECT COUNT(*) AS n FROM messages WHERE session_id = ? AND is_summary_message = 1'),
        shellParts: parts('shell_command'),
        toolCalls: parts('tool_call'), toolResults: parts('tool_result'),
        toolErrors: parts('tool_result', "AND json_extract(json_each.value, '$.data.is_error') = 1"),
        reasoning: parts('reasoning'), binary: parts('binary'),
        errors: parts('finish', "AND json_extract(json_each.value, '$.data.reason') = 'error'"),
        canceled: parts('finish', "AND json_extract(json_each.value, '$.data.reason') = 'canceled'"),
        children: (d.prepare('SELECT id FROM sessions WHERE parent_session_id = ? ORDER BY created_at').all(s.id) as { id: string }[]).map((r) => r.id),
        files: one('SELECT COUNT(*) AS n FROM files WHERE session_id = ?'),
        prompt: s.prompt_tokens, completion: s.completion_tokens, cost: s.cost,
        childCost: (d.prepare('SELECT coalesce(sum(cost), 0) AS n FROM sessions WHERE parent_session_id = ?').get(s.id) as { n: number }).n,
        todos: s.todos ? JSON.parse(s.todos) : undefined,
      }
    }),
  )
}

describe('crush home built from Crush source', () => {
  it('every session of both databases: messages by role, summaries, commands, tool calls and errors, thinking, images, API errors, cancels, sub-agents, file versions and totals equal SQL over a copy; the fixture is untouched', async () => {
    const t = DBS.flatMap(truth)
    expect(t).toHaveLength(4)
    const before = snapshotTree(HOME)
    const read = await readHomeOf(crush, HOME)
    closeCrushDbs()
    expect(snapshotTree(HOME)).toEqual(before)
    expect(read.diagnostics).toEqual([])
    expect(read.sessions.map((s) => s.id).sort()).toEqual(t.map((x) => x.id).sort())
    for (const x of t) {
      const s = read.byId(x.id)
      expect(s.source.files[0]).toBe(x.db)
      expect(s.diagnostics).toEqual([])
      expect(s.title).toBe(x.title)
      expect(s.createdAt).toBe(x.created)
      // The project store names its project; the global server workspace's store has none.
      if (x.db === DBS[0]) expect(s.workingDirectory).toBe(PROJECT)
      else expect(s.workingDirectory).toBeUndefined()
      expect(s.metadata.messageCount).toBe(x.messageCount)
      for (const role of ['user', 'assistant'] as const) expect(s.nodes.filter((n) => n.role === role && !n.event), `${x.id} ${role}`).toHaveLength(x.roles[role] ?? 0)
      expect(s.nodes.filter((n) => n.event === 'compaction')).toHaveLength(x.summaries)
      expect(s.nodes.filter((n) => n.event === 'command')).toHaveLength(x.shellParts)
      expect(s.nodes.filter((n) => n.role === 'tool')).toHaveLength(x.toolResults)
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(x.toolErrors)
      expect(countPairedToolCalls(s)).toEqual({ calls: x.toolCalls, paired: x.toolResults })
      expect(s.nodes.filter((n) => n.thinking)).toHaveLength(x.reasoning)
      expect(s.nodes.flatMap((n) => n.blocks ?? []).filter((b) => b.type === 'image')).toHaveLength(x.binary)
      expect(s.nodes.filter((n) => n.event === 'api-error')).toHaveLength(x.errors)
      expect(s.nodes.filter((n) => n.event === 'interrupted')).toHaveLength(x.canceled)
      expect(s.parentSessionId).toBe(x.parent ?? undefined)
      expect(s.childSessionIds).toEqual(x.children.length ? x.children : undefined)
      expect(s.metadata.fileVersions).toBe(x.files || undefined)
      expect(s.metadata.todos).toEqual(x.todos)
      // Tokens are the last request's only (crush/read.ts): kept apart; a parent's cost less its sub-agents'.
      expect(s.usage).toEqual({ cost: x.childCost > 0 ? Math.max(0, x.cost - x.childCost) : x.cost })
      expect(s.metadata.lastRequestTokens).toEqual({ promptTokens: x.prompt, completionTokens: x.completion, note: LAST_REQUEST_NOTE })
      expectGolden(`crush/built/${s.id.replace('$$', '--')}`, s)
    }
  })

  it('the sub-agent session is linked both ways through its id, `<message id>$$<tool call id>`', async () => {
    const read = await readHomeOf(crush, HOME)
    closeCrushDbs()
    const child = read.sessions.find((s) => s.parentSessionId)!
    const [msgId, callId] = child.id.split('$$')
    expect(child.parentToolCallId).toBe(callId)
    const parent = read.byId(child.parentSessionId!)
    const spawner = parent.nodes.find((n) => n.nodeId === msgId)!
    expect(spawner.toolCalls?.find((c) => c.id === callId)?.subagentSessionId).toBe(child.id)
  })

  it('a failed command is a tool result that ends "Exit code N" (not a tool error); the edit names the file in its arguments', async () => {
    const read = await readHomeOf(crush, HOME)
    closeCrushDbs()
    const nodes = read.sessions.flatMap((s) => s.nodes)
    const bash = nodes.find((n) => n.role === 'tool' && n.toolName === 'bash')!
    expect(bash.content).toMatch(/Exit code 126$/)
    expect(bash.isError).toBeUndefined()
    const edit = nodes.flatMap((n) => n.toolCalls ?? []).find((c) => c.name === 'edit')!
    expect(edit.kind).toBe('edit')
    expect(edit.arguments).toMatchObject({ file_path: '/home/ana/src/notes-cli/NOTES.md' })
  })

  it('a data dir named only by the global projects.json (outside every walked folder) is found, with its project', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sepia-crush-projects-'))
    try {
      // internal/projects/projects.go: { projects: [{ path, data_dir, last_accessed }] } beside crush.json in the global data dir.
      mkdirSync(join(home, '.local', 'share', 'crush'), { recursive: true })
      writeFileSync(join(home, '.local', 'share', 'crush', 'projects.json'), JSON.stringify({ projects: [{ path: PROJECT, data_dir: join(PROJECT, '.crush'), last_accessed: '2025-12-02T15:00:00Z' }] }))
      const read = await readHomeOf(crush, home)
      closeCrushDbs()
      const ids = truth(DBS[0]!).map((x) => x.id).sort()
      expect(read.sessions.map((s) => s.id).sort()).toEqual(ids)
      for (const s of read.sessions) expect(s.workingDirectory).toBe(PROJECT)
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })

  it('sepia list --home <fixture home> --json lists every session', async () => {
    const before = snapshotTree(HOME)
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const listed = (JSON.parse(r.out) as { sessions: { agent: string; id: string }[] }).sessions.filter((s) => s.agent === 'crush')
    expect(listed.map((s) => s.id).sort()).toEqual(DBS.flatMap(truth).map((x) => x.id).sort())
    closeCrushDbs()
    expect(snapshotTree(HOME)).toEqual(before)
  }, 60_000)
})
