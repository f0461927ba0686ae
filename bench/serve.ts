/**
 * The built `sepia serve` for the bench (`bench/idle.ts`, `bench/renderer.ts`): start it on one
 * home over loopback (port 0), read the URL and token it prints, call the app API, stop it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** A running `sepia serve`: its process, URL, token, session count and the ms until it printed them. */
export interface Served {
  child: ChildProcess
  pid: number
  url: string
  token: string
  sessions: number
  listedMs: number
  /** Call an app API method over loopback; throws the method's error message. */
  call<T>(method: string, ...args: unknown[]): Promise<T>
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<void>
  /** What the process wrote to stderr so far. */
  stderr(): string
}

/** Options of {@link startServe}: extra node flags (e.g. `--cpu-prof`), the environment. */
export interface ServeOptions {
  root: string
  home: string
  env: NodeJS.ProcessEnv
  nodeFlags?: string[]
}

/** Start `node [nodeFlags] bin/sepia.mjs serve --home <home> --port 0`; resolves once it printed its URL and session count. Rejects when it exits first. */
export async function startServe(o: ServeOptions): Promise<Served> {
  const t0 = performance.now()
  const child = spawn(process.execPath, [...(o.nodeFlags ?? []), join(o.root, 'bin', 'sepia.mjs'), 'serve', '--home', o.home, '--port', '0'], { cwd: o.root, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  const got = await new Promise<{ url: string; token: string; sessions: number; ms: number }>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const served = /serving (\d+) session/.exec(out)
      const open = /Open (http:\/\/127\.0\.0\.1:\d+)\/#token=([0-9a-f]+)/.exec(out)
      if (served && open) resolve({ url: open[1]!, token: open[2]!, sessions: Number(served[1]), ms: performance.now() - t0 })
    })
    child.once('exit', (code) => reject(new Error(`sepia serve exited ${code}: ${err}`)))
  })
  const call = async <T>(method: string, ...args: unknown[]): Promise<T> => {
    const r = await fetch(`${got.url}/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sepia-token': got.token }, body: JSON.stringify({ args }) })
    const env = (await r.json()) as { ok: boolean; value?: T; error?: { message: string } }
    if (!env.ok) throw new Error(`${method}: ${env.error?.message}`)
    return env.value as T
  }
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
  }
  return { child, pid: child.pid!, url: got.url, token: got.token, sessions: got.sessions, listedMs: got.ms, call, stop, stderr: () => err }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Wait until `getIndexStatus` says idle (the catalog holds every session's text). */
export async function waitIndexIdle(s: Served): Promise<void> {
  for (;;) {
    const st = await s.call<{ phase: string; running: boolean }>('getIndexStatus')
    if (st.phase === 'idle' && !st.running) return
    await sleep(250)
  }
}

/** CPU time (utime + stime) of a process so far, in clock ticks (1/100 s on Linux), from /proc/<pid>/stat. */
export function cpuTicks(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(f[11]) + Number(f[12])
}

/** Peak RSS (VmHWM) of a process, MB. */
export function peakRssMB(pid: number): number {
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024)
}
