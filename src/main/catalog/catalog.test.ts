/**
 * The catalog against fresh reads of the real fixture homes: a catalog-built library equals
 * discover → read → link → summarize; refresh re-reads only changed files; deleting the catalog
 * loses nothing; worker threads give the same rows as inline reads; pages and whole nodes.
 */
import { appendFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CATALOG_HOMES, openHomes } from '../../../tests/helpers/open-homes'
import { tempDirs } from '../../../tests/helpers/temp'
import type { Session, SessionSummary } from '../../shared/ir'
import { AGENTS } from '../agents/registry'
import type { AgentDefinition, ReadContext, StoreRef } from '../agents/types'
import { findAppRoot } from '../context'
import { summarize } from '../ir/build'
import { LibraryService } from '../library'

const ROOT = findAppRoot()
const HOMES = [...CATALOG_HOMES]
const ctx: ReadContext = { now: () => 1_800_000_000_000 }
const temp = tempDirs()

/** The pre-catalog library: every agent of every home read and linked, first home wins. */
async function freshRead(paths: string[], agents: readonly AgentDefinition[] = AGENTS): Promise<Map<string, { session: Session; summary: SessionSummary }>> {
  const out = new Map<string, { session: Session; summary: SessionSummary }>()
  for (const home of await openHomes(paths)) {
    for (const agent of agents) {
      const { refs } = await agent.discover(home.layout, ctx)
      const sessions: Session[] = []
      const seen = new Set<string>()
      for (const ref of refs) {
        if (seen.has(ref.sessionId)) continue
        seen.add(ref.sessionId)
        sessions.push(await agent.read(ref, ctx))
      }
      agent.link?.(sessions)
      for (const s of sessions) {
        const key = `${s.agent}/${s.id}`
        if (!out.has(key)) out.set(key, { session: s, summary: summarize(s, home.layout.home) })
      }
    }
  }
  return out
}

function byKey(list: SessionSummary[]): Record<string, SessionSummary> {
  return Object.fromEntries(list.map((s) => [`${s.agent}/${s.id}`, s]))
}

/** Agents whose `read` (and streaming `readStream`) calls are counted. */
function counting(): { agents: AgentDefinition[]; reads: string[] } {
  const reads: string[] = []
  const agents = AGENTS.map((a): AgentDefinition => {
    const stream = a.readStream
    const counted: AgentDefinition = { ...a, read: (ref, c) => (reads.push(`${ref.agent}/${ref.sessionId}`), a.read(ref, c)) }
    if (stream) counted.readStream = (ref, c, out) => (reads.push(`${ref.agent}/${ref.sessionId}`), stream(ref, c, out))
    return counted
  })
  return { agents, reads }
}

