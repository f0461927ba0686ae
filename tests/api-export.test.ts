/** The export methods of the API: selections, default folder, progress by task id, content for download, refusals. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApi } from '../src/main/api'
import { findAppRoot, type AppContext } from '../src/main/context'
import { CHROMIUM } from './e2e/helpers'

const ROOT = findAppRoot()
const CC = join(ROOT, 'fixtures/real/claude-code/home')
const CLINE = join(ROOT, 'fixtures/real/cline/home')
const tmp = (n: string) => mkdtempSync(join(tmpdir(), `sepia-api-export-${n}-`))

function context(over: Partial<AppContext> = {}): AppContext {
  return {
    mode: 'browser',
    version: '9.9.9',
    platform: 'linux',
    homes: [CC, CLINE],
    fixturesDir: join(ROOT, 'fixtures'),
    env: { CHROMIUM_PATH: CHROMIUM },
    ownHome: tmp('own'),
    appDataDir: tmp('data'),
    now: () => Date.UTC(2027, 0, 2, 3, 4, 5),
    ...over,
  }
}

describe('exportSessions', () => {
  it('exports a selection into the app data folder by default and reports progress', async () => {
    const ctx = context()
    const api = createApi(ctx)
    const r = await api.exportSessions({ sessions: [{ agent: 'cline', id: '1796022183774_v75nv' }, { agent: 'claude-code', id: 'c79310a4-1627-4beb-8788-81d2e0fc6af8' }], format: 'json', taskId: 't1' })
    expect(r.outDir).toBe(join(ctx.appDataDir!, 'exports', '2027-01-02T03-04-05'))
    expect(r.files.map((f) => `${f.agent}/${f.sessionId}`)).toEqual(['cline/1796022183774_v75nv', 'claude-code/c79310a4-1627-4beb-8788-81d2e0fc6af8'])
    const doc = JSON.parse(readFileSync(r.files[0]!.path, 'utf8')) as { exportedBy: string; session: { id: string } }
    expect(doc).toMatchObject({ exportedBy: 'Sepia 9.9.9', session: { id: '1796022183774_v75nv' } })
    expect(r.files[0]!.bytes).toBe(readFileSync(r.files[0]!.path).length)
    expect(await api.getTaskProgress('t1')).toMatchObject({ state: 'done', done: 2, total: 2, phase: 'export' })
  })

  it('checks the folder and the selection before writing anything', async () => {
    const api = createApi(context())
    await expect(api.exportSessions({ sessions: { all: true }, format: 'md', outDir: '/not/an/allowed/folder' })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    // An opened home is not a write root (issue 16); even picked, an agent's store folder is refused.
    await expect(api.exportSessions({ sessions: { all: true }, format: 'md', outDir: join(CC, '.claude', 'projects', 'out') })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' })
    api.paths.allow(CC, 'picked')
    await expect(api.exportSessions({ sessions: { all: true }, format: 'md', outDir: join(CC, '.claude', 'projects', 'out') })).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining('Sepia does not write there') })
    expect(existsSync(join(CC, '.claude', 'projects', 'out'))).toBe(false)
    await expect(api.exportSessions({ sessions: { all: true }, format: 'rtf' as 'md' })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    await expect(api.exportSessions({ sessions: [{ agent: 'cline', id: 'missing' }], format: 'md' })).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' })
    await expect(api.exportSessions({ sessions: { all: true }, format: 'md', includeThinking: 'no' as unknown as boolean })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    const picked = tmp('picked')
    api.paths.allow(picked, 'picked')
    const r = await api.exportSessions({ sessions: { project: '/home/ana/src/invoice-service' }, format: 'md', outDir: join(picked, 'new') })
    expect(r.files.length).toBeGreaterThan(0)
    expect(r.files.every((f) => f.agent === 'cline')).toBe(true)
  })
})

describe('exportSessionContent', () => {
  it('returns text formats as UTF-8 and PDF as base64, with a safe file name', async () => {
    const api = createApi(context())
    const md = await api.exportSessionContent('claude-code', 'c79310a4-1627-4beb-8788-81d2e0fc6af8', 'md', { includeThinking: false })
    expect(md).toMatchObject({ encoding: 'utf8', mimeType: 'text/markdown; charset=utf-8', fileName: 'claude-code_2026-11-30_tools-List-the-files-then-create-NOTES.m_c79310a4-1627-4beb-8788-81d2e0fc6af8.md' })
    expect(md.content).toContain('# [tools] List the files')
    expect(md.content).not.toContain('Thinking')
    const html = await api.exportSessionContent('cline', '1796022183774_v75nv', 'html')
    expect(html.content.startsWith('<!doctype html>')).toBe(true)
    if (existsSync(CHROMIUM)) {
      const pdf = await api.exportSessionContent('claude-code', 'c79310a4-1627-4beb-8788-81d2e0fc6af8', 'pdf')
      expect(pdf.encoding).toBe('base64')
      expect(Buffer.from(pdf.content, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-')
    }
    const noEngine = createApi(context({ env: {}, platform: 'darwin' }))
    await expect(noEngine.exportSessionContent('claude-code', 'c79310a4-1627-4beb-8788-81d2e0fc6af8', 'pdf')).rejects.toMatchObject({ code: 'UNAVAILABLE' })
  })
})
