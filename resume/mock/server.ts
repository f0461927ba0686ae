/**
 * The resume harness's scripted model server: loopback only, no dependencies, every request logged
 * as one JSON line. Ported into the project from the shared kit `realstores/mock-llm.mjs` (Sepia's
 * own shared material; the routing, logging and reply selection are unchanged, see `select.ts`).
 *
 *   POST .../messages                      Anthropic Messages (SSE or JSON)
 *   POST .../messages/count_tokens         {input_tokens}
 *   POST .../responses                     OpenAI Responses
 *   POST .../chat/completions              Chat Completions
 *   POST .../models/<m>:(stream)generateContent, :countTokens   Gemini
 *   GET  .../models, .../models/<id>       model lists
 *   anything else                          404 with a JSON error (logged)
 *
 * Log line: `{ts, seq, method, path, api, headers (credentials as "<present>"), model, stream,
 * nMsgs, toolNames, picked:{scenario, turn, step, reply}, body}`.
 *
 * Use in-process with {@link startMock}, or standalone:
 *   npx tsx resume/mock/server.ts --scenario resume/scenarios/cline.json --log requests.jsonl [--port 0]
 */
import { appendFileSync, readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Json, normAnthropic, normChat, normGemini, type Normalized, normResponses, textOf } from './normalize'
import { anthropicHandle, chatHandle, geminiHandle, modelsList, responsesHandle, sendJson } from './replies'
import { pickReply, replyKind, resolveBlocks, type Scenario, substitute } from './select'

/** A running mock. */
export interface Mock {
  port: number
  /** `http://127.0.0.1:<port>` */
  url: string
  /** Every logged request so far (also appended to the log file). */
  entries(): Json[]
  stop(): Promise<void>
}

/** Options of {@link startMock}. */
export interface MockOptions {
  /** Scenario file (read again on every request, like the kit's mock). */
  scenarioFile: string
  /** Request log (JSON lines), appended to. */
  logFile?: string
  port?: number
  host?: string
  /** `${CWD}` in replies (else guessed from the request's text). */
  cwd?: string
}

const KEEP_HEADERS = ['user-agent', 'anthropic-version', 'anthropic-beta', 'content-type', 'accept', 'openai-beta', 'session_id', 'session-id', 'originator', 'version', 'conversation_id']

