/**
 * The local viewers a user would pick instead of Sepia (issue 15: `@cookielab.io/klovi` and
 * `claude-run` from npm), run offline on loopback over the bench corpus, next to the built
 * `sepia serve` on the same home with a warm catalog.
 *
 * Each peer is installed on first use with `npm install --prefix <cache>/<name>-<version>` (the
 * cache is `$SEPIA_BENCH_PEERS`, default `os.tmpdir()/sepia-bench-peers`; not a project
 * dependency, so `npm test` never installs them), started with HOME pointed at the corpus home,
 * and measured the way a user meets it:
 * - `listedMs`: from spawning the process to its first answer that lists the sessions (klovi's RPC
 *   `searchSessions`, claude-run's `GET /api/sessions`, Sepia's "serving N session(s)" line);
 * - `sessions`: how many sessions that answer holds (each peer reads what it reads: claude-run
 *   lists the sessions named in `~/.claude/history.jsonl`, klovi the Claude Code and Codex stores);
 * - `openLargeMs`: opening the corpus's large Claude Code session (klovi `getSessionHead` with its
 *   default head, claude-run `GET /api/conversation/<id>`, Sepia `getSessionPage` first page);
 *   `openLargeBytes` the size of that answer;
 * - `peakRssMB`: the process's VmHWM after both (MB).
 * A peer that fails to install or start gets `{ error }` instead; the bench goes on.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { peakRssMB, sleep, startServe } from './serve'

/** A peer package, pinned (the figures in BENCHMARKS.md name the version). */
interface PeerPackage {
  name: string
  pkg: string
  version: string
  /** The CLI entry inside the installed package. */
  entry: string
}

const PEERS: Record<'klovi' | 'claudeRun', PeerPackage> = {
  klovi: { name: 'klovi', pkg: '@cookielab.io/klovi', version: '3.5.0', entry: 'node_modules/@cookielab.io/klovi/dist/cli.js' },
  claudeRun: { name: 'claude-run', pkg: 'claude-run', version: '0.3.0', entry: 'node_modules/claude-run/dist/index.js' },
}

/** One viewer's figures (see the module comment), or why it did not run. */
export type PeerResult =
  | { name: string; version: string; listedMs: number; sessions: number; openLargeMs: number; openLargeBytes: number; peakRssMB: number }
  | { name: string; version: string; error: string }

/** What {@link runPeersBench} needs: the repo root, the corpus home, the large session's id, the bench env (HOME, SEPIA_DATA_DIR of the warm catalog). */
export interface PeersOptions {
  root: string
  home: string
  largeId: string
  env: NodeJS.ProcessEnv
  log(msg: string): void
}

/** Install (first use) and return the entry path; throws with npm's output when the install fails. */
function install(p: PeerPackage): string {
  const dir = join(process.env['SEPIA_BENCH_PEERS']?.trim() || join(tmpdir(), 'sepia-bench-peers'), `${p.name}-${p.version}`)
  const entry = join(dir, p.entry)
  if (existsSync(entry)) return entry
  mkdirSync(dir, { recursive: true })
  const r = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', `${p.pkg}@${p.version}`], { encoding: 'utf8', timeout: 10 * 60_000 })
  if (r.status !== 0 || !existsSync(entry)) throw new Error(`npm install ${p.pkg}@${p.version} failed: ${(r.stderr || r.stdout || '').slice(-400)}`)
  return entry
}

