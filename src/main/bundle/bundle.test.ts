/**
 * Review bundles: collecting fixture homes into a folder and a zip, opening them as homes with
 * the same sessions, exclusions and credentials, SQLite snapshots, a Windows profile keeping its
 * layout, faults and cancels leaving nothing behind, and the source homes left untouched.
 */
import Database from 'better-sqlite3'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Library } from '../../shared/api'
import { AGENTS } from '../agents/registry'
import { createApi } from '../api'
import { findAppRoot, type AppContext } from '../context'
import { detectHomeOs, layoutForHome } from '../platform'
import { openSqliteReadOnly } from '../util/sqlite'
import { snapshotTree } from '../../../tests/helpers/snapshot'
import { collectForReview, type CollectOptions } from './collect'
import { MANIFEST_NAME, type BundleManifest } from './manifest'
import { readZipDirectory } from './zip'
import { writeMainHome, writeWalHome, writeWindowsHome } from '../../../tests/builders/devin/fixtures-homes'
import { writeCursorHome } from '../../../tests/builders/cursor/fixtures-old'
import { writeAgentHome } from '../../../tests/builders/cursor-agent/fixtures-home'

const ROOT = findAppRoot()
const CC = join(ROOT, 'fixtures/real/claude-code/home')
const CLINE = join(ROOT, 'fixtures/real/cline/home')
const LEGACY = join(ROOT, 'fixtures/real/cline-legacy/home')
const ctx = { now: () => 1_800_000_000_000 }
const tmp = (name: string) => mkdtempSync(join(tmpdir(), `sepia-bundle-${name}-`))

async function collect(homes: string[], over: Partial<CollectOptions> & { outPath: string }) {
  const layouts = await Promise.all(homes.map((home) => layoutForHome({ home })))
  return collectForReview({ layouts, target: 'folder', agents: AGENTS, ctx, createdBy: 'Sepia test', ...over })
}

function context(over: Partial<AppContext> = {}): AppContext {
  return {
    mode: 'browser',
    version: '0.0.0-test',
    platform: 'linux',
    homes: [],
    fixturesDir: join(ROOT, 'fixtures'),
    env: {},
    ownHome: tmp('own'),
    appDataDir: tmp('appdata'),
    now: () => 1_800_000_000_000,
    ...over,
  }
}

/** What must match between a home and its bundle: per session, what the library shows. */
function sessionsOf(lib: Library) {
  return lib.sessions
    .map((s) => ({ key: `${s.agent}/${s.id}`, title: s.title, project: s.workingDirectory, messages: s.messageCount, tools: s.toolCallCount, parent: s.parentSessionId, firstPrompt: s.firstPrompt }))
    .sort((a, b) => (a.key < b.key ? -1 : 1))
}

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, MANIFEST_NAME), 'utf8')) as BundleManifest

