/** The checkpoint methods through createApi(): path policy on folders, JSON-safe results, errors. */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { API_METHODS, callEnveloped } from '../src/shared/api'
import { createApi } from '../src/main/api'
import { findAppRoot, type AppContext } from '../src/main/context'
import { projectFromBundle, removeDir, tempDir } from './builders/checkpoints/testing'

const ROOT = findAppRoot()
const CC = join(ROOT, 'fixtures/real/claude-code/home')
const TOOLS = 'c79310a4-1627-4beb-8788-81d2e0fc6af8'
const RESUME = '4448b5b7-52dd-4503-adc9-aabd237237f8'
const dirs: string[] = []
afterAll(() => dirs.forEach(removeDir))

function context(appDataDir: string): AppContext {
  return { mode: 'browser', version: '0.0.0-test', platform: 'linux', homes: [CC], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: '/nonexistent-home', now: () => 1_796_100_000_000, appDataDir }
}

describe('checkpoint API methods', () => {
  it('are listed for the transports', () => {
    for (const m of ['listCheckpoints', 'previewRestore', 'restoreCheckpoint', 'undoRestore', 'listRestores']) expect(API_METHODS).toContain(m)
  })

  it('check the folders the renderer names, then preview, restore, list and undo', async () => {
    const data = tempDir('api-data')
    const root = tempDir('api')
    dirs.push(data, root)
    const proj = join(root, 'ledger-api')
    projectFromBundle(join(ROOT, 'fixtures/real/claude-code/project.bundle'), proj)
    const api = createApi(context(data))

    const list = await api.listCheckpoints('claude-code', TOOLS)
    expect(list.checkpoints.map((c) => c.fileCount)).toEqual([1, 1])
    expect(JSON.parse(JSON.stringify(list))).toEqual(list)

    await expect(api.previewRestore('claude-code', TOOLS, RESUME, { targetDir: proj })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    await expect(api.previewRestore('claude-code', TOOLS, RESUME, { targetDir: 'relative/dir' })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    await expect(api.previewRestore('claude-code', TOOLS, RESUME)).rejects.toMatchObject({ code: 'TARGET_REQUIRED' })
    const env = await callEnveloped(api, 'previewRestore', ['claude-code', TOOLS, 'nope', {}])
    expect(env).toMatchObject({ ok: false, error: { code: 'CHECKPOINT_NOT_FOUND' } })

    api.paths.allow(proj, 'picked') // what pickFolder() does for a folder the user chose
    const pv = await api.previewRestore('claude-code', TOOLS, RESUME, { targetDir: proj })
    expect(pv).toMatchObject({ targetDir: proj, counts: { added: 1, modified: 0, deleted: 0, unchanged: 0 }, files: [{ path: 'NOTES.md', status: 'added' }] })
    const r = await api.restoreCheckpoint('claude-code', TOOLS, RESUME, { targetDir: proj })
    expect(readFileSync(join(proj, 'NOTES.md'), 'utf8')).toBe('# Notes\n\nDONE: write tests for the parser\n')
    expect(r.backupDir!.startsWith(join(data, 'restores'))).toBe(true)
    expect((await api.listRestores()).map((x) => [x.restoreId, x.state])).toEqual([[r.restoreId, 'done']])
    expect(await api.undoRestore(r.restoreId!)).toEqual({ restored: ['NOTES.md'], skipped: [] })
    expect(existsSync(join(proj, 'NOTES.md'))).toBe(false)
    await expect(api.listCheckpoints('nobody' as never, TOOLS)).rejects.toMatchObject({ code: 'UNKNOWN_AGENT' })
  })
})
