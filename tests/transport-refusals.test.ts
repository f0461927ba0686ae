/**
 * Issue 9 item 5: the loopback server refuses everything that is not the app's own call, one test
 * per refusal: no token or a wrong one, a foreign or spoofed Host (DNS rebinding), a foreign
 * Origin, a method that is not a SepiaApi method (prototype names included), a non-POST call, a
 * body that is not `{"args": [...]}`, an oversized body, and arguments the API does not accept.
 * The real API stands behind the server.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../src/main/api'
import { findAppRoot } from '../src/main/context'
import { startHttpServer, type HttpServerHandle } from '../src/main/transport/http'

const ROOT = findAppRoot()

interface Answer {
  status: number
  body: string
}

function send(port: number, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
  return new Promise((ok) => {
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'POST', headers: opts.headers, setHost: !opts.headers || !('host' in opts.headers) }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }))
    })
    // A refused oversized upload may reset the connection: that is a refusal too.
    req.on('error', () => ok({ status: -1, body: '' }))
    if (opts.body) req.write(opts.body)
    req.end()
  })
}

describe('loopback server refusals (real API behind it)', () => {
  let h: HttpServerHandle
  const token = 'a'.repeat(64)
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-renderer-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Sepia</title>')
    const api = createApi({ mode: 'browser', version: '0', platform: 'linux', homes: [join(ROOT, 'fixtures/real/cline/home')], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: mkdtempSync(join(tmpdir(), 'sepia-own-')), appDataDir: mkdtempSync(join(tmpdir(), 'sepia-data-')) })
    h = await startHttpServer({ api, rendererDir: dir, token })
  })
  afterAll(() => h.close())

  const headers = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', 'x-sepia-token': token, ...extra })
  const call = (method: string, args: unknown[] = [], extra: Record<string, string> = {}) => send(h.port, `/api/${method}`, { headers: headers(extra), body: JSON.stringify({ args }) })
  const error = (a: Answer) => (JSON.parse(a.body) as { error?: { code: string } }).error?.code

  it('binds to 127.0.0.1 only and answers the app’s own call', async () => {
    expect((h.server.address() as { address: string }).address).toBe('127.0.0.1')
    const ok = await call('getAppInfo')
    expect(ok.status).toBe(200)
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { name: 'Sepia', mode: 'browser' } })
  })

  it('refuses a call without the token, with a wrong one, or with the token in the URL instead', async () => {
    for (const t of ['', 'b'.repeat(64), token.slice(1), token + 'a', token.toUpperCase()]) {
      const r = await call('getAppInfo', [], { 'x-sepia-token': t })
      expect(r.status, t).toBe(401)
      expect(error(r)).toBe('UNAUTHORIZED')
    }
    const inUrl = await send(h.port, `/api/getAppInfo?token=${token}`, { headers: { 'content-type': 'application/json' }, body: '{"args":[]}' })
    expect(inUrl.status).toBe(401)
  })

  it('refuses foreign and spoofed Host headers (DNS rebinding)', async () => {
    for (const host of ['evil.example', `evil.example:${h.port}`, `localhost.evil.example:${h.port}`, `127.0.0.1.nip.io:${h.port}`, `127.0.0.1:${h.port + 1}`, '127.0.0.1', `[::1]:${h.port}`]) {
      const r = await call('getAppInfo', [], { host })
      expect(r.status, host).toBe(403)
      expect(error(r)).toBe('UNAUTHORIZED')
    }
  })

  it('refuses foreign Origins, including null, other ports and https', async () => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${h.port + 1}`, `https://127.0.0.1:${h.port}`, `http://localhost.evil.example:${h.port}`]) {
      const r = await call('getAppInfo', [], { origin })
      expect(r.status, origin).toBe(403)
    }
    expect((await call('getAppInfo', [], { origin: `http://127.0.0.1:${h.port}` })).status).toBe(200)
  })

  it('accepts only SepiaApi method names (no prototype members, no case tricks, no paths)', async () => {
    for (const m of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'GETAPPINFO', 'getAppInfo%2F..', 'library', 'paths', 'getAppInfo/x', '']) {
      const r = await call(m)
      expect(r.status, m).toBe(404)
      expect(error(r)).toBe('UNKNOWN_METHOD')
    }
  })

  it('refuses other HTTP methods and bodies that are not {"args": [...]}', async () => {
    expect((await send(h.port, '/api/getAppInfo', { method: 'GET', headers: headers() })).status).toBe(405)
    expect((await send(h.port, '/api/getAppInfo', { method: 'PUT', headers: headers(), body: '{"args":[]}' })).status).toBe(405)
    for (const body of ['not json', '{"args": {"0": 1}}', '{"args": "x"}']) {
      const r = await send(h.port, '/api/getAppInfo', { headers: headers(), body })
      expect(r.status, body).toBe(400)
      expect(error(r)).toBe('BAD_ARGUMENT')
    }
  })

  it('refuses an oversized body', async () => {
    const r = await send(h.port, '/api/openHome', { headers: headers(), body: JSON.stringify({ args: ['x'.repeat(2 << 20)] }) })
    expect(r.status === -1 || r.status >= 400).toBe(true)
  })

  it('validates arguments in main: wrong types and unknown agents are refused with a code', async () => {
    expect(error(await call('getSession', [42, {}]))).toBe('UNKNOWN_AGENT')
    expect(error(await call('getSession', ['cline', 42]))).toBe('BAD_ARGUMENT')
    expect(error(await call('getSession', ['cline', '../../etc/passwd']))).toBe('SESSION_NOT_FOUND')
    expect(error(await call('revealSecrets', ['nobody', 'x']))).toBe('UNKNOWN_AGENT')
    expect(error(await call('revealSecrets', ['cline', ''])) ).toBe('BAD_ARGUMENT')
    expect(error(await call('openHome', [{ path: '/' }]))).toBe('BAD_ARGUMENT')
    expect(error(await call('openHome', ['/nonexistent/sepia/folder']))).toBe('NOT_FOUND')
  })
})
