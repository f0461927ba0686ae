/** Issue 16: a zip is opened within limits (entries, size, ratio) and says why; a bad % escape is a 400. */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import type { SepiaApi } from '../src/shared/api'
import { extractZip } from '../src/main/bundle/zip'
import { startHttpServer } from '../src/main/transport/http'
import { createApi } from '../src/main/api'
import { findAppRoot } from '../src/main/context'

const tmp = (n: string) => mkdtempSync(join(tmpdir(), `sepia-i16z-${n}-`))

describe('issue 16: zip limits', () => {
  it('refuses too many entries, too many bytes, and a ratio past the cap, in plain words', async () => {
    const dir = tmp('zip')
    const bomb = join(dir, 'bomb.zip')
    writeFileSync(bomb, zipSync({ 'home/.claude/projects/x/a.jsonl': new Uint8Array(80 * 1024 * 1024) }, { level: 9 }))
    await expect(extractZip(bomb, join(dir, 'out1'))).rejects.toThrow(/did not unpack this zip: it would unpack to 80 MB, more than 64 MB/)
    const many = join(dir, 'many.zip')
    const files: Record<string, Uint8Array> = {}
    for (let i = 0; i < 30; i++) files[`f${i}.txt`] = new Uint8Array([65])
    writeFileSync(many, zipSync(files))
    await expect(extractZip(many, join(dir, 'out2'), { limits: { maxEntries: 10 } })).rejects.toThrow(/30 entries, more than the 10/)
    expect((await extractZip(many, join(dir, 'out3'))).files).toHaveLength(30)
    // The API says the same, and leaves nothing extracted behind.
    const data = tmp('data')
    const api = createApi({ mode: 'browser', version: '9', platform: 'linux', homes: [], fixturesDir: join(findAppRoot(), 'fixtures'), env: {}, ownHome: tmp('own'), appDataDir: data })
    await expect(api.openHome(bomb)).rejects.toMatchObject({ code: 'READ_FAILED', message: expect.stringContaining('did not unpack this zip') })
    expect(readdirSync(join(data, 'opened')).flatMap((d) => readdirSync(join(data, 'opened', d)))).toEqual([])
  }, 30_000)
})

describe('issue 16: HTTP', () => {
  it('answers a malformed % escape in the path with 400', async () => {
    const dir = tmp('renderer')
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Sepia</title>')
    const h = await startHttpServer({ api: {} as SepiaApi, rendererDir: dir, token: 't0ken' })
    try {
      const status = await new Promise<number>((ok, fail) => {
        const req = request({ host: '127.0.0.1', port: h.port, path: '/%E0%A4%A', method: 'GET' }, (res) => {
          res.resume()
          ok(res.statusCode ?? 0)
        })
        req.on('error', fail)
        req.end()
      })
      expect(status).toBe(400)
    } finally {
      await h.close()
    }
  })
})
