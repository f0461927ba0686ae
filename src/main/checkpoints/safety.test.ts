/**
 * Restores never damage what they do not mean to change: a fault injected mid-write leaves every
 * file as it was (rolled back), paths that leave the project (`..`, absolute elsewhere, `.git`, a
 * symbolic link pointing out) are refused and reported, and nothing outside is written.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { claudeCode } from '../agents/claude-code'
import { cline } from '../agents/cline'
import { nodeIo, type RestoreIo } from './atomic'
import { createCheckpointService } from './index'
import { ccDelta, ccSnapshot, ccUser, claudeHome, clineSdkHome, clineStash, git, initRepo, libraryFor, removeDir, snapshotDir, tempDir, writeFiles } from '../../../tests/builders/checkpoints/testing'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeDir))
function temp(prefix: string): string {
  const d = tempDir(prefix)
  dirs.push(d)
  return d
}

/** A project with a stash checkpoint of three changed files, then changed again. */
function project() {
  const root = temp('safe')
  const proj = join(root, 'proj')
  initRepo(proj, { 'a.txt': 'a1\n', 'b.txt': 'b1\n', 'c/d.txt': 'd1\n' })
  writeFiles(proj, { 'a.txt': 'a2\n', 'b.txt': 'b2\n', 'c/d.txt': 'd2\n' })
  const s1 = clineStash(proj, 'sess', 1)
  writeFiles(proj, { 'a.txt': 'a3\n', 'b.txt': 'b3\n', 'c/d.txt': 'd3\n' })
  const home = join(root, 'home')
  clineSdkHome(home, 'sess', proj, [{ ref: s1, kind: 'stash', runCount: 1, createdAt: 1796022200000 }])
  return { root, proj, home, s1 }
}

async function service(home: string, io?: RestoreIo) {
  const data = temp('data')
  const library = await libraryFor([cline, claudeCode], [home], true)
  return { svc: createCheckpointService({ library, appDataDir: data, now: () => 1_796_100_000_000, ...(io ? { io } : {}) }), data }
}

/** An io that fails the `n`-th call of `method` (1-based); a failing writeFile leaves half the bytes. */
function faulty(method: keyof RestoreIo, n: number): RestoreIo {
  let calls = 0
  const io = { ...nodeIo }
  const real = nodeIo[method] as (...a: unknown[]) => Promise<void>
  ;(io as Record<string, unknown>)[method] = async (...args: unknown[]) => {
    if (++calls === n) {
      if (method === 'writeFile') writeFileSync(args[0] as string, (args[1] as Uint8Array).subarray(0, 1))
      throw Object.assign(new Error('injected: no space left on device'), { code: 'ENOSPC' })
    }
    return real(...args)
  }
  return io
}

