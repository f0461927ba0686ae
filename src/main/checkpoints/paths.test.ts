/** Path checks: what a checkpoint may name, and where on disk it may land. */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { relativeCheckpointPath, safeLinkTarget, safeTargetPath } from './paths'
import { removeDir, tempDir } from '../../../tests/builders/checkpoints/testing'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeDir))

describe('relativeCheckpointPath', () => {
  it('keeps relative paths and turns absolute ones inside the project into relative ones', () => {
    expect(relativeCheckpointPath('src/a.ts')).toEqual({ ok: true, value: 'src/a.ts' })
    expect(relativeCheckpointPath('./src//a.ts')).toEqual({ ok: true, value: 'src/a.ts' })
    expect(relativeCheckpointPath('src\\win\\a.ts')).toEqual({ ok: true, value: 'src/win/a.ts' })
    expect(relativeCheckpointPath('/home/ana/p/src/a.ts', '/home/ana/p')).toEqual({ ok: true, value: 'src/a.ts' })
    expect(relativeCheckpointPath('C:\\Users\\ana\\p\\src\\a.ts', 'C:\\Users\\ana\\p')).toEqual({ ok: true, value: 'src/a.ts' })
  })

  it('refuses "..", absolute paths elsewhere, drives, .git and NUL', () => {
    const reason = (p: string, project?: string) => {
      const r = relativeCheckpointPath(p, project)
      return r.ok ? 'ok' : r.reason
    }
    expect(reason('../x')).toContain('leaves the project folder')
    expect(reason('a/../../x')).toContain('leaves the project folder')
    expect(reason('a\\..\\..\\x')).toContain('leaves the project folder')
    expect(reason('/etc/passwd', '/home/ana/p')).toContain('outside the project folder /home/ana/p')
    expect(reason('/home/ana/p2/x', '/home/ana/p')).toContain('outside the project folder')
    expect(reason('/etc/passwd')).toContain('recorded no project folder')
    expect(reason('D:\\x.txt', 'C:\\p')).toContain('outside the project folder')
    expect(reason('.git/hooks/pre-commit')).toContain('.git folder')
    expect(reason('sub/.GIT/config')).toContain('.git folder')
    expect(reason('a\0b')).toContain('NUL')
    expect(reason('/home/ana/p', '/home/ana/p')).toContain('outside the project folder')
  })
})

describe('safeTargetPath / safeLinkTarget', () => {
  it('follows links only while they stay inside the folder', async () => {
    const root = tempDir('paths')
    dirs.push(root)
    const proj = join(root, 'proj')
    mkdirSync(join(proj, 'real'), { recursive: true })
    mkdirSync(join(root, 'out'))
    symlinkSync(join(proj, 'real'), join(proj, 'inner'))
    symlinkSync(join(root, 'out'), join(proj, 'outer'))
    writeFileSync(join(proj, 'file'), 'x')
    mkdirSync(join(proj, 'dir'))
    expect(await safeTargetPath(proj, 'inner/a.txt')).toEqual({ ok: true, value: join(proj, 'inner/a.txt') })
    expect(await safeTargetPath(proj, 'new/deep/a.txt')).toEqual({ ok: true, value: join(proj, 'new/deep/a.txt') })
    expect(await safeTargetPath(proj, 'outer/a.txt')).toMatchObject({ ok: false, reason: expect.stringContaining('outside the project folder') })
    expect(await safeTargetPath(proj, 'file/a.txt')).toMatchObject({ ok: false, reason: expect.stringContaining('is a file on disk') })
    expect(await safeTargetPath(proj, 'dir')).toMatchObject({ ok: false, reason: expect.stringContaining('is a folder on disk') })
    expect(safeLinkTarget(proj, join(proj, 'a/link'), '../b.txt')).toEqual({ ok: true, value: '../b.txt' })
    expect(safeLinkTarget(proj, join(proj, 'a/link'), '../../b.txt').ok).toBe(false)
    expect(safeLinkTarget(proj, join(proj, 'link'), '/etc/passwd').ok).toBe(false)
  })
})
