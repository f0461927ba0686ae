/**
 * Pages of a large transcript answered from prefix reads while the whole read runs
 * (`LibraryService.getSessionPage`): each page must be the whole read's page, counts are checked
 * against a reading of the raw JSONL here, and secrets stay masked.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDirs } from '../../tests/helpers/temp'
import { FAKE_SECRETS } from '../../tests/builders/secrets/fake-secrets'
import type { SessionPage } from '../shared/catalog'
import { AGENTS } from './agents/registry'
import type { ReadContext } from './agents/types'
import { findAppRoot } from './context'
import { LibraryService, type LibraryOptions, type OpenHome } from './library'
import { layoutForHome } from './platform'

const ROOT = findAppRoot()
const ctx: ReadContext = { now: () => 1_800_000_000_000 }
const temp = tempDirs()

async function openHomes(paths: string[]): Promise<OpenHome[]> {
  return Promise.all(paths.map(async (home) => ({ layout: await layoutForHome({ home }), isDemo: false })))
}

/** A gate the whole read waits for. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void
  const wait = new Promise<void>((r) => (open = r))
  return { wait, open }
}

/** The JSONL records of a file (lines that parse as objects). */
function records(path: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    try {
      const v = JSON.parse(line) as unknown
      if (v && typeof v === 'object' && !Array.isArray(v)) out.push(v as Record<string, unknown>)
    } catch {
      // not a record
    }
  }
  return out
}

/** Ids of the `tool_use` blocks of the assistant records of a raw JSONL file. */
function rawToolUseIds(path: string): Set<string> {
  const ids = new Set<string>()
  for (const r of records(path)) {
    const content = (r.message as { content?: unknown } | undefined)?.content
    if (r.type !== 'assistant' || !Array.isArray(content)) continue
    for (const b of content as { type?: string; id?: string }[]) if (b.type === 'tool_use' && typeof b.id === 'string') ids.add(b.id)
  }
  return ids
}

/** Page `offset` of the same session from a library that reads it whole (no prefix reads). */
async function wholePages(home: string, id: string, offsets: number[], limit: number): Promise<Map<number, SessionPage>> {
  const lib = new LibraryService(await openHomes([home]), AGENTS, ctx, { workers: 0, prefix: { minSize: Number.MAX_SAFE_INTEGER } })
  await lib.load()
  const out = new Map<number, SessionPage>()
  for (const o of offsets) out.set(o, await lib.getSessionPage('claude-code', id, { offset: o, limit }))
  await lib.close()
  return out
}

