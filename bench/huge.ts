/**
 * `bench/run.ts --huge-gb N`: one Claude Code session of N GB (seeded, `writeHugeSession` in
 * `corpus.ts`), written under `<base>/huge`, then, each with its own empty data folder (so each
 * indexes the session cold), the built CLI's `sepia list --json` and `sepia usage --json`: wall
 * time and peak RSS of the process (its indexing workers are threads, so included). Removed after.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { writeHugeSession } from './corpus'

/** What the huge-session run measured (ms, MB = 10^6 bytes; RSS in MB from /usr/bin/time). */
export interface HugeResult {
  gb: number
  bytes: number
  writeMs: number
  listMs: number
  listPeakMB: number
  usageMs: number
  usagePeakMB: number
  sessions: number
}

/** One built-CLI run: `cli(args, extraEnv)` (see `sepia()` in run.ts). */
type Cli = (args: string[], env: NodeJS.ProcessEnv) => { ms: number; maxRssMB?: number; stdout: string }

/** Write the huge session, run the two cold commands on it, remove it. Throws when a command fails (the files are removed either way). */
export function runHugeBench(base: string, gb: number, cli: Cli, log: (m: string) => void): HugeResult {
  const dir = join(base, 'huge')
  try {
    const t = performance.now()
    const h = writeHugeSession(dir, gb * 1e9)
    const writeMs = performance.now() - t
    log(`huge: ${(h.bytes / 1e6).toFixed(0)} MB session written in ${(writeMs / 1000).toFixed(1)} s; cold sepia list...`)
    const listData = join(dir, 'data-list')
    const usageData = join(dir, 'data-usage')
    mkdirSync(listData, { recursive: true })
    mkdirSync(usageData, { recursive: true })
    const list = cli(['list', '--json', '--home', h.home], { SEPIA_DATA_DIR: listData })
    log(`huge: list ${(list.ms / 1000).toFixed(1)} s, peak ${list.maxRssMB} MB; cold sepia usage...`)
    const usage = cli(['usage', '--json', '--home', h.home], { SEPIA_DATA_DIR: usageData })
    const out: HugeResult = {
      gb,
      bytes: h.bytes,
      writeMs,
      listMs: list.ms,
      listPeakMB: list.maxRssMB ?? -1,
      usageMs: usage.ms,
      usagePeakMB: usage.maxRssMB ?? -1,
      sessions: (JSON.parse(list.stdout) as { sessions: unknown[] }).sessions.length,
    }
    log(`huge: ${JSON.stringify(out)}`)
    return out
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
