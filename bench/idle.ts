/**
 * `bench/run.ts --only idle`: CPU of the built `sepia serve` while idle with live watching on, on
 * a catalog that is already built (warm: the corpus of an earlier `--keep` run, or indexed here
 * first when the data folder is empty). The server starts, its start-up refresh and the text
 * index finish (`getIndexStatus` idle), `getChanges()` starts the watcher, then after `settleSec`
 * the bench polls `getChanges(token)` every 2 s as the renderer does and reads utime+stime from
 * /proc/<pid>/stat over `seconds`. With `cpuProf`, the server runs under `node --cpu-prof` and the
 * profile (`<profDir>/serve-idle.cpuprofile`) covers its whole life; the idle window's start and end
 * are returned as ms since the server started, to cut the profile to it.
 *
 * Besides the whole window's figure: the CPU of each 10 s slice of it (V8's memory reducer runs a
 * few full GCs some 10-30 s after start-up's garbage stops growing, once; session 11 found them to
 * be most of a 30 s window's CPU right after start, so the slices show the one-off apart from the
 * steady state), and the main thread's share (`/proc/<pid>/task/<pid>/stat`; the rest is V8's GC
 * helper threads, the libuv pool and the indexing workers).
 */
import { readFileSync } from 'node:fs'
import { cpuTicks, peakRssMB, sleep, startServe, waitIndexIdle } from './serve'

/** CPU time of one thread of `pid` so far, clock ticks (1/100 s), or 0 when it cannot be read. */
function threadTicks(pid: number, tid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return Number(f[11]) + Number(f[12])
  } catch {
    return 0
  }
}

/** Length of one slice of the window, s. */
const SLICE_SEC = 10

/** What the idle run measured: CPU % of one core over the window, the window, peak RSS (MB). */
export interface IdleResult {
  cpuPctOfOneCore: number
  seconds: number
  settleSec: number
  polls: number
  changesSeen: number
  sessions: number
  servePeakRssMB: number
  /** CPU % of one core in each {@link SLICE_SEC} s slice of the window, in order (the last one may be shorter). */
  slicesPct: number[]
  /** CPU % of one core of the main thread alone over the window. */
  mainThreadPct: number
  /** The window, in ms since the server was spawned (to cut a `--cpu-prof` profile to it). */
  windowMs: [number, number]
  /** ms until the (warm) server listed its sessions, and until its index was idle. */
  listedMs: number
  readyMs: number
  profile?: string
}

/** Options of {@link runIdleBench}. */
export interface IdleOptions {
  root: string
  home: string
  env: NodeJS.ProcessEnv
  seconds: number
  settleSec?: number
  /** A folder for `--cpu-prof` of the server, or none. */
  profDir?: string
  log: (m: string) => void
}

/** Run the idle measurement on a fresh `sepia serve` (see the module doc). */
export async function runIdleBench(o: IdleOptions): Promise<IdleResult> {
  const settleSec = o.settleSec ?? 10
  const nodeFlags = o.profDir ? ['--cpu-prof', '--cpu-prof-dir', o.profDir, '--cpu-prof-name', 'serve-idle.cpuprofile'] : []
  const t0 = performance.now()
  const s = await startServe({ root: o.root, home: o.home, env: o.env, nodeFlags })
  try {
    await waitIndexIdle(s)
    const readyMs = performance.now() - t0
    o.log(`idle: ${s.sessions} sessions, listed in ${(s.listedMs / 1000).toFixed(1)} s, index idle in ${(readyMs / 1000).toFixed(1)} s; settling ${settleSec} s`)
    let token = (await s.call<{ token: string }>('getChanges')).token
    const settleEnd = performance.now() + settleSec * 1000
    while (performance.now() < settleEnd) {
      await sleep(2000)
      token = (await s.call<{ token: string }>('getChanges', token)).token
    }
    const tk0 = cpuTicks(s.pid)
    const main0 = threadTicks(s.pid, s.pid)
    const ti0 = performance.now()
    const pct = (ticks: number, ms: number): number => (ticks / 100 / (ms / 1000)) * 100
    const slicesPct: number[] = []
    let slice = { ticks: tk0, at: ti0 }
    let polls = 0
    let changesSeen = 0
    while (performance.now() - ti0 < o.seconds * 1000) {
      await sleep(2000)
      const c = await s.call<{ token: string; changed?: unknown[]; sessions?: unknown[] }>('getChanges', token)
      polls++
      if (c.token !== token) changesSeen++
      token = c.token
      const now = performance.now()
      if (now - slice.at >= SLICE_SEC * 1000 || now - ti0 >= o.seconds * 1000) {
        const ticks = cpuTicks(s.pid)
        slicesPct.push(Number(pct(ticks - slice.ticks, now - slice.at).toFixed(2)))
        slice = { ticks, at: now }
      }
    }
    const ti1 = performance.now()
    const cpuPctOfOneCore = pct(cpuTicks(s.pid) - tk0, ti1 - ti0)
    const mainThreadPct = Number(pct(threadTicks(s.pid, s.pid) - main0, ti1 - ti0).toFixed(2))
    const out: IdleResult = {
      cpuPctOfOneCore,
      seconds: o.seconds,
      settleSec,
      polls,
      changesSeen,
      slicesPct,
      mainThreadPct,
      sessions: s.sessions,
      servePeakRssMB: peakRssMB(s.pid),
      windowMs: [Math.round(ti0 - t0), Math.round(ti1 - t0)],
      listedMs: Math.round(s.listedMs),
      readyMs: Math.round(readyMs),
      ...(o.profDir ? { profile: `${o.profDir}/serve-idle.cpuprofile` } : {}),
    }
    o.log(`idle with live watching: ${cpuPctOfOneCore.toFixed(2)}% of a core over ${o.seconds} s (${polls} polls, ${changesSeen} changes); per ${SLICE_SEC} s: ${slicesPct.join(', ')}%; main thread ${mainThreadPct}%`)
    return out
  } finally {
    await s.stop()
  }
}
