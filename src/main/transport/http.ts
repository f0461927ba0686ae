/**
 * Loopback HTTP transport (browser mode and end-to-end tests): serves the built renderer and
 * exposes {@link SepiaApi} as `POST /api/<method>` with JSON `{"args": [...]}`, answering an
 * `ApiResult` envelope. It adds no logic to the API.
 *
 * Safety: listens on 127.0.0.1 only; every API call must carry the random token in the
 * `x-sepia-token` header; a request whose `Host` is not this server's loopback address or whose
 * `Origin` is foreign is refused (DNS rebinding); only the SepiaApi methods are accepted.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import { checkArgs } from './validate'
import { API_METHODS, callEnveloped, type ApiMethod, type ApiResult, type SepiaApi } from '../../shared/api'

/** Options for {@link startHttpServer}. */
export interface HttpServerOptions {
  /** The API to expose. */
  api: SepiaApi
  /** Folder of the built renderer (`out/renderer`). */
  rendererDir: string
  /** Port; 0 (default) picks a free one. */
  port?: number
  /** Token; a random 32-byte hex string by default. */
  token?: string
}

/** A running server. `url` opens the app (token in the fragment). */
export interface HttpServerHandle {
  server: Server
  port: number
  token: string
  /** `http://127.0.0.1:<port>/#token=<token>` */
  url: string
  close(): Promise<void>
}

const MAX_BODY = 1 << 20
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}
/** The Content-Security-Policy sent with every page (same as the renderer's meta tag). */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** Start the loopback server. Resolves once it listens. */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const token = options.token ?? randomBytes(32).toString('hex')
  const server = createServer((req, res) => {
    handle(req, res).catch((e) => sendJson(res, 500, { ok: false, error: { code: 'INTERNAL', message: String(e) } }))
  })
  let port = 0
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`])

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('x-content-type-options', 'nosniff')
    res.setHeader('referrer-policy', 'no-referrer')
    if (!allowedHosts().has(req.headers.host ?? '')) return sendJson(res, 403, refusal('UNAUTHORIZED', 'Unexpected Host header.'))
    const origin = req.headers.origin
    if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
      return sendJson(res, 403, refusal('UNAUTHORIZED', 'Requests from other origins are refused.'))
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`)
    if (url.pathname.startsWith('/api/')) return handleApi(req, res, url.pathname.slice(5))
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, refusal('BAD_ARGUMENT', 'Method not allowed.'))
    return serveStatic(res, url.pathname)
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    if (req.method !== 'POST') return sendJson(res, 405, refusal('BAD_ARGUMENT', 'Use POST for API calls.'))
    const given = Buffer.from(String(req.headers['x-sepia-token'] ?? ''))
    const want = Buffer.from(token)
    if (given.length !== want.length || !timingSafeEqual(given, want)) return sendJson(res, 401, refusal('UNAUTHORIZED', 'Missing or wrong token.'))
    if (!(API_METHODS as readonly string[]).includes(method)) return sendJson(res, 404, refusal('UNKNOWN_METHOD', `No API method "${method}".`))
    let body: unknown
    try {
      body = JSON.parse(await readBody(req))
    } catch {
      return sendJson(res, 400, refusal('BAD_ARGUMENT', 'The request body must be JSON {"args": [...]}.'))
    }
    const args = (body as { args?: unknown })?.args ?? []
    if (!Array.isArray(args)) return sendJson(res, 400, refusal('BAD_ARGUMENT', '"args" must be an array.'))
    // Argument shapes from the shared types, checked before the method runs (validate.ts).
    const bad = checkArgs(method as ApiMethod, args)
    if (bad) return sendJson(res, 200, { ok: false, error: bad })
    const result = await callEnveloped(options.api, method as ApiMethod, args)
    sendJson(res, 200, result)
  }

  async function serveStatic(res: ServerResponse, pathname: string): Promise<void> {
    let decoded: string
    try {
      decoded = decodeURIComponent(pathname)
    } catch {
      // A malformed % escape is the client's error, not the server's (issue 16).
      return sendJson(res, 400, refusal('BAD_ARGUMENT', 'The request path has a malformed % escape.'))
    }
    const rel = pathname === '/' ? 'index.html' : decoded.replace(/^\/+/, '')
    const file = normalize(join(options.rendererDir, rel))
    if (file !== options.rendererDir && !file.startsWith(options.rendererDir.replace(/[\\/]+$/, '') + sep)) {
      return sendJson(res, 403, refusal('UNAUTHORIZED', 'Outside the app folder.'))
    }
    let st
    try {
      st = await stat(file)
    } catch {
      st = undefined
    }
    if (!st?.isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
      res.end(pathname === '/' ? 'The app is not built yet: run `npx electron-vite build` (npm start does it for you).' : 'Not found')
      return
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': st.size,
      'content-security-policy': CSP,
      'cache-control': 'no-cache',
    })
    createReadStream(file).pipe(res)
  }

  await new Promise<void>((ok, fail) => {
    server.once('error', fail)
    server.listen(options.port ?? 0, '127.0.0.1', () => ok())
  })
  const addr = server.address()
  port = typeof addr === 'object' && addr ? addr.port : 0
  return {
    server,
    port,
    token,
    url: `http://127.0.0.1:${port}/#token=${token}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  }
}

function refusal(code: string, message: string): ApiResult<never> {
  return { ok: false, error: { code: code as never, message } }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
  res.end(text)
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    const parts: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > MAX_BODY) {
        fail(new Error('body too large'))
        req.destroy()
        return
      }
      parts.push(c)
    })
    req.on('end', () => ok(Buffer.concat(parts).toString('utf8')))
    req.on('error', fail)
  })
}
