/**
 * Issue 19: the archive keeps a session the agent deleted, Put back restores it byte for byte, the
 * archive writes only inside Sepia's data folder, deduplicates a growing file and keeps to its cap.
 * Expected bytes and counts come from reading the raw files before they are deleted, never from
 * Sepia.
 */
import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createApi, type SepiaService } from '../api'
import { findAppRoot, type AppContext } from '../context'
import type { AgentId } from '../../shared/ir'
import { Archive } from './archive'
import { CHUNK_BYTES } from './blobs'

const root = findAppRoot()
const temps: string[] = []
const temp = (name: string): string => {
  const d = mkdtempSync(join(tmpdir(), `sepia-archive-${name}-`))
  temps.push(d)
  return d
}
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true })
})

/** sha256 of every file under `dir`, by relative path. */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile()) out.set(relative(dir, p), createHash('sha256').update(readFileSync(p)).digest('hex'))
    }
  }
  walk(dir)
  return out
}

function ownHomeApi(home: string, dataDir: string): SepiaService {
  const context: AppContext = { mode: 'browser', version: '0.0.0-test', platform: 'linux', homes: [], fixturesDir: join(root, 'fixtures'), env: {}, ownHome: home, appDataDir: dataDir }
  return createApi(context)
}

/** One case per agent: the fixture home, the session to delete, its files, and how the agent deletes it. */
const CASES: { agent: AgentId; fixture: string; id: string; files: (home: string) => string[]; remove?: (home: string) => void }[] = [
  {
    agent: 'claude-code',
    fixture: 'claude-code',
    id: 'c79310a4-1627-4beb-8788-81d2e0fc6af8',
    files: (h) => [join(h, '.claude/projects/-home-ana-src-ledger-api/c79310a4-1627-4beb-8788-81d2e0fc6af8.jsonl')],
  },
  {
    agent: 'codex',
    fixture: 'codex',
    id: '01a22b43-66c3-75f0-90de-6d1ff6499d33',
    files: (h) => [join(h, '.codex/sessions/2026/11/30/rollout-2026-11-30T07-02-47-01a22b43-66c3-75f0-90de-6d1ff6499d33.jsonl')],
  },
  {
    agent: 'cline',
    fixture: 'cline',
    id: '1796022179495_agv8g',
    files: (h) => [join(h, '.cline/data/sessions/1796022179495_agv8g/1796022179495_agv8g.json'), join(h, '.cline/data/sessions/1796022179495_agv8g/1796022179495_agv8g.messages.json')],
    // Cline deletes the session folder and its sessions.db row.
    remove: (h) => {
      const db = new Database(join(h, '.cline/data/db/sessions.db'))
      db.prepare('DELETE FROM sessions WHERE session_id = ?').run('1796022179495_agv8g')
      db.close()
    },
  },
]

