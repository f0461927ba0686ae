/**
 * Issue 16: a copied home is data its sender wrote. It must not decide where Sepia writes
 * (path policy) nor make a restore read files out of the home (a symlinked backup).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApi } from '../src/main/api'
import { findAppRoot, type AppContext } from '../src/main/context'

const ROOT = findAppRoot()
const tmp = (n: string) => mkdtempSync(join(tmpdir(), `sepia-i16-${n}-`))
const SID = '11111111-2222-4333-8444-555555555555'

/** A Claude Code home with one session whose `cwd` is `cwd`, tracking `a.txt` with backup `h@v1`. */
function hostileHome(cwd: string, backup: (file: string) => void): string {
  const home = tmp('home')
  const slug = cwd.replace(/[^A-Za-z0-9]/g, '-')
  const dir = join(home, '.claude', 'projects', slug)
  mkdirSync(dir, { recursive: true })
  const base = { sessionId: SID, cwd, version: '2.1.332', isSidechain: false, userType: 'external' }
  const lines = [
    { ...base, type: 'user', parentUuid: null, uuid: 'u1', timestamp: '2026-11-30T07:02:28.364Z', message: { role: 'user', content: 'edit a.txt' } },
    { type: 'file-history-snapshot', messageId: 'u1', snapshot: { messageId: 'u1', trackedFileBackups: { 'a.txt': { backupFileName: 'h@v1', version: 1, backupTime: '2026-11-30T07:02:29.000Z' } }, timestamp: '2026-11-30T07:02:29.000Z' }, isSnapshotUpdate: false },
    { ...base, type: 'assistant', parentUuid: 'u1', uuid: 'a1', timestamp: '2026-11-30T07:02:30.000Z', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'done' }] } },
  ]
  writeFileSync(join(dir, `${SID}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  const fh = join(home, '.claude', 'file-history', SID)
  mkdirSync(fh, { recursive: true })
  backup(join(fh, 'h@v1'))
  return home
}

function context(home: string, over: Partial<AppContext> = {}): AppContext {
  return { mode: 'browser', version: '9.9.9', platform: 'linux', homes: [], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: home, appDataDir: tmp('data'), ...over }
}

describe('issue 16: path policy', () => {
  it('a recorded cwd and an opened home are read roots, never write roots', async () => {
    const victim = tmp('victim')
    const home = hostileHome(victim, (f) => writeFileSync(f, 'old\n'))
    const api = createApi(context(home, { homes: [home], ownHome: tmp('own') }))
    const lib = await api.getLibrary()
    expect(lib.sessions.map((s) => s.workingDirectory)).toContain(victim)
    const sessions = [{ agent: 'claude-code' as const, id: SID }]
    await expect(api.exportSessions({ sessions, format: 'md', outDir: join(victim, 'out') })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    await expect(api.exportSessions({ sessions, format: 'md', outDir: join(home, 'out') })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    await expect(api.collectForReview({ target: 'folder', outPath: join(victim, 'bundle') })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    await expect(api.convertSession('claude-code', SID, 'cline', { targetHome: victim })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    await expect(api.convertSession('claude-code', SID, 'cline', { targetHome: home })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    expect(existsSync(join(victim, 'out'))).toBe(false)
    expect(existsSync(join(victim, 'bundle'))).toBe(false)

    // "Allow once": a grant for that folder and that operation, used up by one write.
    const wrongOp = await api.approveFolder(victim, 'collect')
    await expect(api.exportSessions({ sessions, format: 'md', outDir: join(victim, 'out'), grant: wrongOp.token })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    const g = await api.approveFolder(victim, 'export')
    const r = await api.exportSessions({ sessions, format: 'md', outDir: join(victim, 'out'), grant: g.token })
    expect(r.files).toHaveLength(1)
    await expect(api.exportSessions({ sessions, format: 'md', outDir: join(victim, 'out2'), grant: g.token })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    await expect(api.approveFolder('relative/dir', 'export')).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    await expect(api.approveFolder(victim, 'delete' as 'export')).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
  })

  it('a restore into the recorded project folder needs the user\'s grant for it', async () => {
    const victim = tmp('project')
    writeFileSync(join(victim, 'a.txt'), 'new\n')
    const home = hostileHome(victim, (f) => writeFileSync(f, 'old\n'))
    const api = createApi(context(home))
    const list = await api.listCheckpoints('claude-code', SID)
    expect(list.defaultTarget).toBe(victim)
    const cp = list.checkpoints[0]!
    // The preview only reads.
    expect((await api.previewRestore('claude-code', SID, cp.id)).files.map((f) => [f.path, f.status])).toEqual([['a.txt', 'modified']])
    await expect(api.restoreCheckpoint('claude-code', SID, cp.id)).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    expect(readFileSync(join(victim, 'a.txt'), 'utf8')).toBe('new\n')
    const g = await api.approveFolder(victim, 'restore')
    const r = await api.restoreCheckpoint('claude-code', SID, cp.id, { grant: g.token })
    expect(r.written).toEqual(['a.txt'])
    expect(readFileSync(join(victim, 'a.txt'), 'utf8')).toBe('old\n')
  })

  it('a backup that is a symbolic link out of the home is refused, not copied', async () => {
    const victim = tmp('project')
    const secret = join(tmp('outside'), 'id_rsa')
    writeFileSync(secret, 'PRIVATE KEY\n')
    const home = hostileHome(victim, (f) => symlinkSync(secret, f))
    const api = createApi(context(home))
    const cp = (await api.listCheckpoints('claude-code', SID)).checkpoints[0]!
    const pv = await api.previewRestore('claude-code', SID, cp.id)
    expect(pv.files).toEqual([])
    expect(pv.refused).toEqual([{ path: 'a.txt', reason: expect.stringContaining('symbolic link') }])
    const g = await api.approveFolder(victim, 'restore')
    const r = await api.restoreCheckpoint('claude-code', SID, cp.id, { grant: g.token })
    expect(r.written).toEqual([])
    expect(existsSync(join(victim, 'a.txt'))).toBe(false)
  })
})

describe('issue 16: the index and the data folder', () => {
  it('search does not answer inside a masked secret; the data folder and catalog are private', async () => {
    const { statSync } = await import('node:fs')
    const home = tmp('secret-home')
    const dir = join(home, '.claude', 'projects', '-tmp-p')
    mkdirSync(dir, { recursive: true })
    const key = 'AKIA' + 'Q4RT7YU2IO9PX3ZL'
    const line = { sessionId: SID, cwd: '/tmp/p', version: '2.1.332', type: 'user', parentUuid: null, uuid: 'u1', timestamp: '2026-11-30T07:02:28.364Z', message: { role: 'user', content: `the key is ${key} ok zebrafish` } }
    writeFileSync(join(dir, `${SID}.jsonl`), JSON.stringify(line) + '\n')
    const data = tmp('data')
    const api = createApi(context(home, { appDataDir: join(data, 'sepia') }))
    await api.getLibrary({ refresh: true })
    const ready = async () => {
      for (let i = 0; i < 200 && (await api.getIndexStatus()).running; i++) await new Promise((r) => setTimeout(r, 50))
    }
    await ready()
    expect((await api.search('zebrafish')).hits.length).toBe(1)
    expect((await api.search(key.slice(0, 10))).hits).toEqual([])
    expect((await api.search(key)).hits).toEqual([])
    if (process.platform !== 'win32') {
      expect(statSync(join(data, 'sepia')).mode & 0o777).toBe(0o700)
      expect(statSync(join(data, 'sepia', 'catalog.sqlite')).mode & 0o777).toBe(0o600)
    }
  })
})
