/**
 * Issue 19 "Move to another machine or folder": a session bundled from a Linux home (copies of
 * fixtures/real/{claude-code,codex}/home, written by the real CLIs) and installed into a temporary
 * home under a Windows-style and a macOS-style project path. Every assertion reads the written
 * files (and the SQLite rows) directly, not through Sepia's readers.
 */
import Database from 'better-sqlite3'
import { randomUUID } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findAppRoot } from '../context'
import { agentById } from '../agents/registry'
import { gatherMoveBundle, readMoveBundle, writeMoveBundle } from '../bundle/move'
import { MOVE_BUNDLE_FORMAT } from '../bundle/manifest'
import { layoutForHome } from '../platform'
import { prepareHome } from '../bundle/open'
import { installMoveBundle } from './install'
import { moveSession } from './move'

const ROOT = findAppRoot()
const ctx = { now: () => Date.parse('2026-12-02T01:00:00Z') }
const CLAUDE_ID = '168ccd27-38fe-4712-8b25-f636c48dc3b8' // with a sub-agent
const CLAUDE_WITH_HISTORY = 'c79310a4-1627-4beb-8788-81d2e0fc6af8' // with a file-history backup
const CODEX_PARENT = '01a22b43-6b09-7800-96fe-2a36e38883b0'
const CODEX_CHILD = '01a22b43-6bcd-7da0-8247-df42e6519832'
const SRC_PROJECT_CLAUDE = '/home/ana/src/ledger-api'
const SRC_PROJECT_CODEX = '/home/ana/src/csv-tools'

function temp(name: string): string {
  return mkdtempSync(join(tmpdir(), `sepia-move-${name}-`))
}

function copyHome(agent: 'claude-code' | 'codex'): string {
  const home = temp(`src-${agent}`)
  cpSync(join(ROOT, 'fixtures/real', agent, 'home'), home, { recursive: true })
  return home
}

/** The records of a JSONL file, parsed here (lines that are not JSON are left out). */
function records(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

/** Every `cwd` value anywhere in a record. */
function cwds(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => cwds(x, out))
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === 'cwd' && typeof x === 'string' ? out.push(x) : cwds(x, out)
  return out
}

async function bundleThroughZip(home: string, agent: 'claude-code' | 'codex', id: string) {
  const layout = await layoutForHome({ home })
  const bundle = await gatherMoveBundle({ layout, agent: agentById(agent), sessionId: id, ctx, createdBy: 'Sepia test' })
  const zip = join(temp('zip'), 'session.zip')
  await writeMoveBundle(bundle, zip)
  return readMoveBundle(zip, temp('unzipped'))
}