describe('archive: a deleted session stays listed and is put back byte-identical', () => {
  for (const c of CASES) {
    it(c.agent, async () => {
      const home = join(temp(c.agent), 'home')
      cpSync(join(root, 'fixtures/real', c.fixture, 'home'), home, { recursive: true })
      const data = temp(`${c.agent}-data`)
      const api = ownHomeApi(home, data)
      try {
        const files = c.files(home)
        const original = files.map((f) => readFileSync(f))
        const before = await api.getLibrary()
        expect(before.sessions.some((s) => s.agent === c.agent && s.id === c.id)).toBe(true)
        const nodesBefore = (await api.getSession(c.agent, c.id)).nodes.length

        // Off by default: nothing is archived.
        expect((await api.getArchiveStatus()).settings).toMatchObject({ enabled: false, answered: false })
        const homeBefore = tree(home)
        const status = await api.setArchiveSettings({ enabled: true })
        expect(status.settings.enabled).toBe(true)
        expect(status.sessions).toBeGreaterThan(0)
        // The archive read the home and wrote only inside the data folder.
        expect(tree(home)).toEqual(homeBefore)
        expect(existsSync(join(data, 'archive', 'archive.sqlite'))).toBe(true)

        // The agent deletes the session.
        for (const f of files) rmSync(f)
        if (c.agent === 'cline') rmSync(dirname(files[0]!), { recursive: true })
        c.remove?.(home)
        const after = await api.getLibrary({ refresh: true })
        const listed = after.sessions.find((s) => s.agent === c.agent && s.id === c.id)
        expect(listed?.archived).toBeDefined()
        expect(listed!.archived!.agentName).toBe(after.agents.find((a) => a.id === c.agent)!.displayName)
        // Still readable (from the archived copy), with its original paths.
        const read = await api.getSession(c.agent, c.id)
        expect(read.nodes.length).toBe(nodesBefore)
        expect(read.source.files).toEqual(expect.arrayContaining(files))
        // A second refresh keeps it (marked once).
        const again = await api.getLibrary({ refresh: true })
        expect(again.sessions.find((s) => s.id === c.id)?.archived).toBeDefined()
        expect((await api.getArchiveStatus()).goneSessions).toBeGreaterThanOrEqual(1)

        // Put back.
        const put = await api.putBack(c.agent, c.id)
        expect(put.verified).toBe(true)
        expect(put.written.sort()).toEqual([...files].sort())
        files.forEach((f, i) => expect(readFileSync(f).equals(original[i]!)).toBe(true))
        if (c.agent === 'cline') {
          expect(put.rows).toHaveLength(1)
          expect(existsSync(put.rows[0]!.backup!)).toBe(true)
          const db = new Database(join(home, '.cline/data/db/sessions.db'), { readonly: true })
          expect(db.prepare('SELECT count(*) AS n FROM sessions WHERE session_id = ?').get(c.id)).toEqual({ n: 1 })
          db.close()
        }
        const back = await api.getLibrary()
        const row = back.sessions.find((s) => s.agent === c.agent && s.id === c.id)
        expect(row).toBeDefined()
        expect(row!.archived).toBeUndefined()
        expect((await api.getSession(c.agent, c.id)).nodes.length).toBe(nodesBefore)
      } finally {
        await api.library.close()
      }
    }, 60_000)
  }

  it('a deleted session survives a rebuilt catalog (the catalog is a cache; the archive is not)', async () => {
    const home = join(temp('rebuild'), 'home')
    cpSync(join(root, 'fixtures/real/claude-code/home'), home, { recursive: true })
    const data = temp('rebuild-data')
    const id = 'db9d5855-d967-440c-8eac-0e5a668d0e19'
    const file = join(home, '.claude/projects/-home-ana-src-ledger-api', `${id}.jsonl`)
    const prompt = readFileSync(file, 'utf8').split('\n').map((l) => (l ? (JSON.parse(l) as { type?: string; message?: { content?: unknown } }) : {})).find((r) => r.type === 'user' && typeof r.message?.content === 'string')!.message!.content as string
    const firstWord = [...prompt.matchAll(/[A-Za-z]{5,}/g)].map((m) => m[0]).sort((a, b) => b.length - a.length)[0]!
    const first = ownHomeApi(home, data)
    let nodes: number
    try {
      await first.getLibrary()
      await first.setArchiveSettings({ enabled: true })
      nodes = (await first.getSession('claude-code', id)).nodes.length
    } finally {
      await first.library.close()
    }
    rmSync(file)
    for (const f of readdirSync(data)) if (f.startsWith('catalog.sqlite')) rmSync(join(data, f))
    const second = ownHomeApi(home, data)
    try {
      const lib = await second.getLibrary()
      const s = lib.sessions.find((x) => x.id === id)
      expect(s?.archived?.agentName).toBe('Claude Code')
      expect(s?.files).toEqual([file])
      expect((await second.getSession('claude-code', id)).nodes.length).toBe(nodes)
      // Searchable again: a word of its first prompt, read from the raw file before it was deleted.
      await second.library.whenIdle()
      const hits = await second.search(firstWord)
      expect(hits.hits.some((h) => h.sessionId === id)).toBe(true)
    } finally {
      await second.library.close()
    }
  }, 60_000)

  it('a copied home is never archived', async () => {
    const home = join(temp('copied'), 'home')
    cpSync(join(root, 'fixtures/real/claude-code/home'), home, { recursive: true })
    const data = temp('copied-data')
    const api = createApi({ mode: 'browser', version: '0', platform: 'linux', homes: [home], fixturesDir: join(root, 'fixtures'), env: {}, ownHome: temp('own'), appDataDir: data })
    try {
      await api.getLibrary()
      const st = await api.setArchiveSettings({ enabled: true })
      expect(st.sessions).toBe(0)
      expect(st.versions).toBe(0)
    } finally {
      await api.library.close()
    }
  })
})