describe('catalog', () => {
  it('lists exactly what a fresh read of every real fixture home gives, and getSession returns the linked session', async () => {
    const expected = await freshRead(HOMES)
    const lib = new LibraryService(await openHomes(HOMES), AGENTS, ctx, { catalogPath: join(temp('sepia-cat-'), 'catalog.sqlite'), workers: 0 })
    const got = await lib.load()
    expect(got.sessions.length).toBe(expected.size)
    expect(got.sessions.length).toBeGreaterThan(30)
    expect(byKey(got.sessions)).toEqual(Object.fromEntries([...expected].map(([k, v]) => [k, v.summary])))
    // Sub-agent links survive the catalog: children listed, parents set, spawning call linked.
    const child = got.sessions.find((s) => s.agent === 'claude-code' && s.parentSessionId)!
    expect(child).toBeDefined()
    const parent = await lib.getSession('claude-code', child.parentSessionId!, { reveal: true })
    expect(parent).toEqual(expected.get(`claude-code/${child.parentSessionId}`)!.session)
    expect(parent.nodes.some((n) => n.toolCalls?.some((c) => c.subagentSessionId === child.id))).toBe(true)
    for (const [key, { session }] of [...expected].filter(([k]) => k.startsWith('cline/') || k.startsWith('codex/') || k.startsWith('gemini/'))) {
      const [agent, id] = [session.agent, session.id]
      expect(await lib.getSession(agent, id, { reveal: true }), key).toEqual(session)
    }
    await lib.close()
  })

  it('re-reads only the sessions whose files changed, continues an appended transcript, drops deleted ones', async () => {
    const home = join(temp('sepia-inc-'), 'home')
    cpSync(join(ROOT, 'fixtures/real/claude-code/home'), home, { recursive: true })
    const { agents, reads } = counting()
    const lib = new LibraryService(await openHomes([home]), agents, ctx, { catalogPath: join(temp('sepia-cat-'), 'catalog.sqlite'), workers: 0 })
    const first = await lib.load()
    const total = first.sessions.length
    expect(reads.length).toBe(total)
    const token = (await lib.changes()).token

    reads.length = 0
    await lib.load({ refresh: true })
    expect(reads).toEqual([])

    const id = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
    const file = join(home, '.claude/projects/-home-ana-src-ledger-api', `${id}.jsonl`)
    const before = first.sessions.find((s) => s.id === id)!
    const mid = 'f0000000-0000-4000-8000-000000000001'
    appendFileSync(file, JSON.stringify({ parentUuid: null, type: 'user', message: { role: 'user', content: 'appended zanzibar question' }, uuid: mid, timestamp: '2026-12-01T10:00:00.000Z', cwd: '/home/ana/src/ledger-api', sessionId: id }) + '\n')
    const msgsBefore = (lib.db.prepare('SELECT mid FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.session_id = ? ORDER BY seq').all(id) as { mid: number }[]).map((r) => r.mid)
    const after = await lib.load({ refresh: true })
    expect(reads).toEqual([`claude-code/${id}`])
    const s = after.sessions.find((x) => x.id === id)!
    expect(s.messageCount).toBe(before.messageCount + 1)
    expect(s.lastActivityAt).toBe(Date.parse('2026-12-01T10:00:00.000Z'))
    // The transcript's earlier message rows were kept (only the tail is new).
    const msgsAfter = (lib.db.prepare('SELECT mid FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.session_id = ? ORDER BY seq').all(id) as { mid: number }[]).map((r) => r.mid)
    expect(msgsAfter.slice(0, msgsBefore.length)).toEqual(msgsBefore)
    expect(msgsAfter.length).toBe(msgsBefore.length + 1)

    const gone = 'db9d5855-d967-440c-8eac-0e5a668d0e19'
    rmSync(join(home, '.claude/projects/-home-ana-src-ledger-api', `${gone}.jsonl`))
    reads.length = 0
    const third = await lib.load({ refresh: true })
    expect(reads).toEqual([])
    expect(third.sessions.map((x) => x.id)).not.toContain(gone)
    expect(third.sessions.length).toBe(total - 1)
    await lib.whenIdle()
    const changes = await lib.changes(token)
    expect(changes.changedSessions.map((x) => x.id)).toEqual([id])
    expect(changes.removedSessions).toEqual([{ agent: 'claude-code', id: gone }])
    expect((await lib.changes(changes.token)).changedSessions).toEqual([])
    await lib.close()
  })

  it('is a cache: deleting the catalog file loses nothing, and warm start reads no store', async () => {
    const dir = temp('sepia-del-')
    const path = join(dir, 'catalog.sqlite')
    const homes = [join(ROOT, 'fixtures/real/cline/home'), join(ROOT, 'fixtures/real/codex/home')]
    const a = new LibraryService(await openHomes(homes), AGENTS, ctx, { catalogPath: path, workers: 0 })
    const first = await a.load()
    await a.close()

    const { agents, reads } = counting()
    const warm = new LibraryService(await openHomes(homes), agents, ctx, { catalogPath: path, workers: 0 })
    expect(warm.isIndexed()).toBe(true)
    const listed = await warm.load()
    expect(reads).toEqual([]) // answered from the catalog before any store was read
    expect(listed.sessions).toEqual(first.sessions)
    await warm.close()

    for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true })
    const b = new LibraryService(await openHomes(homes), AGENTS, ctx, { catalogPath: path, workers: 0 })
    expect(b.isIndexed()).toBe(false)
    expect((await b.load()).sessions).toEqual(first.sessions)
    await b.close()
  })

  it('reads on worker threads and writes the same rows as an inline read', async () => {
    const homes = [join(ROOT, 'fixtures/real/claude-code/home'), join(ROOT, 'fixtures/real/cline/home')]
    const inline = new LibraryService(await openHomes(homes), AGENTS, ctx, { workers: 0 })
    const threaded = new LibraryService(await openHomes(homes), AGENTS, ctx, { catalogPath: join(temp('sepia-wk-'), 'catalog.sqlite'), workers: 2, workerThreshold: 0 })
    const a = await inline.load()
    const b = await threaded.load()
    expect(b.sessions).toEqual(a.sessions)
    const st = threaded.status()
    expect(st.total).toBe(a.sessions.length)
    expect(st.done).toBe(st.total)
    expect(st.bytesDone).toBe(st.bytesTotal)
    await threaded.whenIdle()
    const count = (l: LibraryService) => (l.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n
    expect(count(threaded)).toBe(count(inline))
    await inline.close()
    await threaded.close()
  }, 60_000)

  it('serves long sessions in pages with long texts cut, and a cut node whole', async () => {
    const home = join(temp('sepia-page-'), 'home')
    const dir = join(home, '.claude/projects/-tmp-big')
    const id = 'aaaaaaaa-0000-4000-8000-000000000001'
    const lines: string[] = []
    let parent: string | null = null
    for (let i = 0; i < 450; i++) {
      const uuid = `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`
      const text = i === 3 ? 'x'.repeat(50_000) : `message ${i}`
      lines.push(JSON.stringify({ parentUuid: parent, type: 'user', message: { role: 'user', content: text }, uuid, timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), cwd: '/tmp/big', sessionId: id }))
      parent = uuid
    }
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `${id}.jsonl`), lines.join('\n') + '\n')
    const lib = new LibraryService(await openHomes([home]), AGENTS, ctx, { workers: 0 })
    const page = await lib.getSessionPage('claude-code', id, { offset: 0, limit: 100 })
    expect(page.totalNodes).toBe(450)
    expect(page.nodes.length).toBe(100)
    expect(page.session.nodes).toEqual([])
    expect(page.session.id).toBe(id)
    expect(page.nodes[3]!.content.length).toBe(20_000)
    expect(page.nodes[3]!.metadata?.sepiaTruncated).toEqual({ content: 50_000 })
    const last = await lib.getSessionPage('claude-code', id, { offset: 400, limit: 100 })
    expect(last.nodes.map((n) => n.content)).toEqual(Array.from({ length: 50 }, (_, i) => `message ${400 + i}`))
    const whole = await lib.getSessionNode('claude-code', id, page.nodes[3]!.nodeId)
    expect(whole.content.length).toBe(50_000)
    await expect(lib.getSessionPage('claude-code', id, { limit: 0 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    await expect(lib.getSessionNode('claude-code', id, 'nope')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' })
    await lib.close()
  })

  it('gives the first page of a large transcript from the head of its file, then the whole session', async () => {
    const home = join(temp('sepia-head-'), 'home')
    const dir = join(home, '.claude/projects/-tmp-huge')
    mkdirSync(dir, { recursive: true })
    const id = 'bbbbbbbb-0000-4000-8000-000000000001'
    const lines: string[] = []
    let parent: string | null = null
    const filler = 'y'.repeat(2000)
    for (let i = 0; i < 9000; i++) {
      const uuid = `bbbbbbbb-0000-4000-8000-${String(i).padStart(12, '0')}`
      lines.push(JSON.stringify({ parentUuid: parent, type: 'user', message: { role: 'user', content: `line ${i} ${filler}` }, uuid, timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), cwd: '/tmp/huge', sessionId: id }))
      parent = uuid
    }
    writeFileSync(join(dir, `${id}.jsonl`), lines.join('\n') + '\n')
    const lib = new LibraryService(await openHomes([home]), AGENTS, ctx, { workers: 0 })
    await lib.load()
    const head = await lib.getSessionPage('claude-code', id, { limit: 50 })
    expect(head.partial).toBe(true)
    expect(head.totalNodes).toBe(9000)
    expect(head.nodes.map((n) => n.content.split(' ', 2).join(' '))).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`))
    expect(head.session.source.files).toEqual([join(dir, `${id}.jsonl`)])
    // Pages asked for while the whole session is read come from the same head read.
    const [second, third] = await Promise.all([lib.getSessionPage('claude-code', id, { offset: 50, limit: 50 }), lib.getSessionPage('claude-code', id, { limit: 50 })])
    expect(third.nodes.map((n) => n.nodeId)).toEqual(head.nodes.map((n) => n.nodeId))
    const whole = await lib.getSession('claude-code', id, { reveal: true })
    expect(second.nodes.map((n) => n.nodeId)).toEqual(whole.nodes.slice(50, 100).map((n) => n.nodeId))
    expect(head.nodes.map((n) => n.nodeId)).toEqual(whole.nodes.slice(0, 50).map((n) => n.nodeId))
    // Partial while the whole masked copy is made (in slices), then final.
    const masking = await lib.getSessionPage('claude-code', id, { offset: 8990, limit: 50 })
    expect([masking.partial, masking.totalNodes, masking.nodes.length]).toEqual([true, 9000, 10])
    await lib.getSession('claude-code', id)
    const again = await lib.getSessionPage('claude-code', id, { offset: 8990, limit: 50 })
    expect(again.partial).toBeUndefined()
    expect(again.nodes.length).toBe(10)
    await lib.close()
  })

  it('a schema version change empties and rebuilds the catalog', async () => {
    const path = join(temp('sepia-ver-'), 'catalog.sqlite')
    const homes = [join(ROOT, 'fixtures/real/gemini/home')]
    const a = new LibraryService(await openHomes(homes), AGENTS, ctx, { catalogPath: path, workers: 0 })
    const first = await a.load()
    a.db.pragma('user_version = 1')
    await a.close()
    const b = new LibraryService(await openHomes(homes), AGENTS, ctx, { catalogPath: path, workers: 0 })
    expect(b.isIndexed()).toBe(false)
    expect((await b.load()).sessions).toEqual(first.sessions)
    await b.close()
  })
})

