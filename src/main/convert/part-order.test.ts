/**
 * Issue 14, "Order inside an assistant message is lost": Claude Code writes one record per content
 * block, several records sharing `message.id`. The IR keeps the blocks' order (`partOrder`) and
 * the Claude Code and Codex writers write it. Every expectation is read from raw files (the source
 * JSONL, the written transcript or rollout), never from Sepia's reading of its own output.
 *
 * Real case: fixtures/public-real/claude-code entire-2141 (Claude Code 2.1.41), reply
 * `msg_01YSzBKLF2udDQf5ujPVoJHe` = [text, thinking, text, tool_use x4]. No licensed real file holds
 * [text, tool_use, text], so that shape is written here by hand, record per block as the CLI does;
 * nor a server tool's blocks (fixtures/public-real/claude-code holds only the `usage.server_tool_use`
 * counters), so [server_tool_use web_search, web_search_tool_result, text] is hand-written too, in
 * the Anthropic Messages API shape ("Server tools": `srvtoolu_` ids, a `web_search_result` list).
 * Every writer is checked on both, on its store read raw (JSON lines, the messages file, SQLite rows).
 */
import Database from 'better-sqlite3'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Session } from '../../shared/ir'
import { AGENTS } from '../agents/registry'
import { readHome } from '../../../tests/builders/claude-code/testing'
import { layoutForHome } from '../platform'
import { runConversion } from './convert'
import { REPO_ROOT } from '../../../tests/helpers/golden'

type Rec = Record<string, any>
const homes: string[] = []
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })))
const NOW = 1_800_000_000_000

const REAL_HOME = join(REPO_ROOT, 'fixtures', 'public-real', 'claude-code', 'entire-2141', 'home')
const REAL_ID = 'acdd84ab-e724-42c8-925d-420b2a4f1861'
const REAL_MID = 'msg_01YSzBKLF2udDQf5ujPVoJHe'

/** JSON records of a raw JSONL file. */
function records(path: string): Rec[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Rec)
}

/** The raw block types of one reply (`message.id`), first copy of each record uuid, in file order. */
function rawBlocks(path: string, mid: string): Rec[] {
  const seen = new Set<string>()
  const out: Rec[] = []
  for (const r of records(path)) {
    if (r.type !== 'assistant' || r.message?.id !== mid || seen.has(r.uuid)) continue
    seen.add(r.uuid)
    out.push(...(Array.isArray(r.message.content) ? r.message.content : []))
  }
  return out
}

/** A part of the IR node as a block-type name, in `partOrder` (or the default) order. */
function irOrder(s: Session, nodeId: string): string[] {
  const n = s.nodes.find((x) => x.nodeId === nodeId)!
  if (!n.partOrder) throw new Error(`${nodeId} has no partOrder`)
  return n.partOrder.map((p) => (p.part === 'thinking' ? 'thinking' : p.part === 'tool-call' ? 'tool_use' : n.blocks![p.index]!.type))
}

/** Convert `session` into a fresh home of `agent`; the result (files, new session id). */
async function convertTo(session: Session, agent: string): Promise<{ files: string[]; sessionId: string }> {
  const home = mkdtempSync(join(tmpdir(), 'sepia-order-'))
  homes.push(home)
  const target = AGENTS.find((a) => a.id === agent)!
  return runConversion({ session, target, layout: await layoutForHome({ home }), textOnly: false, now: () => NOW, ctx: { now: () => NOW } as never })
}

async function convert(session: Session, agent: 'claude-code' | 'codex'): Promise<string> {
  return (await convertTo(session, agent)).files.find((f) => f.endsWith('.jsonl'))!
}

/** The written Claude Code reply that holds the call `callId`: its block types. */
function writtenClaudeOrder(file: string, callId: string): string[] {
  const r = records(file).find((x) => x.type === 'assistant' && x.message.content.some((b: Rec) => b.type === 'tool_use' && b.id === callId))!
  return r.message.content.map((b: Rec) => b.type)
}

/** The written Codex rollout's model items from the first one after `afterUserText`'s message up to the next tool output. */
function writtenCodexItems(file: string, afterUserText: string): Rec[] {
  const items = records(file).filter((r) => r.type === 'response_item').map((r) => r.payload as Rec)
  const start = items.findIndex((p) => p.type === 'message' && p.role === 'user' && JSON.stringify(p.content).includes(afterUserText))
  const out: Rec[] = []
  for (const p of items.slice(start + 1)) {
    if (p.type === 'function_call_output' || p.type === 'custom_tool_call_output' || (p.type === 'message' && p.role === 'user')) break
    out.push(p)
  }
  return out
}

