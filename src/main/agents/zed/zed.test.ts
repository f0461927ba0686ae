/**
 * Zed reader on the home built from Zed's source shapes (fixtures/built/zed, see its README.md).
 * Every count comes from an independent reading of the raw database here (better-sqlite3 on a
 * temporary copy, zstd rows decompressed with fzstd, the JSON walked by hand per serialized
 * version), never Sepia against itself.
 */
import Database from 'better-sqlite3'
import { copyFileSync, cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decompress } from 'fzstd'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { zed } from '.'

const HOME = join(REPO_ROOT, 'fixtures', 'built', 'zed', 'home')
const DB_REL = join('.local', 'share', 'zed', 'threads', 'threads.db')

type Rec = Record<string, any>

/** Rows of the fixture's `threads` table, read on a copy so no side file appears in the fixture. */
function rawRows(home = HOME): Rec[] {
  const dir = mkdtempSync(join(tmpdir(), 'zed-truth-'))
  copyFileSync(join(home, DB_REL), join(dir, 'threads.db'))
  const db = new Database(join(dir, 'threads.db'), { readonly: true })
  try {
    return db.prepare('SELECT * FROM threads').all() as Rec[]
  } finally {
    db.close()
  }
}

const parse = (r: Rec): Rec => JSON.parse(Buffer.from(r.data_type === 'zstd' ? decompress(new Uint8Array(r.data)) : r.data).toString('utf8'))

/** What the raw thread holds, by its serialized version. */
function truth(t: Rec) {
  if (t.version === '0.3.0') {
    const ms = t.messages as any[]
    const agents = ms.filter((m) => m.Agent).map((m) => m.Agent)
    const results = agents.flatMap((a) => Object.values(a.tool_results)) as Rec[]
    return {
      prompts: ms.filter((m) => m.User).map((m) => m.User.content.filter((c: Rec) => 'Text' in c).map((c: Rec) => c.Text).join('\n\n')),
      assistants: agents.length,
      calls: agents.flatMap((a) => a.content.filter((c: Rec) => c.ToolUse)).length,
      results: results.length,
      errors: results.filter((r) => r.is_error).length,
      thinking: agents.filter((a) => a.content.some((c: Rec) => c.Thinking)).length,
      output: Object.values(t.request_token_usage ?? {}).reduce((a: number, u: any) => a + u.output_tokens, 0),
    }
  }
  let ms = t.messages as Rec[]
  // 0.1.0: a user message holding tool results is folded into the assistant before it.
  if (t.version === '0.1.0') ms = ms.filter((m) => !(m.role === 'user' && m.tool_results?.length))
  const as = ms.filter((m) => m.role === 'assistant')
  const all = t.messages as Rec[]
  return {
    prompts: ms.filter((m) => m.role === 'user').map((m) => (m.segments ? m.segments.map((s: Rec) => s.text).join('\n\n') || m.context : m.text)),
    assistants: as.length,
    calls: as.flatMap((m) => m.tool_uses ?? []).length,
    results: all.flatMap((m) => m.tool_results ?? []).length,
    errors: all.flatMap((m) => m.tool_results ?? []).filter((r: Rec) => r.is_error).length,
    thinking: as.filter((m) => (m.segments ?? []).some((s: Rec) => s.type === 'thinking')).length,
    output: (t.request_token_usage ?? []).reduce((a: number, u: Rec) => a + u.output_tokens, 0),
  }
}

