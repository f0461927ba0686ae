/**
 * Restores from real git repositories built in the test: a Cline stash checkpoint with untracked
 * files, a commit checkpoint, the same repository packed by `git gc`, a binary file, CRLF text, an
 * executable bit, a file deleted since, a file created since, file selection, export into a new
 * folder, the project-is-another-repository case, and a Cline legacy shadow repository.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { claudeCode } from '../agents/claude-code'
import { cline } from '../agents/cline'
import { newSession } from '../ir/build'
import { GitRepo } from './git'
import { openSessionCheckpoints } from './list'
import { createCheckpointService, type CheckpointService } from './index'
import { clineSdkHome, clineStash, git, initRepo, libraryFor, removeDir, snapshotDir, tempDir, writeFiles } from '../../../tests/builders/checkpoints/testing'

const BIN_V1 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0xff, 0x00, 0x7f])
const BIN_V2 = Buffer.from([0x00, 0x01, 0x02, 0x03])
const dirs: string[] = []
afterAll(() => dirs.forEach(removeDir))

interface Built {
  root: string
  proj: string
  home: string
  s1: string
  s2: string
  base: string
}

/**
 * C0 = README.md, src/app.js, win.txt (CRLF), img.bin (binary), run.sh (0755), gone.txt.
 * Run 1 (stash S1): app.js v2, README.md deleted, untracked notes/todo.md.
 * Then: app.js v3, todo.md done, README.md back, gone.txt deleted, img.bin changed, win.txt LF,
 * run.sh not executable, new extra.txt. Run 2 (stash S2) records that.
 */
function build(): Built {
  const root = tempDir('case')
  dirs.push(root)
  const proj = join(root, 'proj')
  const base = initRepo(proj, { 'README.md': 'hello\n', 'src/app.js': 'v1\n', 'win.txt': 'a\r\nb\r\n', 'img.bin': BIN_V1, 'run.sh': '#!/bin/sh\necho 1\n', 'gone.txt': 'bye\n' })
  chmodSync(join(proj, 'run.sh'), 0o755)
  git(proj, 'add', '-A')
  git(proj, 'commit', '-q', '-m', 'exec bit')
  writeFiles(proj, { 'src/app.js': 'v2\n', 'notes/todo.md': 'todo\n' })
  rmSync(join(proj, 'README.md'))
  const s1 = clineStash(proj, 'sess', 1)
  writeFiles(proj, { 'src/app.js': 'v3\n', 'notes/todo.md': 'done\n', 'README.md': 'hello again\n', 'img.bin': BIN_V2, 'win.txt': 'a\nb\n', 'run.sh': '#!/bin/sh\necho 2\n', 'extra.txt': 'new\n' })
  chmodSync(join(proj, 'run.sh'), 0o644)
  rmSync(join(proj, 'gone.txt'))
  const s2 = clineStash(proj, 'sess', 2)
  const home = join(root, 'home')
  clineSdkHome(home, 'sess', proj, [
    { ref: s1, kind: 'stash', runCount: 1, createdAt: 1796022200000 },
    { ref: s2, kind: 'stash', runCount: 2, createdAt: 1796022300000 },
  ])
  return { root, proj, home, s1, s2, base: git(proj, 'rev-parse', 'HEAD') || base }
}

async function serviceFor(home: string, own = false): Promise<{ svc: CheckpointService; data: string }> {
  const data = tempDir('data')
  dirs.push(data)
  const library = await libraryFor([cline, claudeCode], [home], own)
  return { svc: createCheckpointService({ library, appDataDir: data, now: () => 1_796_100_000_000 }), data }
}