describe('real reply [text, thinking, text, tool_use x4] (entire-2141)', () => {
  it('the IR keeps the raw block order', async () => {
    const file = join(REAL_HOME, '.claude', 'projects', '-Users-dip-Repositories-cli', `${REAL_ID}.jsonl`)
    const raw = rawBlocks(file, REAL_MID)
    expect(raw.map((b) => b.type)).toEqual(['text', 'thinking', 'text', 'tool_use', 'tool_use', 'tool_use', 'tool_use'])
    const s = (await readHome(REAL_HOME)).byId(REAL_ID)
    const node = s.nodes.find((n) => n.toolCalls?.some((c) => c.id === raw[3]!.id))!
    expect(irOrder(s, node.nodeId)).toEqual(raw.map((b) => b.type))
    expect(node.blocks!.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text)).toEqual(raw.filter((b) => b.type === 'text').map((b) => b.text))
  })

  it('Claude Code -> Claude Code writes the blocks in that order (signed thinking kept in place)', async () => {
    const file = join(REAL_HOME, '.claude', 'projects', '-Users-dip-Repositories-cli', `${REAL_ID}.jsonl`)
    const raw = rawBlocks(file, REAL_MID)
    const s = (await readHome(REAL_HOME)).byId(REAL_ID)
    const out = await convert(s, 'claude-code')
    expect(writtenClaudeOrder(out, raw[3]!.id)).toEqual(raw.map((b) => b.type))
  })
})

/** A hand-written Claude Code home: one reply [text, tool_use, text] (three records, one message.id), then its result. */
function interleavedHome(): { home: string; id: string } {
  const home = mkdtempSync(join(tmpdir(), 'sepia-order-src-'))
  homes.push(home)
  const id = '0b7e3c1a-5d2f-4e8a-9c41-7f3a2b6d8e90'
  const dir = join(home, '.claude', 'projects', '-work-app')
  mkdirSync(dir, { recursive: true })
  const common = { sessionId: id, cwd: '/work/app', version: '2.1.41', userType: 'external', isSidechain: false }
  const msg = (content: Rec[]): Rec => ({ id: 'msg_order1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: null, usage: { input_tokens: 10, output_tokens: 20 } })
  const recs: Rec[] = [
    { ...common, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-01-01T10:00:00.000Z', message: { role: 'user', content: 'list the files, then say what you will do next' } },
    { ...common, type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: '2026-01-01T10:00:01.000Z', message: msg([{ type: 'text', text: 'Listing them first.' }]) },
    { ...common, type: 'assistant', uuid: 'a2', parentUuid: 'a1', timestamp: '2026-01-01T10:00:02.000Z', message: msg([{ type: 'tool_use', id: 'toolu_order1', name: 'Bash', input: { command: 'ls', description: 'List files' } }]) },
    { ...common, type: 'assistant', uuid: 'a3', parentUuid: 'a2', timestamp: '2026-01-01T10:00:03.000Z', message: msg([{ type: 'text', text: 'After that I will read the README.' }]) },
    { ...common, type: 'user', uuid: 'r1', parentUuid: 'a3', timestamp: '2026-01-01T10:00:04.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_order1', content: 'README.md\nsrc' }] } },
    { ...common, type: 'assistant', uuid: 'a4', parentUuid: 'r1', timestamp: '2026-01-01T10:00:05.000Z', message: { ...msg([{ type: 'text', text: 'Two entries.' }]), id: 'msg_order2' } },
  ]
  writeFileSync(join(dir, `${id}.jsonl`), recs.map((r) => JSON.stringify(r)).join('\n') + '\n')
  return { home, id }
}

describe('reply [text, tool_use, text]', () => {
  it('the IR keeps the raw block order', async () => {
    const { home, id } = interleavedHome()
    const s = (await readHome(home)).byId(id)
    expect(irOrder(s, 'a1')).toEqual(['text', 'tool_use', 'text'])
    expect(s.nodes.find((n) => n.nodeId === 'a1')!.content).toBe('Listing them first.\n\nAfter that I will read the README.')
  })

  it('Claude Code -> Claude Code: one reply [text, tool_use, text], then the result', async () => {
    const { home, id } = interleavedHome()
    const out = await convert((await readHome(home)).byId(id), 'claude-code')
    expect(writtenClaudeOrder(out, 'toolu_order1')).toEqual(['text', 'tool_use', 'text'])
    const r = records(out).find((x) => x.type === 'assistant' && x.message.content.some((b: Rec) => b.id === 'toolu_order1'))!
    expect(r.message.content.filter((b: Rec) => b.type === 'text').map((b: Rec) => b.text)).toEqual(['Listing them first.', 'After that I will read the README.'])
  })

  it('Claude Code -> Codex: message, function_call, message, then the call output', async () => {
    const { home, id } = interleavedHome()
    const out = await convert((await readHome(home)).byId(id), 'codex')
    const items = writtenCodexItems(out, 'list the files')
    expect(items.map((p) => (p.type === 'message' ? `message:${p.content[0].text}` : p.type))).toEqual(['message:Listing them first.', 'function_call', 'message:After that I will read the README.'])
  })
})

