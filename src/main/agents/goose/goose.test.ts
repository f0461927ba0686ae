/**
 * Goose reader on the public real sample (fixtures/public-real/goose: one empty CLI session in
 * sessions.db) and on the homes built from Goose's schema (fixtures/built/goose). Every count is
 * taken from an independent reading of the raw store here (better-sqlite3 on a temporary copy, or
 * the JSONL lines), never from Sepia.
 */
import Database from 'better-sqlite3'
import { appendFileSync, cpSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPairedToolCalls } from '../../ir/build'
import { expectGolden, REPO_ROOT } from '../../../../tests/helpers/golden'
import { snapshotTree } from '../../../../tests/helpers/snapshot'
import { runCli } from '../../../../tests/helpers/cli-run'
import { readHomeOf } from '../../../../tests/builders/testing'
import { goose } from '.'

const SESSIONS = join('.local', 'share', 'goose', 'sessions')
const EMPTY = join(REPO_ROOT, 'fixtures', 'public-real', 'goose', 'empty-cli-session', 'home')
const SQLITE = join(REPO_ROOT, 'fixtures', 'built', 'goose', 'sqlite', 'home')
const JSONL = join(REPO_ROOT, 'fixtures', 'built', 'goose', 'jsonl', 'home')

type Item = Record<string, any>

/** Rows of a database, read from a temporary copy (the fixture is never opened in place). */
function rawDb(home: string): { sessions: Item[]; messages: Item[] } {
  const dir = mkdtempSync(join(tmpdir(), 'goose-raw-'))
  cpSync(join(home, SESSIONS, 'sessions.db'), join(dir, 'sessions.db'))
  const db = new Database(join(dir, 'sessions.db'), { readonly: true })
  try {
    return { sessions: db.prepare('SELECT * FROM sessions').all() as Item[], messages: db.prepare('SELECT * FROM messages ORDER BY timestamp, id').all() as Item[] }
  } finally {
    db.close()
  }
}

