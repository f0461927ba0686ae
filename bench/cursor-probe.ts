/**
 * The Cursor part of `npm run bench` ({@link runCursorBench}): write a seeded `state.vscdb` of N GB
 * (bench/cursor.ts), then measure each step in a fresh process (so start-up, memory and the
 * Cursor reader's cached store copy are its own):
 *
 *   tsx bench/cursor-probe.ts discover <home>                 Cursor discovery alone (composer rows, no bubbles)
 *   tsx bench/cursor-probe.ts list <home> <catalog>           list the library from a cold catalog, as the app does
 *   tsx bench/cursor-probe.ts open <home> <catalog> <id>      first page of the largest composer (warm catalog)
 *   tsx bench/cursor-probe.ts read <home> <id>                the Cursor reader alone on the largest composer
 *
 * Listing = discovery + reading every composer with its bubbles (the catalog stores each session's
 * summary, usage and search text, so it reads every bubble once) + the link pass; the search index
 * is filled after that (`withSearchMs`). Each probe prints one JSON line: times in ms, `maxRssMB`
 * (peak resident memory of the process, worker threads included).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AGENTS } from '../src/main/agents/registry'
import { cursor } from '../src/main/agents/cursor'
import { findAppRoot } from '../src/main/context'
import { LibraryService } from '../src/main/library'
import { layoutForHome } from '../src/main/platform'
import { writeCursorStore, type CursorStoreInfo } from './cursor'

const ctx = { now: Date.now }

async function probeMain(mode: string, home: string, arg?: string, id?: string): Promise<Record<string, unknown>> {
  const t0 = performance.now()
  const out: Record<string, unknown> = { mode }
  const layout = await layoutForHome({ home })
  if (mode === 'discover') {
    const r = await cursor.discover(layout, ctx)
    out.discoverMs = performance.now() - t0
    out.refs = r.refs.length
  } else if (mode === 'list') {
    const lib = new LibraryService([{ layout, isDemo: false }], AGENTS, ctx, { catalogPath: arg! })
    const library = await lib.load()
    out.listMs = performance.now() - t0
    out.sessions = library.sessions.length
    out.messages = library.sessions.reduce((n, s) => n + s.messageCount, 0)
    await lib.whenIdle()
    out.withSearchMs = performance.now() - t0
    await lib.close()
  } else if (mode === 'open') {
    const lib = new LibraryService([{ layout, isDemo: false }], AGENTS, ctx, { catalogPath: arg! })
    const t1 = performance.now()
    const page = await lib.getSessionPage('cursor', id!, { offset: 0, limit: 100 })
    out.firstPageMs = performance.now() - t1
    out.totalNodes = page.totalNodes
    const t2 = performance.now()
    await lib.getSessionPage('cursor', id!, { offset: Math.floor(page.totalNodes / 2), limit: 100 })
    out.nextPageMs = performance.now() - t2
    await lib.close()
  } else if (mode === 'read') {
    const { refs } = await cursor.discover(layout, ctx)
    const ref = refs.find((r) => r.sessionId === arg)!
    const t1 = performance.now()
    const s = await cursor.read(ref, ctx)
    out.readMs = performance.now() - t1
    out.nodes = s.nodes.length
  }
  out.totalMs = performance.now() - t0
  out.maxRssMB = Math.round(process.resourceUsage().maxRSS / 1024)
  return out
}

function probe(...a: string[]): Record<string, number> {
  const root = findAppRoot()
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench/cursor-probe.ts'), ...a], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 })
  if (r.status !== 0) throw new Error(`cursor probe ${a[0]} failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number>
}

/**
 * Write (or, with `keep`, reuse one written for the same `gb`) the Cursor store of `gb` GB under
 * `base/cursor` and measure it.
 * Returns the `cursor` section of results.json.
 */
export function runCursorBench(base: string, gb: number, keep: boolean, log: (m: string) => void): Record<string, unknown> {
  const root = join(base, 'cursor')
  const infoFile = join(base, 'cursor.json')
  const kept = keep && existsSync(infoFile) ? (JSON.parse(readFileSync(infoFile, 'utf8')) as CursorStoreInfo & { gb?: number }) : undefined
  let info: CursorStoreInfo
  if (kept && kept.gb === gb && existsSync(kept.db)) {
    info = kept
    log(`reusing Cursor store ${info.db}`)
  } else {
    log(`writing a ${gb} GB Cursor store...`)
    info = writeCursorStore(root, gb * 1e9)
    writeFileSync(infoFile, JSON.stringify({ ...info, gb }))
  }
  log(`cursor store: ${(info.bytes / 1e6).toFixed(0)} MB, ${info.composers} composers, ${info.bubbles} bubbles (avg ${(info.bubbleBytes / info.bubbles / 1e3).toFixed(1)} KB), largest ${info.largest.bubbles} bubbles; written in ${(info.writeMs / 1000).toFixed(1)} s`)
  const data = join(base, 'cursor-data')
  rmSync(data, { recursive: true, force: true })
  mkdirSync(data, { recursive: true })
  const catalog = join(data, 'catalog.sqlite')
  const discover = probe('discover', info.home)
  log(`cursor discover: ${JSON.stringify(discover)}`)
  const list = probe('list', info.home, catalog)
  log(`cursor list: ${JSON.stringify(list)}`)
  const open = probe('open', info.home, catalog, info.largest.id)
  log(`cursor open: ${JSON.stringify(open)}`)
  const read = probe('read', info.home, info.largest.id)
  log(`cursor read: ${JSON.stringify(read)}`)
  const mb = info.bytes / 1e6
  return {
    store: { MB: mb, composers: info.composers, bubbles: info.bubbles, avgBubbleKB: info.bubbleBytes / info.bubbles / 1e3, largestBubbles: info.largest.bubbles, largestMB: info.largest.bytes / 1e6, writeSec: info.writeMs / 1000 },
    discover,
    list: { ...list, MBps: mb / (list.listMs! / 1000) },
    open,
    read,
    note: 'the store was just written: the OS file cache is warm',
  }
}

if (process.argv[1]?.endsWith('cursor-probe.ts')) {
  const [mode, home, arg, id] = process.argv.slice(2)
  const out = await probeMain(mode!, home!, arg, id)
  process.stdout.write(JSON.stringify(out) + '\n')
  process.exit(0)
}
