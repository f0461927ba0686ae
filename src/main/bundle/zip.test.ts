/** Zip reading for bundles: zips made by other tools (stored entries, a top folder), hostile names, damage. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { createApi } from '../api'
import { findAppRoot, type AppContext } from '../context'
import { extractZip, isSafeEntryName, readZipDirectory } from './zip'

const ROOT = findAppRoot()
const tmp = (n: string) => mkdtempSync(join(tmpdir(), `sepia-zip-${n}-`))
const context = (): AppContext => ({ mode: 'browser', version: '0', platform: 'linux', homes: [], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: tmp('own'), appDataDir: tmp('data'), now: () => 0 })

describe('zip reading', () => {
  it('refuses entry names that leave the folder, and extracts the rest', async () => {
    expect(['../x', '/etc/passwd', 'C:/x', 'a/../../x', 'a\0b'].map(isSafeEntryName)).toEqual([false, false, false, false, false])
    expect(isSafeEntryName('.claude/projects/a.jsonl')).toBe(true)
    const dir = tmp('slip')
    const zip = join(dir, 'evil.zip')
    writeFileSync(zip, zipSync({ '../outside.txt': strToU8('no'), 'ok/inside.txt': strToU8('yes') }))
    const dest = join(dir, 'out')
    mkdirSync(dest)
    const r = await extractZip(zip, dest)
    expect(r.files).toEqual(['ok/inside.txt'])
    expect(r.skipped.map((s) => s.name)).toEqual(['../outside.txt'])
    expect(existsSync(join(dir, 'outside.txt'))).toBe(false)
    expect(readFileSync(join(dest, 'ok/inside.txt'), 'utf8')).toBe('yes')
  })

  it('opens a zip another tool made from a home folder (stored entries, one top folder, no manifest)', async () => {
    const dir = tmp('foreign')
    const zip = join(dir, 'ana-home.zip')
    const transcript = readFileSync(join(ROOT, 'fixtures/real/claude-code/home/.claude/projects/-home-ana-src-ledger-api/59d2b1d8-139c-406e-9af8-d7379d3f42fd.jsonl'))
    writeFileSync(zip, zipSync({ 'ana-home/.claude/projects/-home-ana-src-ledger-api/59d2b1d8-139c-406e-9af8-d7379d3f42fd.jsonl': [transcript, { level: 0 }] }))
    expect((await readZipDirectory(zip))[0]).toMatchObject({ method: 0, size: transcript.length })
    const lib = await createApi(context()).openHome(zip)
    expect(lib.sessions.map((s) => `${s.agent}/${s.id}`)).toEqual(['claude-code/59d2b1d8-139c-406e-9af8-d7379d3f42fd'])
    expect(lib.diagnostics.some((d) => d.severity === 'info' && /no Sepia manifest/.test(d.message))).toBe(true)
  })

  it('says a damaged zip cannot be opened', async () => {
    const zip = join(tmp('broken'), 'cut.zip')
    writeFileSync(zip, Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100, 7)]))
    await expect(createApi(context()).openHome(zip)).rejects.toMatchObject({ code: 'READ_FAILED', message: expect.stringContaining('could not be opened as a zip') })
  })
})
