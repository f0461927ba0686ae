/** isomorphic-git reading checked against the git command on real repositories. */
import { execFileSync } from 'node:child_process'
import { chmodSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findGitDir, GIT_MODE, GitRepo } from './git'
import { git, initRepo, removeDir, tempDir, writeFiles } from '../../../tests/builders/checkpoints/testing'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeDir))

describe('GitRepo', () => {
  it('lists trees, diffs them and reads blobs exactly as git does (loose, then packed)', async () => {
    const root = tempDir('git')
    dirs.push(root)
    const proj = join(root, 'p')
    const big = Buffer.alloc(300_000, 0)
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251
    initRepo(proj, { 'a.txt': 'a\n', 'd/e/f.txt': 'f\n', 'bin.dat': big, 'crlf.txt': 'x\r\ny\r\n' })
    chmodSync(join(proj, 'a.txt'), 0o755)
    symlinkSync('d/e/f.txt', join(proj, 'link'))
    writeFiles(proj, { 'd/e/f.txt': 'f2\n', 'd/g.txt': 'g\n' })
    git(proj, 'add', '-A')
    git(proj, 'commit', '-q', '-m', 'two')
    for (const packed of [false, true]) {
      if (packed) git(proj, 'gc', '-q', '--prune=now')
      const repo = (await GitRepo.open(proj))!
      const head = (await repo.resolve('HEAD'))!
      expect(head).toBe(git(proj, 'rev-parse', 'HEAD'))
      expect(await repo.resolve(head.slice(0, 8))).toBe(head)
      expect(await repo.resolve('refs/heads/main')).toBe(head)
      expect(await repo.resolve('0'.repeat(40))).toBeUndefined()
      const c = await repo.commit(head)
      const tree = await repo.listTree(c.tree)
      const lsTree = git(proj, 'ls-tree', '-r', 'HEAD').split('\n').map((l) => {
        const [meta, path] = l.split('\t')
        const [mode, , oid] = meta!.split(' ')
        return [path!, { oid: oid!, mode: parseInt(mode!, 8) }] as const
      })
      expect([...tree.entries()].sort()).toEqual([...lsTree].sort())
      expect(tree.get('link')!.mode).toBe(GIT_MODE.symlink)
      expect(tree.get('a.txt')!.mode).toBe(GIT_MODE.exec)
      const parent = await repo.commit(c.parents[0]!)
      expect([...(await repo.diffTrees(parent.tree, c.tree))].sort()).toEqual(git(proj, 'diff', '--name-only', 'HEAD^', 'HEAD').split('\n').sort())
      expect(Buffer.from(await repo.blob(tree.get('bin.dat')!.oid)).equals(big)).toBe(true)
      const crlf = execFileSync('git', ['cat-file', 'blob', tree.get('crlf.txt')!.oid], { cwd: proj })
      expect(Buffer.from(await repo.blob(tree.get('crlf.txt')!.oid)).equals(crlf)).toBe(true)
      expect(await repo.entryAt(c.tree, 'd/e/f.txt')).toEqual(tree.get('d/e/f.txt'))
      expect(await repo.entryAt(c.tree, 'd/e')).toBeUndefined()
      expect(await repo.entryAt(c.tree, 'nope/x')).toBeUndefined()
    }
  })

  it('finds the objects of a linked worktree (.git file + commondir) and of a bare repository', async () => {
    const root = tempDir('gitdirs')
    dirs.push(root)
    const main = join(root, 'main')
    const first = initRepo(main, { 'a.txt': 'a\n' })
    git(main, 'worktree', 'add', '-q', join(root, 'wt'), '-b', 'side')
    expect(readFileSync(join(root, 'wt', '.git'), 'utf8')).toMatch(/^gitdir: /)
    const wt = (await GitRepo.open(join(root, 'wt')))!
    expect(wt.gitdir).toBe(join(main, '.git'))
    expect(await wt.resolve(first)).toBe(first)
    git(root, 'clone', '-q', '--bare', main, join(root, 'bare.git'))
    expect(await findGitDir(join(root, 'bare.git'))).toBe(join(root, 'bare.git'))
    expect(await findGitDir(root)).toBeUndefined()
  })
})