describe('a fault injected mid-restore', () => {
  for (const [method, n] of [['rename', 3], ['writeFile', 2], ['copyFile', 2]] as const) {
    it(`leaves every file as it was (${method} #${n} fails)`, async () => {
      const p = project()
      const before = snapshotDir(p.proj)
      const { svc } = await service(p.home, faulty(method, n))
      const err = await svc.restore('cline', 'sess', p.s1).catch((e: unknown) => e)
      expect(err).toMatchObject({ code: 'WRITE_FAILED' })
      expect((err as Error).message).toContain('Nothing was changed')
      expect(snapshotDir(p.proj)).toEqual(before) // no half-written file, no temp file left behind
      const [record] = await svc.restores()
      expect(record).toMatchObject(method === 'copyFile' ? { state: 'failed' } : { state: 'rolled-back', fileCount: 3 })
      if (method !== 'copyFile') await expect(svc.undo(record!.restoreId)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
      // with a working file system the same restore then succeeds
      const ok = await service(p.home)
      await ok.svc.restore('cline', 'sess', p.s1)
      expect(readFileSync(join(p.proj, 'c/d.txt'), 'utf8')).toBe('d2\n')
    })
  }

  it('undo leaves alone a file changed again after the restore', async () => {
    const p = project()
    const { svc } = await service(p.home)
    const r = await svc.restore('cline', 'sess', p.s1)
    writeFileSync(join(p.proj, 'b.txt'), 'edited after the restore\n')
    const u = await svc.undo(r.restoreId!)
    expect(u.restored).toEqual(['a.txt', 'c/d.txt'])
    expect(u.skipped).toEqual([{ path: 'b.txt', reason: expect.stringContaining('changed after the restore') }])
    expect(readFileSync(join(p.proj, 'a.txt'), 'utf8')).toBe('a3\n')
    expect(readFileSync(join(p.proj, 'b.txt'), 'utf8')).toBe('edited after the restore\n')
    await expect(svc.undo('../../etc')).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    await expect(svc.undo('no-such-restore')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})

describe('paths that leave the project', () => {
  it('refuses a folder that is a symbolic link pointing outside, and a checkpoint link pointing out', async () => {
    const root = temp('escape')
    const proj = join(root, 'proj')
    const outside = join(root, 'outside')
    mkdirSync(outside)
    writeFileSync(join(outside, 'x.txt'), 'outside\n')
    initRepo(proj, { 'ok.txt': 'ok0\n' })
    writeFiles(proj, { 'lib/x.txt': 'inside\n', 'ok.txt': 'ok1\n' })
    symlinkSync('../outside/x.txt', join(proj, 'evil'))
    symlinkSync('ok.txt', join(proj, 'good'))
    git(proj, 'add', '-A')
    git(proj, 'commit', '-q', '-m', 'links')
    const c = git(proj, 'rev-parse', 'HEAD')
    rmSync(join(proj, 'lib'), { recursive: true })
    symlinkSync(outside, join(proj, 'lib')) // the folder became a link out of the project
    rmSync(join(proj, 'evil'))
    rmSync(join(proj, 'good'))
    writeFileSync(join(proj, 'ok.txt'), 'ok2\n')
    const home = join(root, 'home')
    clineSdkHome(home, 'sess', proj, [{ ref: c, kind: 'commit', runCount: 1, createdAt: 1796022200000 }])
    const outsideBefore = snapshotDir(outside)
    const { svc } = await service(home)
    const pv = await svc.preview('cline', 'sess', c)
    expect(pv.refused).toEqual([
      { path: 'evil', reason: expect.stringContaining('outside the project folder') },
      { path: 'lib/x.txt', reason: expect.stringContaining(`symbolic link to ${outside}, outside the project folder`) },
    ])
    expect(pv.files.map((f) => [f.path, f.status])).toEqual([['good', 'added'], ['ok.txt', 'modified']])
    const r = await svc.restore('cline', 'sess', c)
    expect(r.written).toEqual(['good', 'ok.txt'])
    expect(r.refused.map((x) => x.path)).toEqual(['evil', 'lib/x.txt'])
    expect(readlinkSync(join(proj, 'good'))).toBe('ok.txt')
    expect(existsSync(join(proj, 'evil'))).toBe(false)
    expect(snapshotDir(outside)).toEqual(outsideBefore)
  })

  it('refuses Claude Code file-history paths with "..", absolute paths elsewhere, .git, and missing backups', async () => {
    const root = temp('cc-escape')
    const proj = join(root, 'proj')
    const outside = join(root, 'outside.txt')
    mkdirSync(proj)
    writeFileSync(outside, 'keep me\n')
    writeFileSync(join(proj, 'in.txt'), 'now\n')
    const at = '2026-11-30T07:02:29.000Z'
    const home = join(root, 'home')
    claudeHome(home, 'aaaaaaaa-0000-4000-8000-000000000001', proj, [
      ccSnapshot('u1', {}, at),
      ccUser('u1', null, 'edit things', at),
      ccDelta('a1', 'u1', '../escape.txt', 'h1@v1', 1, at),
      ccDelta('a2', 'u1', outside, 'h2@v1', 1, at),
      ccDelta('a3', 'u1', join(proj, 'in.txt'), 'h3@v1', 1, at),
      ccDelta('a4', 'u1', '.git/config', 'h4@v1', 1, at),
      ccDelta('a5', 'u1', 'missing.txt', 'h5@v1', 1, at),
      ccDelta('a6', 'u1', 'sub/created.txt', null, 1, at),
    ], { 'h1@v1': 'x', 'h2@v1': 'overwritten!\n', 'h3@v1': 'before\n', 'h4@v1': '[core]' })
    writeFiles(proj, { 'sub/created.txt': 'made by the agent\n' })
    const { svc } = await service(home)
    const pv = await svc.preview('claude-code', 'aaaaaaaa-0000-4000-8000-000000000001', 'u1', { targetDir: proj })
    expect(pv.refused.map((r) => [r.path, r.reason])).toEqual([
      ['../escape.txt', expect.stringContaining('leaves the project folder')],
      ['.git/config', expect.stringContaining('.git folder')],
      [outside, expect.stringContaining('outside the project folder')],
      ['missing.txt', expect.stringContaining('h5@v1 is not in')],
      // Claude Code's rewind (cli.js 2.1.332 `Jss`) holds every deletion once a restore failed.
      ['sub/created.txt', expect.stringContaining('keeps the files it would delete')],
    ])
    expect(pv.files.map((f) => [f.path, f.status])).toEqual([['in.txt', 'modified']])
    await svc.restore('claude-code', 'aaaaaaaa-0000-4000-8000-000000000001', 'u1', { targetDir: proj })
    expect(readFileSync(join(proj, 'in.txt'), 'utf8')).toBe('before\n')
    expect(readFileSync(join(proj, 'sub/created.txt'), 'utf8')).toBe('made by the agent\n')
    expect(readFileSync(outside, 'utf8')).toBe('keep me\n')
    expect(existsSync(join(root, 'escape.txt'))).toBe(false)
    expect(lstatSync(proj).isDirectory()).toBe(true)
  })
})