/** A hand-written Claude Code reply [server_tool_use web_search, web_search_tool_result, text] (three records, one message.id). */
function searchHome(): { home: string; id: string } {
  const home = mkdtempSync(join(tmpdir(), 'sepia-order-src-'))
  homes.push(home)
  const id = '5c1d9e2a-7b3f-4c6d-8e1a-2f4b6d8a0c13'
  const dir = join(home, '.claude', 'projects', '-work-app')
  mkdirSync(dir, { recursive: true })
  const common = { sessionId: id, cwd: '/work/app', version: '2.1.41', userType: 'external', isSidechain: false }
  const msg = (content: Rec[]): Rec => ({ id: 'msg_search1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: null, usage: { input_tokens: 10, output_tokens: 20, server_tool_use: { web_search_requests: 1 } } })
  const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01Search', content: [{ type: 'web_search_result', url: 'https://nodejs.org/en/blog/release/v24.0.0', title: 'Node.js 24.0.0', encrypted_content: 'EqgfCioIARgB', page_age: '2025-05-06' }] }
  const recs: Rec[] = [
    { ...common, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-01-01T10:00:00.000Z', message: { role: 'user', content: 'what is new in node 24?' } },
    { ...common, type: 'assistant', uuid: 's1', parentUuid: 'u1', timestamp: '2026-01-01T10:00:01.000Z', message: msg([{ type: 'server_tool_use', id: 'srvtoolu_01Search', name: 'web_search', input: { query: 'node 24 release notes' } }]) },
    { ...common, type: 'assistant', uuid: 's2', parentUuid: 's1', timestamp: '2026-01-01T10:00:02.000Z', message: msg([result]) },
    { ...common, type: 'assistant', uuid: 's3', parentUuid: 's2', timestamp: '2026-01-01T10:00:03.000Z', message: msg([{ type: 'text', text: 'Node 24 ships V8 13.6.' }]) },
    { ...common, type: 'user', uuid: 'u2', parentUuid: 's3', timestamp: '2026-01-01T10:00:04.000Z', message: { role: 'user', content: 'thanks' } },
  ]
  writeFileSync(join(dir, `${id}.jsonl`), recs.map((r) => JSON.stringify(r)).join('\n') + '\n')
  return { home, id }
}

type Rows = Record<string, unknown>[]
function query(db: string, sql: string, ...args: unknown[]): Rows {
  const d = new Database(db, { readonly: true })
  try {
    return d.prepare(sql).all(...args) as Rows
  } finally {
    d.close()
  }
}

/**
 * The assistant side of the written session as a flat list, read raw from the target's own store:
 * `text:<text>` and `call:<id-or-name>` in store order, `|` between model turns (records, rows,
 * messages) and `result:<id>` where a call's result is written as its own turn.
 */
function writtenFlow(agent: string, out: { files: string[]; sessionId: string }): string[] {
  const flow: string[] = []
  const text = (t: string): void => void (t.trim() !== '' && flow.push(`text:${t}`))
  if (agent === 'cline') {
    const file = out.files.find((f) => f.endsWith('.messages.json'))!
    for (const m of (JSON.parse(readFileSync(file, 'utf8')) as Rec).messages as Rec[]) {
      flow.push('|')
      for (const b of m.content as Rec[]) {
        if (b.type === 'text') text(b.text)
        else if (b.type === 'tool_use') flow.push(`call:${b.name}`)
        else if (b.type === 'tool_result') flow.push(`result:${b.name}`)
      }
    }
  } else if (agent === 'gemini') {
    const file = out.files.find((f) => /\.jsonl?$/.test(f))!
    for (const r of records(file)) {
      if (r.type !== 'gemini' && r.type !== 'user') continue
      flow.push('|')
      if (typeof r.content === 'string') text(r.content)
      else for (const p of r.content as Rec[]) if (typeof p.text === 'string' && !p.thought) text(p.text)
      for (const c of (r.toolCalls ?? []) as Rec[]) flow.push(`call:${c.name}`)
    }
  } else if (agent === 'opencode' || agent === 'kilo-code') {
    const db = out.files.find((f) => f.endsWith('.db'))!
    const rows = query(db, 'SELECT m.data AS m, p.data AS p FROM part p JOIN message m ON m.id = p.message_id WHERE p.session_id = ? ORDER BY p.message_id, p.id', out.sessionId)
    let last: unknown
    for (const row of rows) {
      if (row.m !== last) flow.push('|')
      last = row.m
      const p = JSON.parse(String(row.p)) as Rec
      if (p.type === 'text') text(p.text)
      else if (p.type === 'tool') flow.push(`call:${p.tool}`)
    }
  } else if (agent === 'devin') {
    const db = out.files.find((f) => f.endsWith('.db'))!
    for (const row of query(db, 'SELECT chat_message FROM message_nodes WHERE session_id = ? ORDER BY node_id', out.sessionId)) {
      const m = JSON.parse(String(row.chat_message)) as Rec
      flow.push('|')
      if (m.role === 'tool') {
        flow.push(`result:${m.tool_call_id}`)
        continue
      }
      text(m.content)
      for (const c of (m.tool_calls ?? []) as Rec[]) flow.push(`call:${c.name}`)
    }
  } else throw new Error(`no raw reader for ${agent}`)
  return flow
}

describe('every other writer keeps the parts\' order, read raw from its store', () => {
  // [text, tool_use, text] in each target's own shape: one message for Cline and OpenCode/Kilo
  // (ordered blocks, ordered parts), consecutive model turns for Gemini CLI and Devin.
  const interleaved: Record<string, (f: string[]) => void> = {
    cline: (f) => expect(f.slice(f.indexOf('text:Listing them first.'), f.indexOf('text:After that I will read the README.') + 1)).toEqual(['text:Listing them first.', 'call:run_commands', 'text:After that I will read the README.']),
    opencode: (f) => expect(f.slice(f.indexOf('text:Listing them first.'), f.indexOf('text:After that I will read the README.') + 1)).toEqual(['text:Listing them first.', 'call:bash', 'text:After that I will read the README.']),
    'kilo-code': (f) => expect(f.slice(f.indexOf('text:Listing them first.'), f.indexOf('text:After that I will read the README.') + 1)).toEqual(['text:Listing them first.', 'call:bash', 'text:After that I will read the README.']),
    gemini: (f) => expect(f.slice(f.indexOf('text:Listing them first.'), f.indexOf('text:After that I will read the README.') + 1)).toEqual(['text:Listing them first.', 'call:run_shell_command', '|', 'text:After that I will read the README.']),
    devin: (f) => expect(f.slice(f.indexOf('text:Listing them first.'), f.indexOf('text:After that I will read the README.') + 1)).toEqual(['text:Listing them first.', 'call:exec', '|', 'result:toolu_order1', '|', 'text:After that I will read the README.']),
  }
  for (const [agent, check] of Object.entries(interleaved)) {
    it(`Claude Code [text, tool_use, text] -> ${agent}`, async () => {
      const { home, id } = interleavedHome()
      const flow = writtenFlow(agent, await convertTo((await readHome(home)).byId(id), agent))
      check(flow)
      // The turn after the result is the model's "Two entries.", never before the call.
      expect(flow.indexOf('text:Two entries.')).toBeGreaterThan(flow.indexOf('text:After that I will read the README.'))
    })
  }

  for (const agent of ['cline', 'opencode', 'kilo-code', 'gemini', 'devin', 'claude-code', 'codex']) {
    it(`Claude Code [server_tool_use web_search, web_search_tool_result, text] -> ${agent}: the search, then the answer, no client call`, async () => {
      const { home, id } = searchHome()
      const out = await convertTo((await readHome(home)).byId(id), agent)
      let flow: string[]
      if (agent === 'claude-code') {
        const file = out.files.find((f) => f.endsWith('.jsonl'))!
        flow = records(file).filter((r) => r.type === 'assistant').flatMap((r) => (r.message.content as Rec[]).map((b) => (b.type === 'text' ? `text:${b.text}` : `call:${b.name}`)))
      } else if (agent === 'codex') {
        const file = out.files.find((f) => f.endsWith('.jsonl'))!
        flow = writtenCodexItems(file, 'what is new in node 24').map((p) => (p.type === 'message' ? `text:${p.content[0].text}` : `call:${p.name ?? p.type}`))
      } else flow = writtenFlow(agent, out)
      expect(flow.filter((x) => x.startsWith('call:') || x.startsWith('result:'))).toEqual([])
      const marker = flow.findIndex((x) => x.startsWith('text:[web_search run by the provider: "node 24 release notes"]'))
      expect(marker).toBeGreaterThanOrEqual(0)
      const answer = flow.findIndex((x) => x.endsWith('Node 24 ships V8 13.6.'))
      expect(answer).toBeGreaterThanOrEqual(marker)
      // The message ends on the answer, not on the search.
      const replies = flow.filter((x) => x.startsWith('text:') && x !== 'text:thanks' && x !== 'text:what is new in node 24?')
      expect(replies.at(-1)?.endsWith('Node 24 ships V8 13.6.')).toBe(true)
    })
  }
})
