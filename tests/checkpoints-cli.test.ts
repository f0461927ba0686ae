/** `sepia checkpoints | restore | undo-restore | restores` on the real fixture stores. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findAppRoot } from '../src/main/context'
import { git, projectFromBundle, removeDir, tempDir } from './builders/checkpoints/testing'
import { runCli } from './helpers/cli-run'

const ROOT = findAppRoot()
const CC = join(ROOT, 'fixtures/real/claude-code/home')
const CLINE = join(ROOT, 'fixtures/real/cline/home')
const NOTES = '# Notes\n\nDONE: write tests for the parser\n'
const dirs: string[] = []
let proj: string
let clineProj: string
const savedDataDir = process.env.SEPIA_DATA_DIR

beforeAll(() => {
  const data = tempDir('cli-data')
  const root = tempDir('cli')
  dirs.push(data, root)
  process.env.SEPIA_DATA_DIR = data
  proj = join(root, 'ledger-api')
  projectFromBundle(join(ROOT, 'fixtures/real/claude-code/project.bundle'), proj)
  clineProj = join(root, 'invoice-service')
  projectFromBundle(join(ROOT, 'fixtures/real/cline/project.bundle'), clineProj)
})
afterAll(() => {
  if (savedDataDir === undefined) delete process.env.SEPIA_DATA_DIR
  else process.env.SEPIA_DATA_DIR = savedDataDir
  dirs.forEach(removeDir)
})

const run = runCli

describe('sepia checkpoints / restore / undo-restore', () => {
  it('lists a session\'s checkpoints as text and JSON', async () => {
    const j = await run('checkpoints', 'c79310a4', '--home', CC, '--json')
    expect(j.code).toBe(0)
    const list = JSON.parse(j.out)
    expect(list).toMatchObject({ agent: 'claude-code', sessionId: 'c79310a4-1627-4beb-8788-81d2e0fc6af8', projectDir: '/home/ana/src/ledger-api', projectExists: false })
    expect(list.checkpoints.map((c: { ref: string }) => c.ref)).toEqual(['c8f99279-f909-450f-a3cd-d2f1f9cd56fe', '4448b5b7-52dd-4503-adc9-aabd237237f8'])
    const t = await run('checkpoints', 'c79310a4', '--home', CC)
    expect(t.out).toContain('Restores need --to DIR: The project folder /home/ana/src/ledger-api is not on this computer')
    expect(t.out).toContain('  2  4448b5b7-52d  file-history')
    expect(t.out).toContain('Before "[resume] Continue: re-read NOTES.md."')
  })

  it('previews with --dry-run (writes nothing), restores with --to, and undoes', async () => {
    const dry = await run('restore', 'c79310a4', '2', '--to', proj, '--dry-run', '--home', CC)
    expect(dry.code).toBe(0)
    expect(dry.out).toContain('A NOTES.md')
    expect(dry.out).toContain('+DONE: write tests for the parser')
    expect(existsSync(join(proj, 'NOTES.md'))).toBe(false)

    const r = await run('restore', 'c79310a4', '4448b5b7', '--to', proj, '--home', CC, '--json')
    expect(r.code).toBe(0)
    const result = JSON.parse(r.out)
    expect(result).toMatchObject({ written: ['NOTES.md'], targetDir: proj })
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe(NOTES)

    const u = await run('undo-restore', result.restoreId)
    expect(u.code).toBe(0)
    expect(u.out).toContain('Put back 1 file.')
    expect(existsSync(join(proj, 'NOTES.md'))).toBe(false)
    const list = JSON.parse((await run('restores', '--json')).out)
    expect(list[0]).toMatchObject({ restoreId: result.restoreId, state: 'undone', sessionId: 'c79310a4-1627-4beb-8788-81d2e0fc6af8' })
    // The restore wrote one file (NOTES.md): "1 file", not "1 files".
    const text = (await run('restores')).out
    expect(text).toContain(`${result.restoreId}  undone       ${'  1 file '}  claude-code`)
    expect(text).not.toContain('1 files')
  })

  it('restores only --files from a Cline commit checkpoint and prints the undo command', async () => {
    writeFileSync(join(clineProj, 'Makefile'), 'broken\n')
    writeFileSync(join(clineProj, 'NOTES.md'), 'later\n')
    const r = await run('restore', '1796022183774_v75nv', '4a8248dd', '--to', clineProj, '--files', 'Makefile', '--home', CLINE)
    expect(r.code).toBe(0)
    expect(r.out).toContain('Restored 1 file in')
    expect(r.out).toMatch(/Undo with: sepia undo-restore \S+-1796022183774_v75nv/)
    expect(readFileSync(join(clineProj, 'Makefile'), 'utf8')).toBe(git(clineProj, 'show', 'HEAD:Makefile') + '\n')
    expect(readFileSync(join(clineProj, 'NOTES.md'), 'utf8')).toBe('later\n')
  })

  it('says plainly what is wrong', async () => {
    const noTarget = await run('restore', 'c79310a4', '1', '--home', CC)
    expect(noTarget.code).toBe(1)
    expect(noTarget.err).toContain('is not on this computer')
    const bad = await run('restore', 'c79310a4', '9', '--to', proj, '--home', CC)
    expect(bad.code).toBe(1)
    expect(bad.err).toContain('No checkpoint "9"')
    expect((await run('restore', 'c79310a4', '--home', CC)).code).toBe(2)
    const undo = await run('undo-restore', 'no-such-restore')
    expect(undo.code).toBe(1)
    expect(undo.err).toContain('There is no restore "no-such-restore"')
  })
})