describe('move bundle: Claude Code', () => {
  it('records the agent, id, project path and path style, and keeps the content as it is', async () => {
    const home = copyHome('claude-code')
    const bundle = await bundleThroughZip(home, 'claude-code', CLAUDE_ID)
    expect(bundle.manifest.format).toBe(MOVE_BUNDLE_FORMAT)
    expect(bundle.manifest.move).toMatchObject({ agent: 'claude-code', sessionId: CLAUDE_ID, projectPath: SRC_PROJECT_CLAUDE, pathStyle: 'posix', secretsIncluded: true, subagentIds: ['a3f2b5aeb6dc75f4e'] })
    const paths = bundle.files.map((f) => f.path).sort()
    expect(paths).toEqual([
      `.claude/projects/-home-ana-src-ledger-api/${CLAUDE_ID}.jsonl`,
      `.claude/projects/-home-ana-src-ledger-api/${CLAUDE_ID}/subagents/agent-a3f2b5aeb6dc75f4e.jsonl`,
      `.claude/projects/-home-ana-src-ledger-api/${CLAUDE_ID}/subagents/agent-a3f2b5aeb6dc75f4e.meta.json`,
    ])
    const raw = readFileSync(join(home, `.claude/projects/-home-ana-src-ledger-api/${CLAUDE_ID}.jsonl`))
    expect(bundle.files.find((f) => f.path.endsWith(`${CLAUDE_ID}.jsonl`))!.bytes.equals(raw)).toBe(true)
  })

  for (const [style, os, project, folder] of [
    ['Windows', 'win32', 'C:\\Users\\ana\\src\\ledger-api', 'C--Users-ana-src-ledger-api'],
    ['macOS', 'darwin', '/Users/ana/src/ledger-api', '-Users-ana-src-ledger-api'],
  ] as const) {
    it(`installs into a ${style} home: encoded folder, every cwd, the sub-agent`, async () => {
      const src = copyHome('claude-code')
      const bundle = await bundleThroughZip(src, 'claude-code', CLAUDE_ID)
      const target = temp(`dst-${os}`)
      const layout = await layoutForHome({ home: target, os })
      const r = await installMoveBundle({ bundle, layout, project, now: ctx.now, newId: randomUUID, ctx })
      expect(r.sessionId).toBe(CLAUDE_ID)
      expect(readdirSync(join(target, '.claude/projects'))).toEqual([folder])
      const main = join(target, '.claude/projects', folder, `${CLAUDE_ID}.jsonl`)
      const before = records(join(src, `.claude/projects/-home-ana-src-ledger-api/${CLAUDE_ID}.jsonl`))
      const after = records(main)
      expect(after.length).toBe(before.length)
      const all = after.flatMap((rec) => cwds(rec))
      expect(all.length).toBe(before.flatMap((rec) => cwds(rec)).length)
      expect(all.length).toBeGreaterThan(0)
      expect(new Set(all)).toEqual(new Set([project]))
      // Nothing else changed: each record equals the source's with its cwd put back.
      for (const [i, rec] of after.entries()) expect({ ...rec, ...(rec.cwd ? { cwd: SRC_PROJECT_CLAUDE } : {}) }).toEqual(before[i])
      const sub = join(target, '.claude/projects', folder, CLAUDE_ID, 'subagents/agent-a3f2b5aeb6dc75f4e.jsonl')
      expect(new Set(records(sub).flatMap((rec) => cwds(rec)))).toEqual(new Set([project]))
      expect(r.readBack.messages).toBe(r.readBack.expectedMessages)
    })
  }

  it('carries the file history; the backup keeps its bytes and its realParentDir follows the project', async () => {
    const src = copyHome('claude-code')
    const bundle = await bundleThroughZip(src, 'claude-code', CLAUDE_WITH_HISTORY)
    const target = temp('dst-history')
    const project = 'C:\\Users\\ana\\src\\ledger-api'
    await installMoveBundle({ bundle, layout: await layoutForHome({ home: target, os: 'win32' }), project, now: ctx.now, newId: randomUUID, ctx })
    const name = '657b1f1da8359986@v2'
    expect(readFileSync(join(target, '.claude/file-history', CLAUDE_WITH_HISTORY, name)).equals(readFileSync(join(src, '.claude/file-history', CLAUDE_WITH_HISTORY, name)))).toBe(true)
    const snaps = records(join(target, '.claude/projects/C--Users-ana-src-ledger-api', `${CLAUDE_WITH_HISTORY}.jsonl`)).filter((x) => x.type === 'file-history-snapshot')
    const dirs = snaps.flatMap((x) => Object.values((x.snapshot as { trackedFileBackups: Record<string, { realParentDir?: string }> }).trackedFileBackups).map((b) => b.realParentDir))
    expect(dirs.length).toBeGreaterThan(0)
    expect(new Set(dirs)).toEqual(new Set([project]))
  })

  it('opens as a home too (the drop of the zip): the session is readable and named as a session bundle', async () => {
    const src = copyHome('claude-code')
    const layout = await layoutForHome({ home: src })
    const zip = join(temp('zip'), 'session.zip')
    await writeMoveBundle(await gatherMoveBundle({ layout, agent: agentById('claude-code'), sessionId: CLAUDE_ID, ctx, createdBy: 'Sepia test' }), zip)
    const prepared = await prepareHome(zip, temp('appdata'))
    expect(prepared.diagnostics).toEqual([])
    expect(prepared.openedFrom?.sessionBundle).toEqual({ agent: 'claude-code', sessionId: CLAUDE_ID, projectPath: SRC_PROJECT_CLAUDE })
    expect(readFileSync(join(prepared.home, `.claude/projects/-home-ana-src-ledger-api/${CLAUDE_ID}.jsonl`)).equals(readFileSync(join(src, `.claude/projects/-home-ana-src-ledger-api/${CLAUDE_ID}.jsonl`)))).toBe(true)
  })

  it('refuses a project path of another OS than the home, writing nothing', async () => {
    const bundle = await bundleThroughZip(copyHome('claude-code'), 'claude-code', CLAUDE_ID)
    const target = temp('dst-refuse')
    await expect(installMoveBundle({ bundle, layout: await layoutForHome({ home: target, os: 'linux' }), project: 'C:\\x', now: ctx.now, newId: randomUUID, ctx })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    expect(existsSync(join(target, '.claude'))).toBe(false)
  })

  it('moves on the same machine: the copy gets a new id, the original stays; with removeOriginal it goes into a backup bundle', async () => {
    const home = copyHome('claude-code')
    const layout = await layoutForHome({ home })
    const original = join(home, `.claude/projects/-home-ana-src-ledger-api/${CLAUDE_ID}.jsonl`)
    const kept = await moveSession({ layout, agent: agentById('claude-code'), sessionId: CLAUDE_ID, toProject: '/home/ana/work/ledger-api', appDataDir: temp('data'), ctx, now: ctx.now, newId: randomUUID, createdBy: 'Sepia test' })
    expect(kept.install.sessionId).not.toBe(CLAUDE_ID)
    expect(existsSync(original)).toBe(true)
    const copy = join(home, '.claude/projects/-home-ana-work-ledger-api', `${kept.install.sessionId}.jsonl`)
    const recs = records(copy)
    expect(new Set(recs.flatMap((r) => cwds(r)))).toEqual(new Set(['/home/ana/work/ledger-api']))
    expect(recs.filter((r) => typeof r.sessionId === 'string').every((r) => r.sessionId === kept.install.sessionId)).toBe(true)
    expect(readFileSync(copy, 'utf8')).not.toContain(CLAUDE_ID)

    const data = temp('data2')
    const moved = await moveSession({ layout, agent: agentById('claude-code'), sessionId: CLAUDE_ID, toProject: '/home/ana/other/ledger-api', removeOriginal: true, appDataDir: data, ctx, now: ctx.now, newId: randomUUID, createdBy: 'Sepia test' })
    expect(existsSync(original)).toBe(false)
    expect(existsSync(join(home, `.claude/projects/-home-ana-src-ledger-api/${CLAUDE_ID}`))).toBe(false)
    expect(moved.original.backup?.startsWith(join(data, 'moved'))).toBe(true)
    // The backup is a bundle that installs again, byte for byte the original transcript.
    const back = await readMoveBundle(moved.original.backup!, temp('back'))
    expect(back.files.find((f) => f.path.endsWith(`${CLAUDE_ID}.jsonl`))!.bytes.length).toBeGreaterThan(0)
  })
})

describe('move bundle: Codex', () => {
  /** A target home whose `state_5.sqlite` is the fixture's schema with no threads (Codex has run there). */
  function codexTarget(name: string): string {
    const home = temp(name)
    mkdirSync(join(home, '.codex'), { recursive: true })
    cpSync(join(ROOT, 'fixtures/real/codex/home/.codex/state_5.sqlite'), join(home, '.codex/state_5.sqlite'))
    const db = new Database(join(home, '.codex/state_5.sqlite'))
    db.exec('DELETE FROM thread_spawn_edges; DELETE FROM threads;')
    db.close()
    return home
  }

  it('bundles the thread, its sub-agent thread and their index rows', async () => {
    const bundle = await bundleThroughZip(copyHome('codex'), 'codex', CODEX_PARENT)
    expect(bundle.manifest.move.subagentIds).toEqual([CODEX_CHILD])
    expect(bundle.files.map((f) => f.path).sort()).toEqual([
      `.codex/sessions/2026/11/30/rollout-2026-11-30T07-02-48-${CODEX_PARENT}.jsonl`,
      `.codex/sessions/2026/11/30/rollout-2026-11-30T07-02-48-${CODEX_CHILD}.jsonl`,
    ])
    expect(bundle.manifest.move.indexRows?.threads?.map((r) => r.id).sort()).toEqual([CODEX_PARENT, CODEX_CHILD])
    expect(bundle.manifest.move.indexRows?.thread_spawn_edges?.length).toBe(1)
  })

  // Codex records a command's cwd as a file URL too (`item_completed` CommandExecution).
  for (const [style, os, project, url] of [
    ['Windows', 'win32', 'C:\\Users\\ana\\src\\csv-tools', 'file:///C:/Users/ana/src/csv-tools'],
    ['macOS', 'darwin', '/Users/ana/src/csv-tools', 'file:///Users/ana/src/csv-tools'],
  ] as const) {
    it(`installs into a ${style} home: every cwd, the threads rows and the spawn edge`, async () => {
      const src = copyHome('codex')
      const bundle = await bundleThroughZip(src, 'codex', CODEX_PARENT)
      const target = codexTarget(`dst-codex-${os}`)
      const r = await installMoveBundle({ bundle, layout: await layoutForHome({ home: target, os }), project, now: ctx.now, newId: randomUUID, ctx })
      expect(r.sessionId).toBe(CODEX_PARENT)
      expect(r.backups).toHaveLength(1)
      for (const id of [CODEX_PARENT, CODEX_CHILD]) {
        const name = `rollout-2026-11-30T07-02-48-${id}.jsonl`
        const after = records(join(target, '.codex/sessions/2026/11/30', name))
        const before = records(join(src, '.codex/sessions/2026/11/30', name))
        expect(after.length).toBe(before.length)
        const all = after.flatMap((rec) => cwds(rec))
        expect(all.length).toBe(before.flatMap((rec) => cwds(rec)).length)
        expect(all.filter((c) => c !== project && c !== url)).toEqual([])
        expect(all).toContain(project)
        const meta = after.find((x) => x.type === 'session_meta')!.payload as { runtime_workspace_roots?: string[] }
        if (meta.runtime_workspace_roots) expect(meta.runtime_workspace_roots).toEqual([project])
        const text = readFileSync(join(target, '.codex/sessions/2026/11/30', name), 'utf8')
        expect(text).not.toContain(`<cwd>${SRC_PROJECT_CODEX}</cwd>`)
      }
      const db = new Database(join(target, '.codex/state_5.sqlite'), { readonly: true })
      const rows = db.prepare('SELECT id, cwd, rollout_path, source FROM threads ORDER BY id').all() as { id: string; cwd: string; rollout_path: string; source: string }[]
      const edges = db.prepare('SELECT parent_thread_id, child_thread_id FROM thread_spawn_edges').all()
      db.close()
      expect(rows.map((x) => [x.id, x.cwd, x.rollout_path])).toEqual([CODEX_PARENT, CODEX_CHILD].map((id) => [id, project, join(target, '.codex/sessions/2026/11/30', `rollout-2026-11-30T07-02-48-${id}.jsonl`)]))
      expect(JSON.parse(rows[1]!.source).subagent.thread_spawn.parent_thread_id).toBe(CODEX_PARENT)
      expect(edges).toEqual([{ parent_thread_id: CODEX_PARENT, child_thread_id: CODEX_CHILD }])
    })
  }

  it('moves on the same machine with removeOriginal: new ids everywhere, the original rows gone after a backup', async () => {
    const home = copyHome('codex')
    const layout = await layoutForHome({ home })
    const r = await moveSession({ layout, agent: agentById('codex'), sessionId: CODEX_PARENT, toProject: '/home/ana/work/csv-tools', removeOriginal: true, appDataDir: temp('data'), ctx, now: ctx.now, newId: randomUUID, createdBy: 'Sepia test' })
    const newParent = r.install.sessionId
    const newChild = r.install.subagentIds[0]!
    expect(newParent).not.toBe(CODEX_PARENT)
    expect(r.original.removed).toHaveLength(2)
    expect(r.original.databaseBackups).toHaveLength(1)
    const db = new Database(join(home, '.codex/state_5.sqlite'), { readonly: true })
    const ids = (db.prepare('SELECT id FROM threads').all() as { id: string }[]).map((x) => x.id)
    const edge = db.prepare('SELECT parent_thread_id FROM thread_spawn_edges WHERE child_thread_id = ?').get(newChild) as { parent_thread_id: string }
    db.close()
    expect(ids).toContain(newParent)
    expect(ids).toContain(newChild)
    expect(ids).not.toContain(CODEX_PARENT)
    expect(ids).not.toContain(CODEX_CHILD)
    expect(edge.parent_thread_id).toBe(newParent)
    const child = readdirSync(join(home, '.codex/sessions/2026/11/30')).find((n) => n.includes(newChild))!
    const meta = records(join(home, '.codex/sessions/2026/11/30', child)).find((x) => x.type === 'session_meta')!.payload as Record<string, unknown>
    expect(meta.id).toBe(newChild)
    expect(JSON.stringify(meta)).toContain(newParent)
  })
})

describe('move bundle: Cline CLI 3 (SDK store)', () => {
  const CLINE_ID = '1796022193411_yw3k7' // with a sub-agent
  const SUB = `${CLINE_ID}__agent_1796022194075_qt5odd`
  function copyCline(): string {
    const home = temp('src-cline')
    cpSync(join(ROOT, 'fixtures/real/cline/home'), home, { recursive: true })
    return home
  }

  for (const [style, os, project] of [
    ['Windows', 'win32', 'C:\\Users\\ana\\src\\invoice-service'],
    ['macOS', 'darwin', '/Users/ana/src/invoice-service'],
  ] as const) {
    it(`installs into a ${style} home: manifest, messages path, the sessions rows of the session and its sub-agent`, async () => {
      const src = copyCline()
      const layout = await layoutForHome({ home: src })
      const bundle = await gatherMoveBundle({ layout, agent: agentById('cline'), sessionId: CLINE_ID, ctx, createdBy: 'Sepia test' })
      expect(bundle.manifest.move.indexRows?.sessions?.map((r) => r.session_id).sort()).toEqual([CLINE_ID, SUB])
      const zip = join(temp('zip'), 'cline.zip')
      await writeMoveBundle(bundle, zip)
      const fromZip = await readMoveBundle(zip, temp('unzipped'))
      const target = temp(`dst-cline-${os}`)
      const r = await installMoveBundle({ bundle: fromZip, layout: await layoutForHome({ home: target, os }), project, now: ctx.now, newId: randomUUID, ctx })
      expect(r.sessionId).toBe(CLINE_ID)
      expect(r.resumeCommand).toBe(`cline --id ${CLINE_ID}`)
      const dir = join(target, '.cline/data/sessions', CLINE_ID)
      expect(readdirSync(dir).sort()).toEqual(readdirSync(join(src, '.cline/data/sessions', CLINE_ID)).sort())
      const manifest = JSON.parse(readFileSync(join(dir, `${CLINE_ID}.json`), 'utf8')) as Record<string, unknown>
      expect(manifest.cwd).toBe(project)
      expect(manifest.workspace_root).toBe(project)
      expect(manifest.messages_path).toBe(join(dir, `${CLINE_ID}.messages.json`))
      const db = new Database(join(target, '.cline/data/db/sessions.db'), { readonly: true })
      const rows = db.prepare('SELECT session_id, parent_session_id, cwd, workspace_root, messages_path FROM sessions ORDER BY session_id').all() as Record<string, string | null>[]
      db.close()
      expect(rows).toEqual([
        { session_id: CLINE_ID, parent_session_id: null, cwd: project, workspace_root: project, messages_path: join(dir, `${CLINE_ID}.messages.json`) },
        { session_id: SUB, parent_session_id: CLINE_ID, cwd: project, workspace_root: project, messages_path: join(dir, 'agent_1796022194075_qt5odd.messages.json') },
      ])
    })
  }

  it('moves on the same machine with removeOriginal: a new id, the original rows and folder gone after a backup', async () => {
    const home = copyCline()
    const layout = await layoutForHome({ home })
    const r = await moveSession({ layout, agent: agentById('cline'), sessionId: CLINE_ID, toProject: '/home/ana/work/invoice-service', removeOriginal: true, appDataDir: temp('data'), ctx, now: ctx.now, newId: randomUUID, createdBy: 'Sepia test' })
    const id = r.install.sessionId
    expect(id).not.toBe(CLINE_ID)
    expect(existsSync(join(home, '.cline/data/sessions', CLINE_ID))).toBe(false)
    const db = new Database(join(home, '.cline/data/db/sessions.db'), { readonly: true })
    const rows = db.prepare('SELECT session_id, parent_session_id, cwd FROM sessions WHERE session_id LIKE ? OR session_id LIKE ?').all(`${CLINE_ID}%`, `${id}%`) as Record<string, string | null>[]
    db.close()
    expect(rows.map((x) => [x.session_id, x.parent_session_id, x.cwd]).sort()).toEqual([
      [id, null, '/home/ana/work/invoice-service'],
      [`${id}__agent_1796022194075_qt5odd`, id, '/home/ana/work/invoice-service'],
    ])
    const manifest = JSON.parse(readFileSync(join(home, '.cline/data/sessions', id, `${id}.json`), 'utf8')) as Record<string, unknown>
    expect(manifest.session_id).toBe(id)
    expect(manifest.cwd).toBe('/home/ana/work/invoice-service')
  })
})
