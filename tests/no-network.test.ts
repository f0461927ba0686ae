/**
 * Issue 9 item 3 (main process): no outbound request. Every way Node can reach a network —
 * `net`/`tls` sockets, `http`/`https`/`http2` requests, DNS lookups, `fetch`, `WebSocket` — is
 * wrapped to record and refuse the call; then the full read-only API sweep (library load, every
 * session, search, usage, exports, checkpoint previews, convert plans...) runs over every agent's
 * fixture homes, and the record must be empty.
 */
import dns from 'node:dns'
import http from 'node:http'
import http2 from 'node:http2'
import https from 'node:https'
import { syncBuiltinESMExports } from 'node:module'
import net from 'node:net'
import tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../src/main/api'
import { allFixtureHomes } from './helpers/fixture-homes'
import { runSweep, sweepContext } from './helpers/sweep'

const attempts: string[] = []
const undo: (() => void)[] = []

function trap(owner: object, name: string, label: string): void {
  const target = owner as Record<string, unknown>
  const original = target[name]
  if (typeof original !== 'function') return
  target[name] = function blocked(...args: unknown[]) {
    let what = ''
    try {
      what = typeof args[0] === 'string' ? args[0] : JSON.stringify(args[0])?.slice(0, 120) ?? ''
    } catch {
      what = String(args[0])
    }
    attempts.push(`${label}(${what})`)
    throw new Error(`Network call refused by the no-network test: ${label}`)
  }
  undo.push(() => {
    target[name] = original
  })
}

beforeAll(() => {
  for (const n of ['connect', 'createConnection']) trap(net, n, `net.${n}`)
  trap(net.Socket.prototype, 'connect', 'net.Socket.connect')
  trap(tls, 'connect', 'tls.connect')
  for (const n of ['request', 'get']) {
    trap(http, n, `http.${n}`)
    trap(https, n, `https.${n}`)
  }
  trap(http2, 'connect', 'http2.connect')
  for (const n of ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCname', 'resolveMx', 'resolveTxt', 'resolveSrv', 'reverse']) {
    trap(dns, n, `dns.${n}`)
    trap(dns.promises, n, `dns.promises.${n}`)
  }
  trap(globalThis, 'fetch', 'fetch')
  trap(globalThis, 'WebSocket', 'WebSocket')
  syncBuiltinESMExports()
})

afterAll(() => {
  for (const u of undo.reverse()) u()
  syncBuiltinESMExports()
})

describe('safety: the main process makes no network request', () => {
  it('the traps catch a request (so an empty record means something)', async () => {
    expect(() => http.get('http://example.test/')).toThrow(/refused by the no-network test/)
    await expect(Promise.resolve().then(() => fetch('https://example.test/'))).rejects.toThrow(/refused/)
    expect(attempts.splice(0)).toEqual(['http.get(http://example.test/)', 'fetch(https://example.test/)'])
  })

  it('loads, opens, searches, exports and previews every agent’s fixtures without one', async () => {
    const homes = allFixtureHomes()
    const api = createApi(sweepContext(homes))
    const report = await runSweep(api, homes)
    expect(report.calls.length).toBeGreaterThan(100)
    expect(report.unknown).toEqual([])
    expect(attempts).toEqual([])
  }, 240_000)
})
