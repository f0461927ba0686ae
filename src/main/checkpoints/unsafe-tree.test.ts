/** Issue 16: one unsafe entry name in a checkpoint's tree is left out; the rest of the tree is read. */
import { mkdtempSync } from 'node:fs'
import * as fs from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import git from 'isomorphic-git'
import { describe, expect, it } from 'vitest'
import { GitRepo, isUnsafeEntryName } from './git'

/** A raw tree object: `<mode> <name>\0<20-byte oid>` per entry (git's own layout). */
function rawTree(entries: [mode: string, name: string, oid: string][]): Uint8Array {
  return Buffer.concat(entries.map(([m, n, o]) => Buffer.concat([Buffer.from(`${m} ${n}\0`, 'utf8'), Buffer.from(o, 'hex')])))
}

describe('unsafe tree entry names', () => {
  it('are refused one by one, the safe entries kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-unsafe-tree-'))
    await git.init({ fs, dir })
    const blob = await git.writeBlob({ fs, dir, blob: Buffer.from('hello\n') })
    const tree = await git.writeObject({ fs, dir, type: 'tree', format: 'content', object: rawTree([['100644', '..', blob], ['100644', '.GIT', blob], ['100644', 'a\\b', blob], ['100644', 'ok.txt', blob]]) })
    const repo = (await GitRepo.open(dir))!
    expect((await repo.treeEntries(tree)).map((e) => e.path)).toEqual(['ok.txt'])
    expect([...(await repo.listTree(tree)).keys()]).toEqual(['ok.txt'])
    expect([...repo.unsafeNames].sort()).toEqual(['..', '.GIT', 'a\\b'])
  })

  it('covers the spellings Windows folds into . .. and .git', () => {
    for (const n of ['', '.', '..', '... ', '.git', '.Git.', 'git~1', '.git~2', 'a/b', 'a\\b']) expect(isUnsafeEntryName(n)).toBe(true)
    for (const n of ['a', '.gitignore', '..a', 'git~x', 'src']) expect(isUnsafeEntryName(n)).toBe(false)
  })
})