/** A free loopback port (listen on 0, read it, close). */
async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/** Poll `probe` every 100 ms until it returns a value (connection refused counts as not yet); rejects after `timeoutMs` or when the child exits. */
async function until<T>(child: ChildProcess, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const t0 = performance.now()
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}`)
    try {
      const v = await probe()
      if (v !== undefined) return v
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > timeoutMs) throw new Error(`no answer in ${timeoutMs} ms`)
    await sleep(100)
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await Promise.race([exited, sleep(5000)])
  if (child.exitCode === null) child.kill('SIGKILL')
}

/** Run one peer: start, wait for its list, open the large session, read its peak RSS. */
async function runPeer(
  p: PeerPackage,
  o: PeersOptions,
  args: (port: number) => string[],
  list: (url: string) => Promise<{ sessions: number; project?: string } | undefined>,
  open: (url: string, project: string | undefined) => Promise<number>,
): Promise<PeerResult> {
  let child: ChildProcess | undefined
  try {
    const entry = install(p)
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const t0 = performance.now()
    child = spawn(process.execPath, [entry, ...args(port)], { env: { ...o.env, HOME: o.home, BROWSER: 'none' }, stdio: ['ignore', 'ignore', 'pipe'] })
    const listed = await until(child, () => list(url), 30 * 60_000)
    const listedMs = performance.now() - t0
    const t1 = performance.now()
    const openLargeBytes = await open(url, listed.project)
    const openLargeMs = performance.now() - t1
    const result = { name: p.name, version: p.version, listedMs: Math.round(listedMs), sessions: listed.sessions, openLargeMs: Math.round(openLargeMs), openLargeBytes, peakRssMB: peakRssMB(child.pid!) }
    o.log(`peer ${p.name} ${p.version}: ${JSON.stringify(result)}`)
    return result
  } catch (e) {
    o.log(`peer ${p.name} ${p.version} failed: ${(e as Error).message}`)
    return { name: p.name, version: p.version, error: (e as Error).message }
  } finally {
    if (child) await stop(child)
  }
}

/** Measure klovi, claude-run and the warm built `sepia serve` on the same home (see the module comment). */
export async function runPeersBench(o: PeersOptions): Promise<{ sepia: PeerResult; peers: PeerResult[] }> {
  const post = async (url: string, method: string, body: unknown): Promise<Response> =>
    await fetch(`${url}/api/rpc/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

  const klovi = await runPeer(
    PEERS.klovi,
    o,
    (port) => ['--no-browser', '--port', String(port)],
    async (url) => {
      const r = await post(url, 'searchSessions', {})
      if (!r.ok) return undefined
      const { sessions } = (await r.json()) as { sessions: Array<{ sessionId: string; encodedPath: string }> }
      const large = sessions.find((s) => s.sessionId === `claude-code::${o.largeId}`)
      return { sessions: sessions.length, ...(large ? { project: large.encodedPath } : {}) }
    },
    async (url, project) => {
      if (project === undefined) throw new Error('klovi did not list the large session')
      const r = await post(url, 'getSessionHead', { sessionId: `claude-code::${o.largeId}`, project })
      if (!r.ok) throw new Error(`getSessionHead: HTTP ${r.status}`)
      return (await r.arrayBuffer()).byteLength
    },
  )

  const claudeRun = await runPeer(
    PEERS.claudeRun,
    o,
    (port) => ['--dir', join(o.home, '.claude'), '--no-open', '--port', String(port)],
    async (url) => {
      const r = await fetch(`${url}/api/sessions`)
      if (!r.ok) return undefined
      return { sessions: ((await r.json()) as unknown[]).length }
    },
    async (url) => {
      const r = await fetch(`${url}/api/conversation/${o.largeId}`)
      if (!r.ok) throw new Error(`/api/conversation: HTTP ${r.status}`)
      return (await r.arrayBuffer()).byteLength
    },
  )

  let sepia: PeerResult
  const version = (JSON.parse(readFileSync(join(o.root, 'package.json'), 'utf8')) as { version: string }).version
  try {
    const s = await startServe({ root: o.root, home: o.home, env: o.env })
    try {
      const t1 = performance.now()
      const page = await s.call<unknown>('getSessionPage', 'claude-code', o.largeId, { offset: 0, limit: 200 })
      const openLargeMs = performance.now() - t1
      sepia = { name: 'sepia serve (warm catalog)', version, listedMs: Math.round(s.listedMs), sessions: s.sessions, openLargeMs: Math.round(openLargeMs), openLargeBytes: JSON.stringify(page).length, peakRssMB: peakRssMB(s.pid) }
    } finally {
      await s.stop()
    }
    o.log(`sepia: ${JSON.stringify(sepia)}`)
  } catch (e) {
    sepia = { name: 'sepia serve (warm catalog)', version, error: (e as Error).message }
  }
  return { sepia, peers: [klovi, claudeRun] }
}