function expectRun1State(proj: string): void {
  expect(readFileSync(join(proj, 'src/app.js'), 'utf8')).toBe('v2\n')
  expect(readFileSync(join(proj, 'notes/todo.md'), 'utf8')).toBe('todo\n')
  expect(existsSync(join(proj, 'README.md'))).toBe(false)
  expect(readFileSync(join(proj, 'gone.txt'), 'utf8')).toBe('bye\n')
  expect(readFileSync(join(proj, 'img.bin')).equals(BIN_V1)).toBe(true)
  expect(readFileSync(join(proj, 'win.txt')).toString('latin1')).toBe('a\r\nb\r\n')
  expect(readFileSync(join(proj, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho 1\n')
  expect(statSync(join(proj, 'run.sh')).mode & 0o111).not.toBe(0)
  expect(existsSync(join(proj, 'extra.txt'))).toBe(false)
}

describe('a Cline stash checkpoint built with git', () => {
  let b: Built
  beforeEach(() => {
    b = build()
  })

  it('covers its own changes, its untracked files and everything changed by later runs', async () => {
    const { svc } = await serviceFor(b.home, true)
    const list = await svc.list('cline', 'sess')
    expect(list).toMatchObject({ projectDir: b.proj, projectExists: true, defaultTarget: b.proj, store: join(b.proj, '.git') })
    expect(list.checkpoints.map((c) => [c.kind, c.runCount, c.fileCount, c.label])).toEqual([
      ['stash', 1, 8, 'Run 1: before "prompt of run 1"'],
      ['stash', 2, 8, 'Run 2: before "prompt of run 2"'],
    ])
    const pv = await svc.preview('cline', 'sess', b.s1)
    expect(pv.files.map((f) => [f.path, f.status])).toEqual([
      ['README.md', 'deleted'], ['extra.txt', 'deleted'], ['gone.txt', 'added'], ['img.bin', 'modified'],
      ['notes/todo.md', 'modified'], ['run.sh', 'modified'], ['src/app.js', 'modified'], ['win.txt', 'modified'],
    ])
    const byPath = new Map(pv.files.map((f) => [f.path, f]))
    expect(byPath.get('img.bin')).toMatchObject({ binary: true, sizeBefore: 4, sizeAfter: 10 })
    expect(byPath.get('img.bin')!.diff).toBeUndefined()
    expect(byPath.get('win.txt')!.diff).toContain('+a\r\n')
    expect(byPath.get('run.sh')).toMatchObject({ modeBefore: 0o644, modeAfter: 0o755 })
    expect(byPath.get('src/app.js')!.diff).toContain('-v3\n+v2')
    expect(pv.counts).toEqual({ added: 1, modified: 5, deleted: 2, unchanged: 0 })
  })

  it('restores every file byte for byte, keeps .git unchanged, and undo puts back the bytes before', async () => {
    const { svc } = await serviceFor(b.home, true)
    const gitBefore = snapshotDir(join(b.proj, '.git'))
    const before = snapshotDir(b.proj)
    const r = await svc.restore('cline', 'sess', b.s1)
    expect(r.written).toHaveLength(8)
    expectRun1State(b.proj)
    expect(git(b.proj, 'show', `${b.s1}:src/app.js`)).toBe('v2')
    expect(readdirSync(join(r.backupDir!, 'files'))).toHaveLength(7) // every file that existed; gone.txt did not
    const again = await svc.preview('cline', 'sess', b.s1)
    expect(again.counts).toEqual({ added: 0, modified: 0, deleted: 0, unchanged: 8 })
    expect((await svc.restore('cline', 'sess', b.s1)).restoreId).toBeNull() // nothing to do
    expect(await svc.undo(r.restoreId!)).toMatchObject({ skipped: [] })
    expect(snapshotDir(b.proj)).toEqual(before)
    expect(snapshotDir(join(b.proj, '.git'))).toEqual(gitBefore)
  })

  it('works the same on a packed repository (git gc: packfiles and packed refs)', async () => {
    git(b.proj, 'gc', '-q', '--prune=now')
    const packs = readdirSync(join(b.proj, '.git/objects/pack')).filter((f) => f.endsWith('.pack'))
    expect(packs.length).toBeGreaterThan(0)
    expect(readFileSync(join(b.proj, '.git/packed-refs'), 'utf8')).toContain('refs/cline/checkpoints/sess/1')
    expect(readdirSync(join(b.proj, '.git/objects')).filter((d) => /^[0-9a-f]{2}$/.test(d))).toEqual([])
    const repo = (await GitRepo.open(b.proj))!
    expect(await repo.resolve('refs/cline/checkpoints/sess/1')).toBe(b.s1)
    expect((await repo.commit(b.s1)).parents).toHaveLength(3)
    const { svc } = await serviceFor(b.home, true)
    await svc.restore('cline', 'sess', b.s1)
    expectRun1State(b.proj)
  })

  it('restores only the selected files', async () => {
    const { svc } = await serviceFor(b.home, true)
    const r = await svc.restore('cline', 'sess', b.s1, { files: ['src/app.js', 'gone.txt'] })
    expect(r.written.sort()).toEqual(['gone.txt', 'src/app.js'])
    expect(readFileSync(join(b.proj, 'src/app.js'), 'utf8')).toBe('v2\n')
    expect(readFileSync(join(b.proj, 'README.md'), 'utf8')).toBe('hello again\n')
    await expect(svc.restore('cline', 'sess', b.s1, { files: ['nope.txt'] })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
  })

  it('exports into a new folder, reading the commits from the repository the user names', async () => {
    rmSync(join(b.home, '.cline'), { recursive: true })
    clineSdkHome(b.home, 'sess', '/home/ana/src/elsewhere', [{ ref: b.s1, kind: 'stash', runCount: 1, createdAt: 1796022200000 }])
    const { svc } = await serviceFor(b.home, true)
    const out = join(b.root, 'export')
    const list = await svc.list('cline', 'sess', { repoDir: b.proj })
    expect(list).toMatchObject({ projectExists: false, checkpoints: [{ fileCount: 3 }] })
    const r = await svc.restore('cline', 'sess', b.s1, { targetDir: out, repoDir: b.proj })
    expect(r.written.sort()).toEqual(['notes/todo.md', 'src/app.js'])
    expect(readFileSync(join(out, 'src/app.js'), 'utf8')).toBe('v2\n')
    expect(readFileSync(join(out, 'notes/todo.md'), 'utf8')).toBe('todo\n')
    await svc.undo(r.restoreId!)
    expect(existsSync(out)).toBe(false) // the folders the restore created are removed again
  })

  it('a commit checkpoint (clean tree) followed by a stash run restores everything the later run changed', async () => {
    const c = git(b.proj, 'rev-parse', 'HEAD')
    rmSync(join(b.home, '.cline'), { recursive: true })
    clineSdkHome(b.home, 'sess', b.proj, [
      { ref: c, kind: 'commit', runCount: 1, createdAt: 1796022200000 },
      { ref: b.s2, kind: 'stash', runCount: 2, createdAt: 1796022300000 },
    ])
    const { svc } = await serviceFor(b.home, true)
    const pv = await svc.preview('cline', 'sess', c)
    expect(pv.files.map((f) => [f.path, f.status])).toEqual([
      ['README.md', 'modified'], ['extra.txt', 'deleted'], ['gone.txt', 'added'], ['img.bin', 'modified'],
      ['notes/todo.md', 'deleted'], ['run.sh', 'modified'], ['src/app.js', 'modified'], ['win.txt', 'modified'],
    ])
    await svc.restore('cline', 'sess', c)
    expect(readFileSync(join(b.proj, 'src/app.js'), 'utf8')).toBe('v1\n')
    expect(readFileSync(join(b.proj, 'win.txt')).toString('latin1')).toBe('a\r\nb\r\n')
    expect(git(b.proj, 'status', '--porcelain')).toBe('') // exactly the committed tree again
  })

  it('a project folder that is another repository is not the recorded one: the user picks a folder', async () => {
    const c = git(b.proj, 'rev-parse', 'HEAD')
    const other = join(b.root, 'other')
    initRepo(other, { 'x.txt': 'x\n' })
    rmSync(join(b.home, '.cline'), { recursive: true })
    clineSdkHome(b.home, 'sess', other, [{ ref: c, kind: 'commit', runCount: 1, createdAt: 1796022200000 }])
    const s2 = await serviceFor(b.home, true)
    const l = await s2.svc.list('cline', 'sess')
    expect(l.defaultTarget).toBeUndefined()
    expect(l.checkpoints[0]!.problem).toContain(`not in ${other}`)
    const l2 = await s2.svc.list('cline', 'sess', { repoDir: b.proj })
    expect(l2.targetNote).toContain('does not hold this session\'s checkpoint commits')
    await expect(s2.svc.preview('cline', 'sess', c, { repoDir: b.proj })).rejects.toMatchObject({ code: 'TARGET_REQUIRED' })
  })
})

describe('a Cline legacy shadow repository', () => {
  it('finds the commit under checkpoints/<hash>/.git and restores the workspace files', async () => {
    const root = tempDir('shadow')
    dirs.push(root)
    const proj = join(root, 'weather-cli')
    mkdirSync(proj)
    writeFiles(proj, { 'main.py': 'print(1)\n', 'data/a.json': '{}\n' })
    const home = join(root, 'home')
    const data = join(home, '.cline', 'data')
    const shadow = join(data, 'checkpoints', '6a812c20', '.git')
    mkdirSync(shadow, { recursive: true })
    const sg = (...args: string[]) => git(proj, `--git-dir=${shadow}`, `--work-tree=${proj}`, ...args)
    sg('init', '-q')
    sg('config', 'core.worktree', proj)
    sg('add', '-A')
    sg('commit', '-q', '--allow-empty', '-m', 'checkpoint-6a812c20-t1')
    const h1 = sg('rev-parse', 'HEAD')
    writeFiles(proj, { 'main.py': 'print(2)\n', 'new.py': 'x = 1\n' })
    sg('add', '-A')
    sg('commit', '-q', '-m', 'checkpoint-6a812c20-t1')
    const h2 = sg('rev-parse', 'HEAD')
    const task = join(data, 'tasks', '1796022270019')
    mkdirSync(task, { recursive: true })
    writeFileSync(join(task, 'api_conversation_history.json'), JSON.stringify([{ role: 'user', content: [{ type: 'text', text: '<task>\nedit main.py\n</task>' }] }]))
    writeFileSync(join(task, 'ui_messages.json'), JSON.stringify([
      { ts: 1796022270100, type: 'say', say: 'task', text: 'edit main.py' },
      { ts: 1796022271000, type: 'say', say: 'checkpoint_created', lastCheckpointHash: h1 },
      { ts: 1796022272000, type: 'say', say: 'checkpoint_created', lastCheckpointHash: h2 },
    ]))
    mkdirSync(join(data, 'state'), { recursive: true })
    writeFileSync(join(data, 'state', 'taskHistory.json'), JSON.stringify([{ id: '1796022270019', ts: 1796022272000, task: 'edit main.py', cwdOnTaskInitialization: proj }]))
    const shadowBefore = snapshotDir(shadow)

    const { svc } = await serviceFor(home, true)
    const list = await svc.list('cline', '1796022270019')
    expect(list).toMatchObject({ projectDir: proj, defaultTarget: proj, store: shadow })
    expect(list.checkpoints.map((c) => [c.ref, c.kind, c.fileCount])).toEqual([[h1, 'shadow-git', 2], [h2, 'shadow-git', 2]])
    const pv = await svc.preview('cline', '1796022270019', h1)
    expect(pv.files.map((f) => [f.path, f.status])).toEqual([['main.py', 'modified'], ['new.py', 'deleted']])
    await svc.restore('cline', '1796022270019', h1)
    expect(readFileSync(join(proj, 'main.py'), 'utf8')).toBe('print(1)\n')
    expect(existsSync(join(proj, 'new.py'))).toBe(false)
    expect(snapshotDir(shadow)).toEqual(shadowBefore)
  })
})

describe('other checkpoint kinds', () => {
  it('opens a Codex ghost snapshot (a commit over HEAD holding the working tree) like a commit', async () => {
    const root = tempDir('ghost')
    dirs.push(root)
    const proj = join(root, 'proj')
    initRepo(proj, { 'a.txt': 'a1\n' })
    writeFiles(proj, { 'a.txt': 'a2\n', 'new.txt': 'n\n' })
    git(proj, 'add', '-A')
    const ghost = git(proj, 'commit-tree', git(proj, 'write-tree'), '-p', 'HEAD', '-m', 'codex snapshot')
    git(proj, 'reset', '-q')
    const s = newSession('codex', 'rollout-1', 'codex-rollout', [join(root, 'rollout.jsonl')])
    s.workingDirectory = proj
    s.checkpoints = [{ ref: ghost, kind: 'ghost-snapshot', createdAt: 1796022200000 }, { ref: 'f'.repeat(40), kind: 'ghost-snapshot' }]
    const o = await openSessionCheckpoints(s, true)
    expect(o.defaultTarget).toBe(proj)
    expect(o.checkpoints[0]!.files!.files.map((f) => [f.path, f.exists])).toEqual([['a.txt', true], ['new.txt', true]])
    expect(o.checkpoints[1]!.problem).toContain('is not in the repository')
    const unknown = await openSessionCheckpoints({ ...s, checkpoints: [{ ref: 'x', kind: 'cursor-checkpoint' }] }, true)
    expect(unknown.checkpoints[0]!.problem).toBe('Sepia cannot restore cursor-checkpoint checkpoints yet.')
  })
})

describe('large files', () => {
  it('shows sizes instead of a diff over 1 MiB, still tells binary from text, and restores the bytes', async () => {
    const root = tempDir('large')
    dirs.push(root)
    const proj = join(root, 'proj')
    const text = 'line of text\r\n'.repeat(150_000) // ~2.1 MB, CRLF
    const bin = Buffer.alloc(1_500_000, 7)
    bin[10] = 0
    initRepo(proj, { 'big.txt': 'small\n', 'big.bin': 'x' })
    writeFiles(proj, { 'big.txt': text, 'big.bin': bin })
    const s1 = clineStash(proj, 'sess', 1)
    writeFiles(proj, { 'big.txt': 'changed\n', 'big.bin': 'y' })
    const home = join(root, 'home')
    clineSdkHome(home, 'sess', proj, [{ ref: s1, kind: 'stash', runCount: 1, createdAt: 1796022200000 }])
    const { svc } = await serviceFor(home, true)
    const pv = await svc.preview('cline', 'sess', s1)
    expect(pv.files).toMatchObject([
      { path: 'big.bin', status: 'modified', binary: true, sizeAfter: 1_500_000, diffNote: 'Too large to show a diff (1.4 MB).' },
      { path: 'big.txt', status: 'modified', binary: false, sizeAfter: text.length, diffNote: 'Too large to show a diff (2.0 MB).' },
    ])
    await svc.restore('cline', 'sess', s1)
    expect(readFileSync(join(proj, 'big.txt'), 'latin1')).toBe(text)
    expect(readFileSync(join(proj, 'big.bin')).equals(bin)).toBe(true)
  })
})