describe('archive store', () => {
  it('stores a file growing by appends once, not once per version (measured)', async () => {
    const dir = temp('grow')
    const file = join(dir, 'session.jsonl')
    let line = 0
    const lines = (n: number): string => Array.from({ length: n }, () => JSON.stringify({ type: 'assistant', n: line++, text: createHash('sha256').update(String(line)).digest('hex').repeat(4) }) + '\n').join('')
    writeFileSync(file, lines(12_000)) // ~3.4 MB
    const archive = new Archive(temp('grow-data'))
    await archive.setSettings({ enabled: true })
    const ref = { agent: 'claude-code' as const, sessionId: 's1', format: 'claude-code-jsonl', files: [file], size: 0, mtimeMs: 0, home: dir }
    await archive.archive([{ ref }])
    const one = archive.storedBytes()
    for (let i = 0; i < 10; i++) {
      appendFileSync(file, lines(200)) // ~56 KB per append
      utimesSync(file, new Date(), new Date(Date.now() + (i + 1) * 1000))
      await archive.archive([{ ref }])
    }
    const st = archive.status()
    expect(st.versions).toBe(11)
    // 11 full copies would be ~11x; chunks shared by the versions keep it near one copy plus the tails.
    expect(st.rawBytes).toBeGreaterThan(10 * statSync(file).size * 0.9)
    expect(st.storedBytes).toBeLessThan(one * 1.5 + 10 * (CHUNK_BYTES / 2))
    expect(st.storedBytes).toBeLessThan(st.rawBytes / 5)
    // The latest version reads back as the file is now.
    const latest = archive.latestFiles(dir, 'claude-code', 's1')[0]!
    expect((await archive.readVersion(latest.vid)).equals(readFileSync(file))).toBe(true)
    archive.close()
  })

  it('keeps to its size cap, never dropping the latest version of a session', async () => {
    const dir = temp('cap')
    const archive = new Archive(temp('cap-data'))
    const file = join(dir, 'a.jsonl')
    const random = (n: number): string => Array.from({ length: n }, (_, i) => createHash('sha256').update(`${Math.random()}${i}`).digest('hex')).join('\n') + '\n'
    writeFileSync(file, random(40_000)) // ~2.6 MB of incompressible-ish hex
    const ref = { agent: 'claude-code' as const, sessionId: 'a', format: 'x', files: [file], size: 0, mtimeMs: 0, home: dir }
    await archive.setSettings({ enabled: true })
    await archive.archive([{ ref }])
    const first = archive.storedBytes()
    await archive.setSettings({ capBytes: Math.ceil(first * 1.3) })
    // A new version of a different content: the older version goes to make room.
    writeFileSync(file, random(40_000))
    utimesSync(file, new Date(), new Date(Date.now() + 5000))
    await archive.archive([{ ref }])
    expect(archive.storedBytes()).toBeLessThanOrEqual(Math.ceil(first * 1.3))
    const latest = archive.latestFiles(dir, 'claude-code', 'a')[0]!
    expect((await archive.readVersion(latest.vid)).equals(readFileSync(file))).toBe(true)
    // A second session that does not fit is not kept; the first session's copy stays.
    const other = join(dir, 'b.jsonl')
    writeFileSync(other, random(40_000))
    const r = await archive.archive([{ ref: { ...ref, sessionId: 'b', files: [other] } }])
    expect(r.skippedForCap).toBe(1)
    expect(archive.storedBytes()).toBeLessThanOrEqual(Math.ceil(first * 1.3))
    expect(archive.latestFiles(dir, 'claude-code', 'a')).toHaveLength(1)
    archive.close()
  })

  it('leaves out excluded agents and project folders', async () => {
    const dir = temp('exclude')
    const archive = new Archive(temp('exclude-data'))
    await archive.setSettings({ enabled: true, excludedAgents: ['codex'], excludedProjects: [join(dir, 'secret')] })
    expect(archive.allows('codex', undefined)).toBe(false)
    expect(archive.allows('claude-code', join(dir, 'secret'))).toBe(false)
    expect(archive.allows('claude-code', join(dir, 'secret', 'sub'))).toBe(false)
    expect(archive.allows('claude-code', join(dir, 'secretive'))).toBe(true)
    const file = join(dir, 'x.jsonl')
    writeFileSync(file, '{}\n')
    const ref = { agent: 'claude-code' as const, sessionId: 'x', format: 'x', files: [file], size: 0, mtimeMs: 0, home: dir }
    await archive.archive([{ ref, project: join(dir, 'secret') }, { ref: { ...ref, agent: 'codex', sessionId: 'y' } }])
    expect(archive.status().sessions).toBe(0)
    await archive.archive([{ ref, project: join(dir, 'open') }])
    expect(archive.status().sessions).toBe(1)
    archive.close()
  })

  it('snapshots a SQLite store without writing beside it', async () => {
    const dir = temp('sqlite')
    const path = join(dir, 'state.db')
    const db = new Database(path)
    db.pragma('journal_mode = WAL')
    db.exec('CREATE TABLE t (x TEXT); INSERT INTO t VALUES (\'one\'), (\'two\')')
    // Kept open: the WAL is not checkpointed into the main file.
    const listing = readdirSync(dir).sort()
    const archive = new Archive(temp('sqlite-data'))
    await archive.setSettings({ enabled: true })
    await archive.archive([{ ref: { agent: 'cline', sessionId: 's', format: 'x', files: [path], size: 0, mtimeMs: 0, home: dir } }])
    expect(readdirSync(dir).sort()).toEqual(listing)
    const v = archive.latestFiles(dir, 'cline', 's')[0]!
    expect(v.kind).toBe('sqlite')
    const out = join(temp('sqlite-out'), 'copy.db')
    writeFileSync(out, await archive.readVersion(v.vid))
    const copy = new Database(out, { readonly: true })
    expect(copy.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 })
    copy.close()
    db.close()
    archive.close()
  })
})