function headerSubset(h: http.IncomingHttpHeaders): Json {
  const out: Json = {}
  for (const k of Object.keys(h)) if (KEEP_HEADERS.includes(k) || k.startsWith('x-')) out[k] = h[k]
  for (const k of ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key']) if (h[k]) out[k] = '<present>'
  return out
}

function guessCwd(str: string): string {
  const m = /(?:Working directory|Current working directory|cwd|<cwd>|workspace root)\s*[:=]?\s*([^\s<"\\`']+)/i.exec(str || '')
  return m ? m[1]! : ''
}

/** Start the mock on a loopback address. Rejects when the host is not loopback. */
export function startMock(opts: MockOptions): Promise<Mock> {
  const host = opts.host ?? '127.0.0.1'
  if (!/^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(host)) return Promise.reject(new Error(`mock: refusing to listen on non-loopback host ${host}`))
  const log: Json[] = []
  let seq = 0
  const logLine = (obj: Json): void => {
    log.push(obj)
    if (opts.logFile) appendFileSync(opts.logFile, JSON.stringify(obj) + '\n')
  }
  const server = http.createServer((req, res) => {
    const bufs: Buffer[] = []
    req.on('data', (c: Buffer) => bufs.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(bufs).toString('utf8')
      let body: Json | null = null
      try {
        body = raw ? (JSON.parse(raw) as Json) : null
      } catch {
        body = { _raw: raw }
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const p = url.pathname.replace(/\/+$/, '')
      const entry: Json = { ts: new Date().toISOString(), seq: ++seq, method: req.method, path: req.url, api: null, headers: headerSubset(req.headers) }
      try {
        const sc = JSON.parse(readFileSync(opts.scenarioFile, 'utf8')) as Scenario
        if (req.method === 'GET' && /\/models$/.test(p)) {
          logLine({ ...entry, api: 'models' })
          return modelsList(res, sc.model)
        }
        if (req.method === 'GET' && /\/models\/[^/:]+$/.test(p)) {
          logLine({ ...entry, api: 'model' })
          const id = decodeURIComponent(p.split('/').pop()!)
          return sendJson(res, 200, { id, object: 'model', type: 'model', display_name: id, created: 0, owned_by: 'mock', name: `models/${id}` })
        }
        if (req.method === 'POST' && /\/messages\/count_tokens$/.test(p)) {
          logLine({ ...entry, api: 'anthropic.count_tokens', body })
          return sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) })
        }
        if (req.method === 'POST' && /:countTokens$/.test(p)) {
          logLine({ ...entry, api: 'gemini.countTokens', body })
          return sendJson(res, 200, { totalTokens: Math.max(1, Math.ceil(raw.length / 4)) })
        }
        const b: Json = body && typeof body === 'object' ? body : {}
        let api: string | null = null
        let info: Normalized | undefined
        let stream = false
        let gModel = ''
        if (req.method === 'POST' && /\/chat\/completions$/.test(p)) {
          api = 'openai.chat'
          info = normChat(b)
          stream = !!b.stream
        } else if (req.method === 'POST' && /\/messages$/.test(p)) {
          api = 'anthropic.messages'
          info = normAnthropic(b)
          stream = !!b.stream
        } else if (req.method === 'POST' && /\/responses$/.test(p)) {
          api = 'openai.responses'
          info = normResponses(b)
          stream = !!b.stream
        } else if (req.method === 'POST' && /:(stream)?[gG]enerateContent$/.test(p)) {
          api = 'gemini'
          stream = /:streamGenerateContent$/.test(p)
          gModel = decodeURIComponent((/\/models\/([^/:]+):/.exec(p) || [])[1] || '')
          info = normGemini(b, gModel)
        }
        if (!api || !info) {
          logLine({ ...entry, api: 'unknown', body })
          return sendJson(res, 404, { error: { type: 'not_found', message: `mock: no route for ${req.method} ${p}` } })
        }
        const allText = info.system + '\n' + info.msgs.map((m) => m.text).join('\n')
        const cwd = opts.cwd || guessCwd(allText)
        const pick = pickReply(sc, info)
        const blocks = resolveBlocks(substitute(pick.reply, { cwd, seq: entry.seq as number, lastToolOutput: info.lastToolOutput }), info)
        logLine({
          ...entry,
          api,
          model: b.model ?? (gModel || null),
          stream,
          nMsgs: info.msgs.length,
          toolNames: info.tools.map((t) => (t.namespace ? `${t.namespace}.${t.name}` : t.name)),
          picked: { scenario: sc.name || null, turn: pick.turn, step: pick.step, reply: replyKind(blocks) },
          body,
        })
        if (api === 'anthropic.messages') return anthropicHandle(res, b, blocks)
        if (api === 'openai.responses') return responsesHandle(res, b, blocks, info)
        if (api === 'openai.chat') return chatHandle(res, b, blocks)
        return geminiHandle(res, b, blocks, stream, gModel)
      } catch (e) {
        logLine({ ...entry, api: 'error', error: String((e as Error)?.stack || e), body })
        return sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: 'mock internal error: ' + (e as Error).message } })
      }
    })
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, host, () => {
      const port = (server.address() as AddressInfo).port
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        entries: () => [...log],
        stop: () =>
          new Promise<void>((done) => {
            server.closeAllConnections?.()
            server.close(() => done())
          }),
      })
    })
  })
}

export { textOf }

const isEntry = process.argv[1] !== undefined && /[\\/]resume[\\/]mock[\\/]server\.ts$/.test(process.argv[1])
if (isEntry) {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(`--${name}`)
    return i >= 0 ? process.argv[i + 1] : undefined
  }
  const scenarioFile = arg('scenario')
  if (!scenarioFile) {
    process.stderr.write('usage: tsx resume/mock/server.ts --scenario FILE [--log FILE] [--port N] [--cwd DIR]\n')
    process.exit(2)
  }
  const opts: MockOptions = { scenarioFile, logFile: arg('log') ?? 'mock-requests.jsonl', port: Number(arg('port') ?? 0) }
  const cwd = arg('cwd')
  if (cwd) opts.cwd = cwd
  void startMock(opts).then((m) => {
    process.stdout.write(`LISTENING ${m.port}\n`)
    const stop = () => void m.stop().then(() => process.exit(0))
    process.on('SIGTERM', stop)
    process.on('SIGINT', stop)
  })
}