describe('collect for review', () => {
  it('copies the stores of two homes into a folder with a manifest, leaving out scratch, locks and credentials', async () => {
    const before = { cc: snapshotTree(CC), cline: snapshotTree(CLINE) }
    const out = join(tmp('folder'), 'bundle')
    const progress: [number, number, string][] = []
    const r = await collect([CC, CLINE], { outPath: out, onProgress: (d, t, p) => progress.push([d, t, p]) })
    const m = manifestOf(out)
    const paths = m.files.map((f) => f.path)
    expect(r).toMatchObject({ path: out, files: m.files.length, manifestPath: join(out, MANIFEST_NAME), credentialsLeftOut: 2 })
    expect(m).toMatchObject({ format: 'sepia-review-bundle', version: 1, createdAt: 1_800_000_000_000, createdBy: 'Sepia test', sourceOs: 'linux', sourceHomes: [CC, CLINE], includeCredentials: false })
    for (const p of [
      '.claude/projects/-home-ana-src-ledger-api/c79310a4-1627-4beb-8788-81d2e0fc6af8.jsonl',
      '.claude/projects/-home-ana-src-ledger-api/168ccd27-38fe-4712-8b25-f636c48dc3b8/subagents/agent-a3f2b5aeb6dc75f4e.jsonl',
      '.claude/file-history/c79310a4-1627-4beb-8788-81d2e0fc6af8/657b1f1da8359986@v2',
      '.claude/history.jsonl',
      '.cline/data/sessions/1796022183774_v75nv/1796022183774_v75nv.json',
      '.cline/data/sessions/1796022183774_v75nv/1796022183774_v75nv.messages.json',
      '.cline/data/db/sessions.db',
      '.cline/data/db/session-search.db',
      '.cline/data/cache/user_input_history.jsonl',
      '.cline/data/logs/hooks.jsonl',
    ]) expect(paths).toContain(p)
    // Seed 000 "Exclusions", locks, settings and credential files stay out.
    expect(paths.filter((p) => /checkpoint-scratch|locks|providers\.json|settings\.json|backups/.test(p))).toEqual([])
    expect(existsSync(join(out, '.cline/data/settings/providers.json'))).toBe(false)
    // Every entry: agent, size, sha256 and mtime of the copy.
    const entry = m.files.find((f) => f.path.endsWith('c79310a4-1627-4beb-8788-81d2e0fc6af8.jsonl'))!
    expect(entry.agent).toBe('claude-code')
    expect(entry.size).toBe(readFileSync(join(CC, entry.path)).length)
    expect(entry.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(m.files.find((f) => f.path === '.cline/data/db/sessions.db')!.agent).toBe('cline')
    expect(progress.at(-1)).toEqual([m.files.length, m.files.length, 'copy'])
    // The sources are unchanged.
    expect(snapshotTree(CC)).toEqual(before.cc)
    expect(snapshotTree(CLINE)).toEqual(before.cline)
  })

  it('opens as a home with the same sessions, from the folder and from the zip', async () => {
    const dir = tmp('same')
    const folder = join(dir, 'bundle')
    const zip = join(dir, 'bundle.zip')
    await collect([CC, CLINE], { outPath: folder })
    const z = await collect([CC, CLINE], { outPath: zip, target: 'zip' })
    expect(z.manifestPath).toBe(MANIFEST_NAME)
    expect((await readZipDirectory(zip)).map((e) => e.name)).toContain(MANIFEST_NAME)

    const original = sessionsOf(await createApi(context({ homes: [CC, CLINE] })).getLibrary())
    expect(original.length).toBeGreaterThanOrEqual(11)
    const api = createApi(context())
    const fromFolder = await api.openHome(folder)
    expect(sessionsOf(fromFolder)).toEqual(original)
    expect(fromFolder.homes[0]).toMatchObject({ path: folder, os: 'linux', openedFrom: { kind: 'bundle-folder', path: folder, createdAt: 1_800_000_000_000, sourceOs: 'linux' } })
    expect(fromFolder.diagnostics.filter((d) => /manifest/.test(d.message))).toEqual([])

    const fromZip = await api.openHome(zip)
    expect(sessionsOf(fromZip)).toEqual(original)
    expect(fromZip.homes[0]!.openedFrom).toMatchObject({ kind: 'zip', path: zip, sourceOs: 'linux' })
    expect(fromZip.diagnostics.filter((d) => /manifest/.test(d.message))).toEqual([])
    const session = await api.getSession('claude-code', 'c79310a4-1627-4beb-8788-81d2e0fc6af8')
    expect(session.nodes[0]!.content).toContain('List the files, then create NOTES.md')
    // Opening the same zip again reuses the extraction; the recent list remembers both.
    expect(sessionsOf(await api.openHome(zip))).toEqual(original)
    expect((await api.getRecentHomes()).map((h) => [h.path, h.kind])).toEqual([
      [zip, 'zip'],
      [folder, 'folder'],
    ])
  })

  it('every demo home (each agent) opens from its bundle with the same sessions', async () => {
    for (const agent of readdirSync(join(ROOT, 'fixtures/real'))) {
      const home = join(ROOT, 'fixtures/real', agent, 'home')
      if (!existsSync(home)) continue
      const out = join(tmp(`each-${agent}`), 'bundle')
      await collect([home], { outPath: out })
      const original = sessionsOf(await createApi(context({ homes: [home] })).getLibrary())
      expect(original.length, agent).toBeGreaterThan(0)
      expect(sessionsOf(await createApi(context()).openHome(out)), agent).toEqual(original)
    }
  })

  it('generated Devin, Cursor and Cursor agent homes (Linux and Windows) open from their bundles with the same sessions', async () => {
    const writers: [string, (home: string) => void][] = [
      ['devin', writeMainHome],
      ['devin-wal', writeWalHome],
      ['devin-windows', writeWindowsHome],
      ['cursor', (h) => writeCursorHome(h)],
      ['cursor-windows', (h) => writeCursorHome(h, 'win32')],
      ['cursor-agent', writeAgentHome],
    ]
    for (const [name, write] of writers) {
      const home = tmp(`gen-${name}`)
      write(home)
      const original = sessionsOf(await createApi(context({ homes: [home] })).getLibrary())
      expect(original.length, name).toBeGreaterThan(0)
      const zip = join(tmp(`gen-${name}-out`), 'bundle.zip')
      await collect([home], { outPath: zip, target: 'zip' })
      const lib = await createApi(context()).openHome(zip)
      expect(sessionsOf(lib), name).toEqual(original)
      expect(lib.homes[0]!.os, name).toBe(name.endsWith('windows') ? 'win32' : 'linux')
    }
  })

  it('reports files changed after the bundle was made', async () => {
    const folder = join(tmp('tamper'), 'bundle')
    await collect([CC], { outPath: folder })
    const victim = join(folder, '.claude/history.jsonl')
    writeFileSync(victim, readFileSync(victim, 'utf8') + '{"tampered":true}\n')
    const lib = await createApi(context()).openHome(folder)
    const d = lib.diagnostics.filter((x) => /differs from the bundle's manifest/.test(x.message))
    expect(d.map((x) => x.path)).toEqual([victim])
  })

  it('copies credential files only when asked, and marks them', async () => {
    const out = join(tmp('creds'), 'bundle')
    const r = await collect([CLINE, LEGACY], { outPath: out, includeCredentials: true })
    const creds = manifestOf(out).files.filter((f) => f.credential)
    expect(creds.map((f) => f.path).sort()).toEqual(['.cline/data/db/connectors.db', '.cline/data/secrets.json', '.cline/data/settings/cline_mcp_settings.json', '.cline/data/settings/providers.json'])
    expect(creds.every((f) => f.agent === 'cline')).toBe(true)
    expect(r.credentialsLeftOut).toBe(0)
    const without = await collect([CLINE, LEGACY], { outPath: join(tmp('nocreds'), 'bundle') })
    expect(without.credentialsLeftOut).toBe(4)
  })

  it('copies a SQLite database with its -wal file as one snapshot', async () => {
    const home = tmp('wal')
    const dbDir = join(home, '.cline/data/db')
    mkdirSync(dbDir, { recursive: true })
    const db = new Database(join(dbDir, 'sessions.db'))
    db.pragma('journal_mode = WAL')
    db.pragma('wal_autocheckpoint = 0')
    db.exec('CREATE TABLE t (x TEXT)')
    db.prepare('INSERT INTO t VALUES (?)').run('only in the wal')
    try {
      expect(existsSync(join(dbDir, 'sessions.db-wal'))).toBe(true)
      const out = join(tmp('walout'), 'bundle')
      await collect([home], { outPath: out })
      const paths = manifestOf(out).files.map((f) => f.path)
      expect(paths).toEqual(expect.arrayContaining(['.cline/data/db/sessions.db', '.cline/data/db/sessions.db-wal']))
      const copy = openSqliteReadOnly(join(out, '.cline/data/db/sessions.db'))
      try {
        expect(copy.db.prepare('SELECT x FROM t').all()).toEqual([{ x: 'only in the wal' }])
      } finally {
        copy.close()
      }
    } finally {
      db.close()
    }
  })

  it('a Windows profile keeps its Windows layout and opens as a Windows home', async () => {
    const profile = tmp('winprofile')
    const ext = join(profile, 'AppData/Roaming/Code/User/globalStorage/saoudrizwan.claude-dev')
    cpSync(join(LEGACY, '.cline/data/tasks'), join(ext, 'tasks'), { recursive: true })
    cpSync(join(LEGACY, '.cline/data/state'), join(ext, 'state'), { recursive: true })
    mkdirSync(join(ext, 'checkpoints/123'), { recursive: true })
    writeFileSync(join(ext, 'checkpoints/123/HEAD'), 'ref: refs/heads/main\n')
    writeFileSync(join(ext, 'secrets.json'), '{"apiKey":"x"}')
    mkdirSync(join(profile, 'AppData/Local/Temp'), { recursive: true })
    writeFileSync(join(profile, 'AppData/Local/Temp/junk.txt'), 'junk')
    writeFileSync(join(profile, 'NTUSER.DAT'), '')
    cpSync(join(CC, '.claude'), join(profile, '.claude'), { recursive: true })
    expect(detectHomeOs(profile)).toBe('win32')

    const zip = join(tmp('winzip'), 'profile.zip')
    await collect([profile], { outPath: zip, target: 'zip' })
    const names = (await readZipDirectory(zip)).map((e) => e.name)
    expect(names).toContain('AppData/Roaming/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1796022253554/ui_messages.json')
    expect(names).toContain('AppData/Roaming/Code/User/globalStorage/saoudrizwan.claude-dev/state/taskHistory.json')
    expect(names.filter((n) => /checkpoints|secrets|Temp|NTUSER/.test(n))).toEqual([])

    const lib = await createApi(context()).openHome(zip)
    expect(lib.homes[0]!.os).toBe('win32')
    expect(detectHomeOs(lib.homes[0]!.path)).toBe('win32')
    expect(lib.homes[0]!.openedFrom).toMatchObject({ kind: 'zip', sourceOs: 'win32' })
    const ids = lib.sessions.map((s) => `${s.agent}/${s.id}`)
    expect(ids).toEqual(expect.arrayContaining(['cline/1796022253554', 'cline/1796022270019', 'cline/1796022286548', 'claude-code/c79310a4-1627-4beb-8788-81d2e0fc6af8']))
  })
})

describe('collect safety', () => {
  it('refuses a target that exists, or one inside a store it collects', async () => {
    const dir = tmp('exists')
    mkdirSync(join(dir, 'full'))
    writeFileSync(join(dir, 'full', 'mine.txt'), 'mine')
    writeFileSync(join(dir, 'old.zip'), 'mine')
    await expect(collect([CC], { outPath: join(dir, 'full') })).rejects.toMatchObject({ code: 'ALREADY_EXISTS' })
    await expect(collect([CC], { outPath: join(dir, 'old.zip'), target: 'zip' })).rejects.toMatchObject({ code: 'ALREADY_EXISTS' })
    expect(readFileSync(join(dir, 'old.zip'), 'utf8')).toBe('mine')
    mkdirSync(join(dir, 'empty'))
    await expect(collect([CC], { outPath: join(dir, 'empty') })).resolves.toMatchObject({ path: join(dir, 'empty') })
    const home = tmp('selfref')
    cpSync(join(CC, '.claude'), join(home, '.claude'), { recursive: true })
    await expect(collect([home], { outPath: join(home, '.claude/projects/bundle') })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
  })

  it('a fault half-way or a cancel leaves nothing at the target and no temp files', async () => {
    for (const target of ['folder', 'zip'] as const) {
      const dir = tmp(`fault-${target}`)
      const out = join(dir, target === 'zip' ? 'b.zip' : 'b')
      await expect(collect([CC, CLINE], { outPath: out, target, afterFile: (n) => { if (n === 3) throw new Error('disk full') } })).rejects.toMatchObject({ code: 'WRITE_FAILED' })
      expect(readdirSync(dir)).toEqual([])
      const controller = new AbortController()
      await expect(collect([CC, CLINE], { outPath: out, target, signal: controller.signal, onProgress: (d) => { if (d === 2) controller.abort() } })).rejects.toMatchObject({ code: 'CANCELLED' })
      expect(readdirSync(dir)).toEqual([])
    }
  })
})

describe('the API', () => {
  it('collectForReview collects the open homes, reports progress by task id, and opens single store files', async () => {
    const api = createApi(context({ homes: [CC, CLINE] }))
    await api.getLibrary()
    const dir = tmp('api')
    api.paths.allow(dir, 'picked')
    const r = await api.collectForReview({ target: 'zip', outPath: join(dir, 'review.zip'), taskId: 'collect-1' })
    // Claude Code: 10 of its 13 files (not .claude.json, settings.json, backups/); Cline: 13 of its
    // 28, plus the -wal/-shm of the two collected databases when a process left them there.
    const sidecars = ['sessions.db', 'session-search.db'].flatMap((db) => ['-wal', '-shm', '-journal'].map((x) => db + x)).filter((n) => existsSync(join(CLINE, '.cline/data/db', n)))
    expect(r.byAgent).toEqual({ 'claude-code': 10, cline: 13 + sidecars.length })
    const p = await api.getTaskProgress('collect-1')
    expect(p).toMatchObject({ taskId: 'collect-1', state: 'done', phase: 'zip', done: r.files, total: r.files })
    expect(await api.cancelTask('collect-1')).toBe(false)
    // A task can be asked about as soon as the call is made, and cancelled while it runs.
    const running = api.collectForReview({ target: 'folder', outPath: join(dir, 'second'), taskId: 'collect-2' })
    expect((await api.getTaskProgress('collect-2')).state).toBe('running')
    expect(await api.cancelTask('collect-2')).toBe(true)
    await expect(running).rejects.toMatchObject({ code: 'CANCELLED' })
    expect(await api.getTaskProgress('collect-2')).toMatchObject({ state: 'cancelled', error: expect.stringContaining('cancelled') })
    expect(existsSync(join(dir, 'second'))).toBe(false)
    await expect(api.getTaskProgress('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(api.collectForReview({ target: 'folder', outPath: '/definitely/not/allowed/x' })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })

    const appDataDir = tmp('recent')
    const single = createApi(context({ appDataDir }))
    const claudeFile = join(CC, '.claude/projects/-home-ana-src-ledger-api/c79310a4-1627-4beb-8788-81d2e0fc6af8.jsonl')
    const lib = await single.openHome(claudeFile)
    expect(lib.sessions.map((s) => `${s.agent}/${s.id}`)).toEqual(['claude-code/c79310a4-1627-4beb-8788-81d2e0fc6af8'])
    expect(lib.sessions[0]!.workingDirectory).toBe('/home/ana/src/ledger-api')
    expect(lib.homes[0]!.openedFrom).toEqual({ kind: 'file', path: claudeFile })
    const codexFile = join(ROOT, 'fixtures/real/codex/home/.codex/sessions/2026/11/30/rollout-2026-11-30T07-02-47-01a22b43-6965-7f70-8305-26886e29fe44.jsonl')
    expect((await single.openHome(codexFile)).sessions.map((s) => `${s.agent}/${s.id}`)).toEqual(['codex/01a22b43-6965-7f70-8305-26886e29fe44'])
    const clineFile = join(CLINE, '.cline/data/sessions/1796022183774_v75nv/1796022183774_v75nv.messages.json')
    expect((await single.openHome(clineFile)).sessions.map((s) => `${s.agent}/${s.id}`)).toEqual(['cline/1796022183774_v75nv'])
    const legacyFile = join(LEGACY, '.cline/data/tasks/1796022253554/ui_messages.json')
    expect((await single.openHome(legacyFile)).sessions.map((s) => `${s.agent}/${s.id}`)).toEqual(['cline/1796022253554'])
    const db = join(ROOT, 'fixtures/real/opencode/home/.local/share/opencode/opencode.db')
    const oc = await single.openHome(db)
    expect(oc.sessions.length).toBe(5)
    expect(oc.sessions.every((s) => s.agent === 'opencode')).toBe(true)
    const gem = join(ROOT, 'fixtures/real/gemini/home/.gemini/tmp/notes-app/chats/session-2026-11-30T07-08-9fe12dc6.jsonl')
    expect((await single.openHome(gem)).sessions.map((s) => `${s.agent}/${s.id}`)).toEqual(['gemini/9fe12dc6-5e67-4cc6-947f-f6b78f4fe8b1'])
    await expect(single.openHome(join(ROOT, 'package.json'))).rejects.toMatchObject({ code: 'NOT_A_DIRECTORY' })
    await expect(single.openHome(join(dir, 'missing.zip'))).rejects.toMatchObject({ code: 'NOT_FOUND' })
    // The recent list is kept in the app data folder: a new API instance reads it back.
    const recent = await createApi(context({ appDataDir })).getRecentHomes()
    expect(recent.map((h) => [h.path, h.kind])).toEqual([gem, db, legacyFile, clineFile, codexFile, claudeFile].map((p) => [p, 'file']))
    expect(recent[1]!.sessionCount).toBe(5)
  })
})