describe('zed: built home', () => {
  it('every threads row is one session: prompts, replies, tool calls paired, errors, thinking, usage, folder, parent', async () => {
    const home = await readHomeOf(zed, HOME)
    expect(home.diagnostics).toEqual([])
    const rows = rawRows()
    expect(home.sessions.map((s) => s.id).sort()).toEqual(rows.map((r) => r.id).sort())
    expect(new Set(rows.map((r) => r.data_type))).toEqual(new Set(['json', 'zstd']))
    for (const r of rows) {
      const raw = parse(r)
      const t = truth(raw)
      const s = home.byId(r.id)
      expect(s.diagnostics).toEqual([])
      expect(s.title).toBe(r.summary)
      expect(s.nodes.filter((n) => n.role === 'user' && !n.isMeta).map((n) => n.content)).toEqual(t.prompts)
      expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(t.assistants)
      expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.results })
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(t.errors)
      expect(s.nodes.filter((n) => n.thinking)).toHaveLength(t.thinking)
      expect(s.nodes.reduce((a, n) => a + (n.usage?.outputTokens ?? 0), 0)).toBe(t.output)
      expect(s.parentSessionId).toBe(r.parent_id ?? undefined)
      expect(s.lastActivityAt).toBe(Date.parse(r.updated_at))
      expect(s.createdAt).toBe(Date.parse(r.created_at ?? r.updated_at))
      if (r.folder_paths) {
        const sorted = (r.folder_paths as string).split('\n')
        const order = (r.folder_paths_order as string).split(',').map(Number)
        expect(s.workingDirectory).toBe(sorted[order.indexOf(0)])
      } else expect(s.workingDirectory).toBeUndefined()
      if (raw.model) expect(s.model).toBe(raw.model.model)
      expectGolden(`zed/${s.id}`, s)
    }
  })

  it('a Resume marker is a hidden prompt; a mention is a file block; redacted thinking is kept', async () => {
    const s = (await readHomeOf(zed, HOME)).byId('thread-current')
    expect(s.nodes.find((n) => n.metadata?.zedResume)).toMatchObject({ role: 'user', isMeta: true })
    expect(s.nodes[0]!.blocks).toContainEqual({ type: 'file', path: '/home/ana/calc/src/add.js', text: 'export const add = (a, b) => a - b\n' })
    expect(s.nodes.flatMap((n) => n.blocks ?? []).filter((b) => b.type === 'unknown' && b.originalType === 'RedactedThinking')).toHaveLength(1)
    expect(s.nodes.find((n) => n.thinking)!.thinkingSignature).toBe('sig-abc')
  })

  it('damaged rows are diagnostics naming the database and row; the rest loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'zed-bad-'))
    cpSync(HOME, home, { recursive: true })
    const path = join(home, DB_REL)
    const db = new Database(path)
    db.prepare("UPDATE threads SET data = x'28b52ffd0000' WHERE id = 'thread-current'").run()
    db.prepare("UPDATE threads SET data_type = 'xml' WHERE id = 'thread-v020'").run()
    db.prepare("UPDATE threads SET data = CAST('{\"version\":\"0.2.0\",' AS BLOB), data_type = 'json' WHERE id = 'thread-legacy'").run()
    db.close()
    const read = await readHomeOf(zed, home)
    expect(read.sessions).toHaveLength(rawRows().length)
    for (const id of ['thread-current', 'thread-v020', 'thread-legacy']) {
      const s = read.byId(id)
      expect(s.nodes).toEqual([])
      expect(s.diagnostics.map((d) => [d.severity, d.path])).toEqual([['error', path]])
      expect(s.diagnostics[0]!.message).toContain(id)
    }
    expect(read.byId('thread-child').nodes.length).toBeGreaterThan(0)
  })

  it('a row whose id is not text (a blob, NULL) is a warning naming the database and row, not a silent drop', async () => {
    const home = mkdtempSync(join(tmpdir(), 'zed-id-'))
    cpSync(HOME, home, { recursive: true })
    const path = join(home, DB_REL)
    const db = new Database(path)
    const rowid = (db.prepare("SELECT rowid AS r FROM threads WHERE id = 'thread-v010'").get() as { r: number }).r
    db.prepare("UPDATE threads SET id = ?, summary = ? WHERE id = 'thread-v010'").run(Buffer.from('thread-v010\0'), Buffer.from([0]))
    db.close()
    const read = await readHomeOf(zed, home)
    expect(read.sessions).toHaveLength(rawRows().length - 1)
    expect(read.diagnostics.map((d) => [d.severity, d.path, d.line])).toEqual([['warning', path, rowid]])
  })

  it('not a database: one warning naming the file, no sessions', async () => {
    const home = mkdtempSync(join(tmpdir(), 'zed-notdb-'))
    cpSync(HOME, home, { recursive: true })
    const { writeFileSync } = await import('node:fs')
    writeFileSync(join(home, DB_REL), 'not sqlite at all')
    const read = await readHomeOf(zed, home)
    expect(read.sessions).toEqual([])
    expect(read.diagnostics.map((d) => [d.severity, d.path])).toEqual([['warning', join(home, DB_REL)]])
  })

  it('macOS and Windows homes keep threads.db in Zed\'s own data dir', async () => {
    for (const [os, rel] of [['darwin', ['Library', 'Application Support', 'Zed']], ['win32', ['AppData', 'Local', 'Zed']]] as const) {
      const home = mkdtempSync(join(tmpdir(), `zed-${os}-`))
      cpSync(join(HOME, '.local', 'share', 'zed'), join(home, ...rel), { recursive: true })
      const read = await readHomeOf(zed, home, os)
      expect(read.sessions.map((s) => s.id).sort()).toEqual(rawRows().map((r) => r.id).sort())
    }
  })

  it('sepia list --home shows the Zed threads', async () => {
    const r = await runCli('list', '--home', HOME, '--json')
    expect(r.code).toBe(0)
    const data = JSON.parse(r.out) as { sessions: { agent: string; id: string }[] }
    expect(data.sessions.filter((x) => x.agent === 'zed').map((x) => x.id).sort()).toEqual(rawRows().map((r) => r.id).sort())
  })
})
