/**
 * `bench/run.ts --huge-gb N`: one Claude Code session of N GB (seeded, `writeHugeSession` in
 * `corpus.ts`), written under `<base>/huge`, indexed through the catalog in a fresh process
 * (`probe.ts index`: discovery, the worker thread's streaming read, the catalog rows; no search
 * phase), then removed. Reports the time, MB/s and the peak RSS of that process (its workers
 * are threads, so included).
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { writeHugeSession } from './corpus'

/** What the huge-session run measured (ms, MB = 10^6 bytes). */
export interface HugeResult {
  gb: number
  bytes: number
  writeMs: number
  indexMs: number
  MBps: number
  maxRssMB: number
  sessions: number
  failed: number
}

/**
 * Write, index and remove the huge session. `probe(...args)` runs `probe.ts` in a fresh process
 * and returns its JSON line. Throws when the probe fails (the files are removed either way).
 */
export function runHugeBench(base: string, gb: number, probe: (...a: string[]) => Record<string, number>, log: (m: string) => void): HugeResult {
  const dir = join(base, 'huge')
  try {
    const t = performance.now()
    const h = writeHugeSession(dir, gb * 1e9)
    const writeMs = performance.now() - t
    log(`huge: ${(h.bytes / 1e6).toFixed(0)} MB session written in ${(writeMs / 1000).toFixed(1)} s; indexing...`)
    const r = probe('index', h.home, join(dir, 'catalog.sqlite'))
    const out: HugeResult = { gb, bytes: h.bytes, writeMs, indexMs: r.indexMs!, MBps: r.MBps!, maxRssMB: r.maxRssMB!, sessions: r.sessions!, failed: r.failed! }
    log(`huge: ${JSON.stringify(out)}`)
    return out
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