describe('getSessionPage from prefix reads', () => {
  it('gives the whole read\'s pages of a real Claude Code session while the whole read is held back', async () => {
    const src = join(ROOT, 'fixtures/public-real/claude-code/omp-compact-api-error/home')
    const home = join(temp('sepia-prefix-real-'), 'home')
    cpSync(src, home, { recursive: true })
    const id = '6b6f4218-0b12-4d55-b930-462903683bea'
    const file = join(home, '.claude/projects/D--oh-my-posh', `${id}.jsonl`)
    const held = gate()
    const options: LibraryOptions = { workers: 0, prefix: { minSize: 0, headBytes: 64 << 10, wholeReadAfter: held.wait } }
    const lib = new LibraryService(await openHomes([home]), AGENTS, ctx, options)
    await lib.load()
    const limit = 25
    const first = await lib.getSessionPage('claude-code', id, { limit })
    const total = first.totalNodes
    const offsets = Array.from({ length: Math.ceil(total / limit) }, (_, i) => i * limit)
    const got = new Map<number, SessionPage>()
    for (const o of offsets) got.set(o, await lib.getSessionPage('claude-code', id, { offset: o, limit }))
    held.open()
    const want = await wholePages(home, id, offsets, limit)
    const partial = offsets.filter((o) => got.get(o)!.partial === true)
    // The head is 64 KiB of a 4 MB file: most pages of the first half came from longer prefixes.
    expect(partial.length).toBeGreaterThan(offsets.length / 4)
    expect(partial.some((o) => o * 4 > total)).toBe(true)
    for (const o of offsets) {
      expect(got.get(o)!.offset).toBe(o)
      expect(got.get(o)!.nodes).toEqual(want.get(o)!.nodes)
    }
    expect(want.get(0)!.totalNodes).toBe(total)
    // Every tool call of the raw file is on some page, once.
    const calls = [...got.values()].flatMap((p) => p.nodes.flatMap((n) => (n.toolCalls ?? []).map((c) => c.id)))
    expect(new Set(calls).size).toBe(calls.length)
    expect(new Set(calls)).toEqual(rawToolUseIds(file))
    await lib.close()
  })

  it('a page with a call that has no result in its prefix waits for the whole read', async () => {
    const home = join(temp('sepia-prefix-pending-'), 'home')
    const dir = join(home, '.claude/projects/-tmp-pending')
    mkdirSync(dir, { recursive: true })
    const id = 'dddddddd-0000-4000-8000-000000000001'
    const lines: string[] = []
    let parent: string | null = null
    const filler = 'p'.repeat(1500)
    const unanswered = 300
    for (let i = 0; i < 2000; i++) {
      const u = (k: number): string => `dddddddd-${String(k).padStart(4, '0')}-4000-8000-${String(i).padStart(12, '0')}`
      const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString()
      const push = (r: Record<string, unknown>): void => {
        lines.push(JSON.stringify({ parentUuid: parent, cwd: '/tmp/pending', sessionId: id, timestamp: at, ...r }))
        parent = r.uuid as string
      }
      push({ type: 'user', uuid: u(1), message: { role: 'user', content: `turn ${i} ${filler}` } })
      push({ type: 'assistant', uuid: u(2), message: { id: `msg_${i}`, role: 'assistant', model: 'claude-test', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `echo ${i}` } }] } })
      if (i !== unanswered) push({ type: 'user', uuid: u(3), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `out ${i} ${filler}` }] } })
    }
    writeFileSync(join(dir, `${id}.jsonl`), lines.join('\n') + '\n')
    const held = gate()
    const lib = new LibraryService(await openHomes([home]), AGENTS, ctx, { workers: 0, prefix: { minSize: 0, headBytes: 64 << 10, wholeReadAfter: held.wait } })
    await lib.load()
    // Node 3 * 300 is the call left unanswered; the pages before it come from prefixes.
    const before = await lib.getSessionPage('claude-code', id, { offset: 600, limit: 100 })
    expect(before.partial).toBe(true)
    const pending = await lib.getSessionPage('claude-code', id, { offset: 880, limit: 40 })
    // From the whole read: its counts are the whole session's (a prefix's count fewer messages),
    // and `partial` is set only while the whole masked copy is being made.
    await expect.poll(async () => (await lib.getSessionPage('claude-code', id, { offset: 880, limit: 40 })).partial).toBeUndefined()
    const whole = await lib.getSessionPage('claude-code', id, { offset: 880, limit: 40 })
    expect(pending.stats).toEqual(whole.stats)
    expect(before.stats).not.toEqual(whole.stats)
    expect(pending.nodes).toEqual(whole.nodes)
    const call = pending.nodes.find((n) => n.toolCalls?.[0]?.id === `toolu_${unanswered}`)!
    expect(call.toolCalls![0]!.status).toBe('pending')
    held.open()
    const want = await wholePages(home, id, [600], 100)
    expect(before.nodes).toEqual(want.get(600)!.nodes)
    await lib.close()
  })

  it('answers a page past the 4 MB head of a generated session without the whole read, masked', async () => {
    const home = join(temp('sepia-prefix-gen-'), 'home')
    const dir = join(home, '.claude/projects/-tmp-gen')
    mkdirSync(dir, { recursive: true })
    const id = 'cccccccc-0000-4000-8000-000000000001'
    const secret = FAKE_SECRETS.find((s) => s.kind === 'github')!.secret
    const turns = 6000
    const lines: string[] = []
    let parent: string | null = null
    const filler = 'z'.repeat(1500)
    const at = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString()
    const uuid = (i: number, k: number): string => `cccccccc-${String(k).padStart(4, '0')}-4000-8000-${String(i).padStart(12, '0')}`
    const push = (r: Record<string, unknown>): void => {
      lines.push(JSON.stringify({ parentUuid: parent, cwd: '/tmp/gen', sessionId: id, ...r }))
      parent = r.uuid as string
    }
    for (let i = 0; i < turns; i++) {
      push({ type: 'user', uuid: uuid(i, 1), timestamp: at(i), message: { role: 'user', content: `turn ${i} ${i % 97 === 0 ? `token ${secret} ` : ''}${filler}` } })
      // One API reply in two records (text, then the call), as Claude Code writes them.
      const mid = `msg_${i}`
      push({ type: 'assistant', uuid: uuid(i, 2), timestamp: at(i), message: { id: mid, role: 'assistant', model: 'claude-test', content: [{ type: 'text', text: `answer ${i}` }] } })
      push({ type: 'assistant', uuid: uuid(i, 3), timestamp: at(i), message: { id: mid, role: 'assistant', model: 'claude-test', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `echo ${i}` } }] } })
      push({ type: 'user', uuid: uuid(i, 4), timestamp: at(i), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `out ${i} ${filler}` }] } })
    }
    const file = join(dir, `${id}.jsonl`)
    writeFileSync(file, lines.join('\n') + '\n')
    // Independent counts: each turn is a prompt, one reply (its two records merged) and a result.
    expect(lines.length).toBe(turns * 4)
    const total = turns * 3
    expect(readFileSync(file).length).toBeGreaterThan(24 << 20)

    const held = gate()
    const lib = new LibraryService(await openHomes([home]), AGENTS, ctx, { workers: 0, prefix: { minSize: 0, wholeReadAfter: held.wait } })
    await lib.load()
    const limit = 200
    // Past the head (4 MB is ~1,250 turns = ~3,700 nodes), then inside it, then further on.
    const offsets = [4000, 0, 3600, 4200, 4000, 5400]
    const got: SessionPage[] = []
    for (const o of offsets) got.push(await lib.getSessionPage('claude-code', id, { offset: o, limit }))
    for (const p of got) {
      expect(p.partial).toBe(true)
      expect(p.totalNodes).toBe(total)
      expect(p.nodes).toHaveLength(limit)
      p.nodes.forEach((n, i) => {
        const turn = Math.floor((p.offset + i) / 3)
        const k = (p.offset + i) % 3
        if (k === 0) expect([n.role, n.content.split(' ', 2).join(' ')]).toEqual(['user', `turn ${turn}`])
        else if (k === 1) expect([n.role, n.content, n.toolCalls?.map((c) => c.id)]).toEqual(['assistant', `answer ${turn}`, [`toolu_${turn}`]])
        else expect([n.role, n.toolCallId]).toEqual(['tool', `toolu_${turn}`])
      })
      for (const n of p.nodes) for (const c of n.toolCalls ?? []) expect(c.status).toBe('completed')
      expect(JSON.stringify(p)).not.toContain(secret)
    }
    expect(got.some((p) => JSON.stringify(p).includes('ghp_'))).toBe(true)
    held.open()
    const want = await wholePages(home, id, [...new Set(offsets)], limit)
    for (const p of got) expect(p.nodes).toEqual(want.get(p.offset)!.nodes)
    // Once the whole read is there, pages are final.
    await expect.poll(async () => (await lib.getSessionPage('claude-code', id, { offset: 16000, limit })).partial).toBeUndefined()
    const last = await lib.getSessionPage('claude-code', id, { offset: 17800, limit })
    expect(last.totalNodes).toBe(total)
    expect(last.stats!.toolCalls).toBe(turns)
    await lib.close()
  })
})
