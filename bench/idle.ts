/**
 * `bench/run.ts --only idle`: CPU of the built `sepia serve` while idle with live watching on, on
 * a catalog that is already built (warm: the corpus of an earlier `--keep` run, or indexed here
 * first when the data folder is empty). The server starts, its start-up refresh and the text
 * index finish (`getIndexStatus` idle), `getChanges()` starts the watcher, then after `settleSec`
 * the bench polls `getChanges(token)` every 2 s as the renderer does and reads utime+stime from
 * /proc/<pid>/stat over `seconds`. With `cpuProf`, the server runs under `node --cpu-prof` and the
 * profile (`<profDir>/serve-idle.cpuprofile`) covers its whole life; the idle window's start and end
 * are returned as ms since the server started, to cut the profile to it.
 */
import { cpuTicks, peakRssMB, sleep, startServe, waitIndexIdle } from './serve'

/** What the idle run measured: CPU % of one core over the window, the window, peak RSS (MB). */
export interface IdleResult {
  cpuPctOfOneCore: number
  seconds: number
  settleSec: number
  polls: number
  changesSeen: number
  sessions: number
  servePeakRssMB: number
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
    const ti0 = performance.now()
    let polls = 0
    let changesSeen = 0
    while (performance.now() - ti0 < o.seconds * 1000) {
      await sleep(2000)
      const c = await s.call<{ token: string; changed?: unknown[]; sessions?: unknown[] }>('getChanges', token)
      polls++
      if (c.token !== token) changesSeen++
      token = c.token
    }
    const ti1 = performance.now()
    const cpuPctOfOneCore = ((cpuTicks(s.pid) - tk0) / 100 / ((ti1 - ti0) / 1000)) * 100
    const out: IdleResult = {
      cpuPctOfOneCore,
      seconds: o.seconds,
      settleSec,
      polls,
      changesSeen,
      sessions: s.sessions,
      servePeakRssMB: peakRssMB(s.pid),
      windowMs: [Math.round(ti0 - t0), Math.round(ti1 - t0)],
      listedMs: Math.round(s.listedMs),
      readyMs: Math.round(readyMs),
      ...(o.profDir ? { profile: `${o.profDir}/serve-idle.cpuprofile` } : {}),
    }
    o.log(`idle with live watching: ${cpuPctOfOneCore.toFixed(2)}% of a core over ${o.seconds} s (${polls} polls, ${changesSeen} changes)`)
    return out
  } finally {
    await s.stop()
  }
}