/** What a list of Goose messages holds, counted from the raw content items. */
function truth(messages: { role: string; content: Item[] }[]) {
  const items = messages.flatMap((m) => m.content.map((c) => ({ role: m.role, c })))
  const requests = items.filter((x) => x.c.type === 'toolRequest')
  const responses = items.filter((x) => x.c.type === 'toolResponse')
  const requestIds = new Set(requests.map((x) => x.c.id as string))
  return {
    prompts: messages.filter((m) => m.role === 'user' && m.content.some((c) => c.type === 'text')).map((m) => m.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n')),
    assistantMessages: messages.filter((m) => m.role === 'assistant').length,
    calls: requests.length,
    paired: responses.filter((x) => requestIds.has(x.c.id)).length,
    failed: responses.filter((x) => x.c.toolResult.status === 'error' || x.c.toolResult.value?.isError === true).length,
    thinking: items.filter((x) => x.c.type === 'thinking').map((x) => x.c.thinking as string),
  }
}

describe('goose: public real sample', () => {
  it('the empty CLI session lists with no messages, its title, folder and times from the sessions row', async () => {
    const { sessions, messages } = rawDb(EMPTY)
    expect(messages).toHaveLength(0)
    const row = sessions[0]!
    const before = snapshotTree(EMPTY)
    const home = await readHomeOf(goose, EMPTY)
    expect(home.sessions.map((s) => s.id)).toEqual(sessions.map((r) => r.id))
    const s = home.byId(row.id)
    expect(s.nodes).toEqual([])
    expect(s.diagnostics).toEqual([])
    expect(s.title).toBe(row.name)
    expect(s.workingDirectory).toBe(row.working_dir)
    expect(s.createdAt).toBe(Date.parse(`${row.created_at.replace(' ', 'T')}Z`))
    expect(s.usage).toBeUndefined()
    expect(snapshotTree(EMPTY)).toEqual(before)
    expectGolden(`goose/${row.id}`, s)
  })

  it('sepia list --home shows the empty session', async () => {
    const r = await runCli('list', '--home', EMPTY, '--json')
    expect(r.code).toBe(0)
    const data = JSON.parse(r.out) as { sessions: { agent: string; id: string }[] }
    expect(data.sessions.filter((x) => x.agent === 'goose').map((x) => x.id)).toEqual(rawDb(EMPTY).sessions.map((x) => x.id))
  })
})

describe('goose: sessions.db built from the schema', () => {
  it('every session row, its messages, tool calls paired by id, thinking and the token columns', async () => {
    const raw = rawDb(SQLITE)
    const home = await readHomeOf(goose, SQLITE)
    expect(home.sessions.map((s) => s.id).sort()).toEqual(raw.sessions.map((r) => r.id).sort())
    for (const row of raw.sessions) {
      const msgs = raw.messages.filter((m) => m.session_id === row.id).map((m) => ({ role: m.role as string, content: JSON.parse(m.content_json) as Item[] }))
      const t = truth(msgs)
      const s = home.byId(row.id)
      expect(s.diagnostics).toEqual([])
      expect(s.title).toBe(row.name)
      expect(s.workingDirectory).toBe(row.working_dir)
      expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(t.prompts)
      expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(t.assistantMessages)
      expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
      expect(s.nodes.filter((n) => n.role === 'tool' && n.isError)).toHaveLength(t.failed)
      expect(s.nodes.map((n) => n.thinking).filter(Boolean)).toEqual(t.thinking)
      if (row.accumulated_input_tokens !== null) expect(s.usage).toEqual({ inputTokens: row.accumulated_input_tokens, outputTokens: row.accumulated_output_tokens })
      else expect(s.usage).toBeUndefined()
      expect(s.metadata.sessionType).toBe(row.session_type)
      expect(s.nodes[0]!.createdAt).toBe(msgs.length ? raw.messages.find((m) => m.session_id === row.id)!.created_timestamp * 1000 : undefined)
      expectGolden(`goose/${row.id}`, s)
    }
    const calc = home.byId('20250310_1')
    const edit = calc.nodes.flatMap((n) => n.toolCalls ?? []).find((c) => c.id === 'toolu_02')!
    expect(edit.kind).toBe('edit')
    expect(edit.diffs).toEqual([{ path: '/home/ana/src/calc/calc.py', oldText: 'return a - b', newText: 'return a + b' }])
    expect(calc.nodes.flatMap((n) => n.toolCalls ?? []).find((c) => c.id === 'toolu_03')!.status).toBe('failed')
  })

  it('a damaged content_json row is a diagnostic naming the database and the row; the rest loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'goose-bad-db-'))
    cpSync(SQLITE, home, { recursive: true })
    const path = join(home, SESSIONS, 'sessions.db')
    const db = new Database(path)
    db.prepare("UPDATE messages SET content_json = '[{\"type\":\"text\",\"te' WHERE id = 3").run()
    db.close()
    const s = (await readHomeOf(goose, home)).byId('20250310_1')
    const d = s.diagnostics.filter((x) => x.severity !== 'info')
    expect(d).toHaveLength(1)
    expect(d[0]!.path).toBe(path)
    expect(d[0]!.message).toContain('messages row 3')
    expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(truth(rawDb(SQLITE).messages.filter((m) => m.session_id === '20250310_1').map((m) => ({ role: m.role, content: JSON.parse(m.content_json) }))).assistantMessages)
  })
})

describe('goose: legacy JSONL built from storage.rs', () => {
  const file = join(JSONL, SESSIONS, '20250210_093000.jsonl')
  const lines = () => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Item)

  it('metadata line, messages, the legacy tool result shape and the accumulated tokens', async () => {
    const [meta, ...msgs] = lines()
    const t = truth(msgs as { role: string; content: Item[] }[])
    const s = (await readHomeOf(goose, JSONL)).byId('20250210_093000')
    expect(s.diagnostics).toEqual([])
    expect(s.title).toBe(meta!.description)
    expect(s.workingDirectory).toBe(meta!.working_dir)
    expect(s.usage).toEqual({ inputTokens: meta!.accumulated_input_tokens, outputTokens: meta!.accumulated_output_tokens })
    expect(s.nodes.filter((n) => n.role === 'user').map((n) => n.content)).toEqual(t.prompts)
    expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(t.assistantMessages)
    expect(countPairedToolCalls(s)).toEqual({ calls: t.calls, paired: t.paired })
    expect(s.nodes.find((n) => n.role === 'tool')!.content).toBe(msgs[2]!.content[0].toolResult.value[0].text)
    expectGolden('goose/20250210_093000', s)
  })

  it('a line cut short is a warning naming the file and line; the rest loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'goose-bad-jsonl-'))
    cpSync(JSONL, home, { recursive: true })
    const path = join(home, SESSIONS, '20250210_093000.jsonl')
    appendFileSync(path, '{"role":"assistant","created":17391798')
    const s = (await readHomeOf(goose, home)).byId('20250210_093000')
    expect(s.diagnostics.map((d) => [d.severity, d.path, d.line])).toEqual([['warning', path, lines().length + 1]])
    expect(s.nodes.filter((n) => n.role === 'assistant')).toHaveLength(truth(lines().slice(1) as { role: string; content: Item[] }[]).assistantMessages)
  })
})
