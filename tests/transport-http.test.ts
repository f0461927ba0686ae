/** The loopback transport: a thin layer over the API that refuses what is not the app's own call. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SepiaApi } from '../src/shared/api'
import { SepiaError } from '../src/shared/api'
import { startHttpServer, type HttpServerHandle } from '../src/main/transport/http'

const fakeApi = {
  getAppInfo: async () => ({ name: 'Sepia', version: '9.9.9', mode: 'browser', irVersion: 1, platform: 'linux' }),
  getLibrary: async () => ({ homes: [], agents: [], sessions: [], diagnostics: [], loadedAt: 0 }),
  openHome: async (p: string) => {
    throw new SepiaError({ code: 'NOT_FOUND', message: `The folder ${p} does not exist.`, path: p })
  },
  openDemo: async () => ({ homes: [], agents: [], sessions: [], diagnostics: [], loadedAt: 0 }),
  getSession: async () => {
    throw new SepiaError({ code: 'SESSION_NOT_FOUND', message: 'none' })
  },
  pickFolder: async () => null,
} as unknown as SepiaApi

function call(port: number, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8'), headers: res.headers }))
    })
    req.on('error', fail)
    if (opts.body) req.write(opts.body)
    req.end()
  })
}

describe('loopback HTTP transport', () => {
  let h: HttpServerHandle
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-renderer-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Sepia</title>')
    h = await startHttpServer({ api: fakeApi, rendererDir: dir, token: 't0ken' })
  })
  afterAll(() => h.close())

  const api = (method: string, token = 't0ken', args: unknown[] = [], extra: Record<string, string> = {}) =>
    call(h.port, `/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sepia-token': token, ...extra }, body: JSON.stringify({ args }) })

  it('listens on 127.0.0.1 and gives a URL with the token in the fragment', () => {
    expect(h.url).toBe(`http://127.0.0.1:${h.port}/#token=t0ken`)
    const addr = h.server.address()
    expect(typeof addr === 'object' && addr?.address).toBe('127.0.0.1')
  })

  it('answers an API call with the envelope', async () => {
    const r = await api('getAppInfo')
    expect(r.status).toBe(200)
    expect(JSON.parse(r.body)).toEqual({ ok: true, value: { name: 'Sepia', version: '9.9.9', mode: 'browser', irVersion: 1, platform: 'linux' } })
  })

  it('carries errors as {code, message, path}', async () => {
    const r = await api('openHome', 't0ken', ['/nope'])
    expect(JSON.parse(r.body)).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'The folder /nope does not exist.', path: '/nope' } })
  })

  it('refuses a call without the token or with a wrong one', async () => {
    expect((await api('getAppInfo', '')).status).toBe(401)
    expect((await api('getAppInfo', 'wrong')).status).toBe(401)
  })

  it('refuses unknown methods, foreign origins and foreign Host headers (DNS rebinding)', async () => {
    expect((await api('constructor')).status).toBe(404)
    expect((await api('getAppInfo', 't0ken', [], { origin: 'http://evil.example' })).status).toBe(403)
    expect((await api('getAppInfo', 't0ken', [], { host: 'evil.example:80' })).status).toBe(403)
  })

  it('serves the renderer with a CSP and nothing outside its folder', async () => {
    const page = await call(h.port, '/')
    expect(page.status).toBe(200)
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'self'")
    expect((await call(h.port, '/../package.json')).status).not.toBe(200)
    expect((await call(h.port, '/%2e%2e/%2e%2e/etc/passwd')).status).not.toBe(200)
  })
})
