/**
 * Restoring the real stores' checkpoints: `fixtures/real/cline` (SDK stash/commit refs, project in
 * `project.bundle`) and `fixtures/real/claude-code` (file-history backups, project in its bundle).
 * The projects are rebuilt from the bundles in temp folders (git command, tests only), changed,
 * restored, and compared byte for byte with the checkpoint; the stores and `.git` stay unchanged.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claudeCode } from '../agents/claude-code'
import { cline } from '../agents/cline'
import { findAppRoot } from '../context'
import { createCheckpointService, type CheckpointService } from './index'
import { git, libraryFor, projectFromBundle, removeDir, snapshotDir, tempDir } from '../../../tests/builders/checkpoints/testing'

const ROOT = findAppRoot()
const CLINE_HOME = join(ROOT, 'fixtures/real/cline/home')
const CC_HOME = join(ROOT, 'fixtures/real/claude-code/home')
const TOOLS = '1796022183774_v75nv'
const RUN1 = '4a8248dd2aa6fea51dd294af347e6c12a0402036'
const RUN2 = 'e95b85770d55bcdf2956a609040317216101fb20'
const CC_TOOLS = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
const CC_TUI = 'db9d5855-d967-440c-8eac-0e5a668d0e19'
const CC_FIRST = 'c8f99279-f909-450f-a3cd-d2f1f9cd56fe'
const CC_RESUME = '4448b5b7-52dd-4503-adc9-aabd237237f8'
const NOTES = '# Notes\n\nDONE: write tests for the parser\n'

const dirs: string[] = []
function temp(prefix: string): string {
  const d = tempDir(prefix)
  dirs.push(d)
  return d
}
afterAll(() => dirs.forEach(removeDir))

async function service(homes: string[], own = false): Promise<{ svc: CheckpointService; data: string }> {
  const data = temp('data')
  const library = await libraryFor([claudeCode, cline], homes, own)
  return { svc: createCheckpointService({ library, appDataDir: data, now: () => 1_796_100_000_000 }), data }
}

describe('Cline SDK checkpoints (fixtures/real/cline)', () => {
  let proj: string
  let storeBefore: Map<string, string>
  beforeAll(() => {
    proj = join(temp('cline'), 'invoice-service')
    projectFromBundle(join(ROOT, 'fixtures/real/cline/project.bundle'), proj)
    storeBefore = snapshotDir(CLINE_HOME)
  })

  it('lists the run-1 commit and run-2 stash with their messages and covered files', async () => {
    const { svc } = await service([CLINE_HOME])
    const missing = await svc.list('cline', TOOLS)
    expect(missing).toMatchObject({ projectDir: '/home/ana/src/invoice-service', projectExists: false })
    expect(missing.defaultTarget).toBeUndefined()
    expect(missing.targetNote).toContain('/home/ana/src/invoice-service is not on this computer')
    expect(missing.checkpoints.map((c) => c.problem)).toEqual([expect.stringContaining('not in /home/ana/src/invoice-service'), expect.stringContaining('not in')])

    const list = await svc.list('cline', TOOLS, { targetDir: proj })
    expect(list.store).toBe(join(proj, '.git'))
    expect(list.checkpoints).toEqual([
      { id: RUN1, ref: RUN1, kind: 'commit', createdAt: 1796022184149, runCount: 1, nodeId: 'bfd5cb1a-4d40-4484-9500-a91b5b8468e9', label: 'Run 1: before "[tools] List the files, then create NOTES.md and mark its T…"', fileCount: 2 },
      { id: RUN2, ref: RUN2, kind: 'stash', createdAt: 1796022222199, runCount: 2, nodeId: 'aaeb660d-ee6c-46e7-a6f7-f3a399f01f65', label: 'Run 2: before "[resume] Continue: re-read NOTES.md."', fileCount: 1 },
    ])
  })

  it('previews, restores (bytes equal the checkpoint), and undoes the run-2 stash with its untracked NOTES.md', async () => {
    const { svc, data } = await service([CLINE_HOME])
    const gitBefore = snapshotDir(join(proj, '.git'))
    writeFileSync(join(proj, 'NOTES.md'), 'scratch\n')
    const pv = await svc.preview('cline', TOOLS, RUN2, { targetDir: proj })
    expect(pv.counts).toEqual({ added: 0, modified: 1, deleted: 0, unchanged: 0 })
    expect(pv.files[0]).toMatchObject({ path: 'NOTES.md', status: 'modified', binary: false, sizeBefore: 8, sizeAfter: 42 })
    expect(pv.files[0]!.diff).toContain('-scratch\n+# Notes\n+\n+DONE: write tests for the parser')

    const r = await svc.restore('cline', TOOLS, RUN2, { targetDir: proj })
    expect(r.written).toEqual(['NOTES.md'])
    // the checkpoint's bytes, as git itself shows them (third parent = untracked files)
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe(git(proj, 'show', `${RUN2}^3:NOTES.md`) + '\n')
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe(NOTES)
    expect(readFileSync(join(r.backupDir!, 'files/0'), 'utf8')).toBe('scratch\n')
    const manifest = JSON.parse(readFileSync(join(r.backupDir!, 'manifest.json'), 'utf8'))
    expect(manifest).toMatchObject({ target: proj, state: 'done', files: [{ path: 'NOTES.md', existedBefore: true, backupName: 'files/0', mode: 0o644 }] })
    expect(r.backupDir!.startsWith(join(data, 'restores'))).toBe(true)

    expect(await svc.undo(r.restoreId!)).toEqual({ restored: ['NOTES.md'], skipped: [] })
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe('scratch\n')
    expect((await svc.restores())[0]).toMatchObject({ restoreId: r.restoreId, state: 'undone', fileCount: 1, agent: 'cline', sessionId: TOOLS })
    rmSync(join(proj, 'NOTES.md'))
    expect(snapshotDir(join(proj, '.git'))).toEqual(gitBefore)
  })

  it('restores the run-1 commit: a later untracked file is deleted, a changed tracked file put back', async () => {
    const { svc } = await service([CLINE_HOME])
    writeFileSync(join(proj, 'NOTES.md'), NOTES)
    writeFileSync(join(proj, 'Makefile'), 'run:\n\techo changed\n')
    const pv = await svc.preview('cline', TOOLS, RUN1, { targetDir: proj })
    expect(pv.files.map((f) => [f.path, f.status])).toEqual([['Makefile', 'modified'], ['NOTES.md', 'deleted']])
    const r = await svc.restore('cline', TOOLS, RUN1, { targetDir: proj })
    expect(r.written.sort()).toEqual(['Makefile', 'NOTES.md'])
    expect(existsSync(join(proj, 'NOTES.md'))).toBe(false)
    expect(readFileSync(join(proj, 'Makefile'), 'utf8')).toBe(git(proj, 'show', `${RUN1}:Makefile`) + '\n')
    expect(git(proj, 'status', '--porcelain')).toBe('')
    await svc.undo(r.restoreId!)
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe(NOTES)
    expect(readFileSync(join(proj, 'Makefile'), 'utf8')).toBe('run:\n\techo changed\n')
    git(proj, 'checkout', '-q', '--', 'Makefile')
    rmSync(join(proj, 'NOTES.md'))
  })

  it('needs a folder when the recorded project is missing, and leaves the store unchanged', async () => {
    const { svc } = await service([CLINE_HOME])
    await expect(svc.preview('cline', TOOLS, RUN2)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(svc.preview('cline', TOOLS, 'nope', { targetDir: proj })).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' })
    expect(snapshotDir(CLINE_HOME)).toEqual(storeBefore)
  })
})

describe('Claude Code file history (fixtures/real/claude-code)', () => {
  let proj: string
  let storeBefore: Map<string, string>
  beforeAll(() => {
    proj = join(temp('cc'), 'ledger-api')
    projectFromBundle(join(ROOT, 'fixtures/real/claude-code/project.bundle'), proj)
    storeBefore = snapshotDir(CC_HOME)
  })

  it('lists the two snapshots of the tools session, each tracking NOTES.md', async () => {
    const { svc } = await service([CC_HOME])
    const list = await svc.list('claude-code', CC_TOOLS)
    expect(list.store).toBe(join(CC_HOME, '.claude/file-history', CC_TOOLS))
    expect(list.checkpoints.map((c) => [c.id, c.kind, c.nodeId, c.fileCount, c.label])).toEqual([
      [CC_FIRST, 'file-history', CC_FIRST, 1, 'Before "[tools] List the files, then create NOTES.md and mark its T…"'],
      [CC_RESUME, 'file-history', CC_RESUME, 1, 'Before "[resume] Continue: re-read NOTES.md."'],
    ])
  })

  it('restores NOTES.md from backup @v2, deletes it for the snapshot where it did not exist yet, and undoes', async () => {
    const { svc } = await service([CC_HOME])
    const gitBefore = snapshotDir(join(proj, '.git'))
    writeFileSync(join(proj, 'NOTES.md'), '# Notes\r\n\r\nTODO: later\r\n')
    const backup = readFileSync(join(CC_HOME, '.claude/file-history', CC_TOOLS, '657b1f1da8359986@v2'))

    const pv = await svc.preview('claude-code', CC_TOOLS, CC_RESUME, { targetDir: proj })
    expect(pv.files).toMatchObject([{ path: 'NOTES.md', status: 'modified', sizeAfter: backup.length }])
    const r = await svc.restore('claude-code', CC_TOOLS, CC_RESUME, { targetDir: proj })
    expect(readFileSync(join(proj, 'NOTES.md')).equals(backup)).toBe(true)

    const first = await svc.preview('claude-code', CC_TOOLS, CC_FIRST, { targetDir: proj })
    expect(first.files).toMatchObject([{ path: 'NOTES.md', status: 'deleted', sizeBefore: backup.length }])
    const r2 = await svc.restore('claude-code', CC_TOOLS, CC_FIRST, { targetDir: proj })
    expect(r2.written).toEqual(['NOTES.md'])
    expect(existsSync(join(proj, 'NOTES.md'))).toBe(false)

    await svc.undo(r2.restoreId!)
    expect(readFileSync(join(proj, 'NOTES.md')).equals(backup)).toBe(true)
    await svc.undo(r.restoreId!)
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe('# Notes\r\n\r\nTODO: later\r\n') // CRLF kept
    await expect(svc.undo(r.restoreId!)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    rmSync(join(proj, 'NOTES.md'))
    expect(snapshotDir(join(proj, '.git'))).toEqual(gitBefore)
  })

  it('restores the tui session snapshot from its @v1 backup (the file existed before the edit)', async () => {
    const { svc } = await service([CC_HOME])
    const pv = await svc.preview('claude-code', CC_TUI, '1f3deba9-675f-40c8-94b3-e42b4a1d8a35', { targetDir: proj })
    expect(pv.files).toMatchObject([{ path: 'NOTES.md', status: 'added', sizeAfter: 42 }])
    const r = await svc.restore('claude-code', CC_TUI, '1f3deba9-675f-40c8-94b3-e42b4a1d8a35', { targetDir: proj })
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe(NOTES)
    await svc.undo(r.restoreId!)
    expect(existsSync(join(proj, 'NOTES.md'))).toBe(false)
    expect(snapshotDir(CC_HOME)).toEqual(storeBefore)
  })

  it('restores into the recorded project by default when the home is the own home and the folder exists', async () => {
    const home = join(temp('cc-own'), 'home')
    cpSync(CC_HOME, home, { recursive: true })
    const file = join(home, '.claude/projects/-home-ana-src-ledger-api', `${CC_TOOLS}.jsonl`)
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('/home/ana/src/ledger-api', proj))
    const own = await service([home], true)
    const list = await own.svc.list('claude-code', CC_TOOLS)
    expect(list).toMatchObject({ projectDir: proj, projectExists: true, defaultTarget: proj })
    const r = await own.svc.restore('claude-code', CC_TOOLS, CC_RESUME)
    expect(r.targetDir).toBe(proj)
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe(NOTES)
    await own.svc.undo(r.restoreId!)
    expect(existsSync(join(proj, 'NOTES.md'))).toBe(false)

    // the same copy opened as someone else's home: the user must pick the folder
    const copied = await service([home], false)
    const l2 = await copied.svc.list('claude-code', CC_TOOLS)
    expect(l2.defaultTarget).toBeUndefined()
    expect(l2.targetNote).toContain('copied home')
    await expect(copied.svc.restore('claude-code', CC_TOOLS, CC_RESUME)).rejects.toMatchObject({ code: 'TARGET_REQUIRED' })
  })
})
