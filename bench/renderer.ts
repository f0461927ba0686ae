/**
 * `bench/run.ts --only renderer` (and part of the full run): the built renderer on one ~200 MB
 * Claude Code session (`writeHugeSession` in corpus.ts, seeded), served by the built `sepia serve
 * --home <dir>` over loopback, driven by Debian's Chromium through playwright-core (the flags of
 * tests/e2e/helpers.ts, a fresh `--user-data-dir`). The session is indexed first (`getIndexStatus`
 * idle), so what is measured is opening and scrolling, not the cold index.
 *
 * - first paint: ms from the click on the session's row (in the page, `performance.now()`) to the
 *   first animation frame after a transcript row (`[data-testid="message"]`) is laid out with a
 *   non-zero height inside the view;
 * - DOM nodes: `document.getElementsByTagName('*').length`, sampled after every scroll step (max);
 * - JS heap: CDP `Performance.getMetrics` `JSHeapUsedSize`, sampled after every scroll step (max;
 *   no forced GC, so garbage counts);
 * - scroll frames: from the top to the bottom in `steps` jumps of `scrollTop` (each followed by
 *   wheel steps of 400 px), then to the end until the session's last row is there; every
 *   `requestAnimationFrame` delta in the page while scrolling is a frame duration (p50/p95/max);
 *   `longtask` entries (> 50 ms tasks) are counted beside them;
 * - idle: then, with the session open for `idleSec`, the page's main-thread busy time (CDP
 *   `TaskDuration`) and the server's CPU (/proc), % of one core;
 * - the largest API answer (bytes of a response body under `/api/`): main must page the session,
 *   never send it whole.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeHugeSession } from './corpus'
import { cpuTicks, peakRssMB, startServe, waitIndexIdle } from './serve'

/** What the renderer run measured (ms; MB = 10^6 bytes). */
export interface RendererResult {
  sessionMB: number
  nodes: number
  firstPaintMs: number
  domNodesMax: number
  domNodesAfterOpen: number
  heapUsedMaxMB: number
  heapUsedAfterOpenMB: number
  frames: { count: number; p50: number; p95: number; max: number; over50: number }
  /** Idle afterwards with the session open: the page's main thread busy (CDP TaskDuration) and the server's CPU, % of a core. */
  idle: { seconds: number; pageBusyPct: number; servePct: number }
  /** Each frame of 50 ms or more, with the step it happened in (`jump N`: the scrollTop jump, `wheel N`: the wheel steps after it, `end N`: going to the end). */
  slowFrames: string[]
  /** Frames while the bench counted elements and read the heap (not part of `frames`). */
  samplingFrames: { count: number; max: number }
  longTasks: { count: number; maxMs: number }
  steps: number
  reachedEnd: boolean
  apiLargestResponseKB: number
  apiResponses: number
  indexMs: number
  servePeakRssMB: number
}

/** Options of {@link runRendererBench}. */
export interface RendererOptions {
  root: string
  base: string
  env: NodeJS.ProcessEnv
  mb: number
  steps?: number
  chromium?: string
  /** Seconds of the idle window after the scroll (default 20). */
  idleSec?: number
  /** Write a CPU profile of the page during the scroll (`.cpuprofile`) to this path. */
  profile?: string
  /**
   * Write a Chrome trace of the scroll (CDP `Tracing`, categories `devtools.timeline` and
   * `disabled-by-default-devtools.timeline`: tasks, layout, style, paint, script) to this path, a
   * JSON array of trace events; open it in Chromium's Performance panel or read it with
   * `bench/trace-tasks.ts`.
   */
  trace?: string
  log: (m: string) => void
}

/** In the page: click the first session row, resolve the ms until the frame after a transcript row is laid out in the view. */
const PAGE_FIRST_PAINT = `new Promise((resolve, reject) => {
  const t0 = performance.now()
  document.querySelector('[data-testid="session-row"]').click()
  const tick = () => {
    const view = document.querySelector('[data-testid="session-view"]')
    const v = view && view.getBoundingClientRect()
    const r = [...document.querySelectorAll('[data-testid="transcript"] [data-testid="message"]')].find((e) => {
      const b = e.getBoundingClientRect()
      return b.height > 0 && (!v || (b.bottom > v.top && b.top < v.bottom))
    })
    if (r) requestAnimationFrame(() => resolve(performance.now() - t0))
    else if (performance.now() - t0 > 120000) reject(new Error('no transcript row within 120 s'))
    else requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
})`

/** In the page: record every requestAnimationFrame delta, and long tasks. */
const PAGE_FRAMES_START = `(() => {
  window.__frames = []; window.__long = []; window.__rec = true; window.__phase = 'scroll'
  let last = performance.now()
  const f = (now) => { window.__frames.push([now - last, window.__phase]); last = now; if (window.__rec) requestAnimationFrame(f) }
  requestAnimationFrame(f)
  try { new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: 'longtask' }) } catch {}
})()`

/** In the page: stop recording; the frame deltas while scrolling (the first, from the start, dropped; those while the bench sampled the page left out) and long tasks. */
const PAGE_FRAMES_STOP = `(() => {
  window.__rec = false
  const all = window.__frames.slice(1)
  const scroll = all.filter((f) => f[1] !== 'sample')
  return { frames: scroll.map((f) => f[0]), slow: scroll.filter((f) => f[0] >= 50).map((f) => Math.round(f[0]) + ' ms at ' + f[1]), sampling: all.filter((f) => f[1] === 'sample').map((f) => f[0]), long: window.__long }
})()`
/** In the page: the next frames are the bench's sampling (counting elements, reading the heap), not scrolling. */
/** In the page: the next frames belong to `phase`; also a `TimeStamp` event in the trace (`console.timeStamp`), which `bench/trace-tasks.ts` prints beside each long task. */
const PAGE_PHASE = (phase: string): string => `window.__phase = '${phase}'; console.timeStamp('phase ${phase}')`

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b)
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : 0
}

/** Write the session, serve it, open and scroll it in Chromium (see the module doc). Removes the session after. */
export async function runRendererBench(o: RendererOptions): Promise<RendererResult> {
  const { chromium } = await import('playwright-core')
  const executablePath = o.chromium ?? process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'
  const dir = join(o.base, 'renderer')
  const steps = o.steps ?? 40
  const t = performance.now()
  const h = writeHugeSession(join(dir, 'session'), o.mb * 1e6)
  o.log(`renderer: ${(h.bytes / 1e6).toFixed(0)} MB session written in ${((performance.now() - t) / 1000).toFixed(1)} s; indexing it (sepia serve)...`)
  const dataDir = join(dir, 'data')
  mkdirSync(dataDir, { recursive: true })
  const userHome = join(dir, 'user-home')
  mkdirSync(userHome, { recursive: true })
  const profile = mkdtempSync(join(tmpdir(), 'sepia-bench-chromium-'))
  const s = await startServe({ root: o.root, home: h.home, env: { ...o.env, HOME: userHome, SEPIA_DATA_DIR: dataDir } })
  let ctx: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | undefined
  try {
    const ti = performance.now()
    await waitIndexIdle(s)
    const indexMs = performance.now() - ti
    o.log(`renderer: indexed in ${(indexMs / 1000).toFixed(1)} s; opening it in Chromium`)
    ctx = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      viewport: { width: 1280, height: 800 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    })
    const page = ctx.pages()[0] ?? (await ctx.newPage())
    let apiLargest = 0
    let apiResponses = 0
    page.on('requestfinished', (req) => {
      if (!req.url().includes('/api/')) return
      void req.sizes().then((z) => {
        apiResponses++
        apiLargest = Math.max(apiLargest, z.responseBodySize)
      }, () => undefined)
    })
    const cdp = await ctx.newCDPSession(page)
    await cdp.send('Performance.enable')
    const heapMB = async (): Promise<number> => {
      const m = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] }
      return (m.metrics.find((x) => x.name === 'JSHeapUsedSize')?.value ?? 0) / 1e6
    }
    const domNodes = (): Promise<number> => page.evaluate<number>(`document.getElementsByTagName('*').length`)
    await page.goto(`${s.url}/#token=${s.token}`)
    const row = page.locator('[data-testid="session-row"]').first()
    await row.waitFor({ timeout: 120_000 })
    // Click and wait for the first transcript row, both inside the page (the page's clock).
    const firstPaintMs = await page.evaluate<number>(PAGE_FIRST_PAINT)
    const view = page.getByTestId('session-view')
    const complete = async (): Promise<void> => {
      for (let i = 0; i < 600; i++) {
        if ((await view.getAttribute('data-complete')) === 'true') return
        await page.waitForTimeout(50)
      }
    }
    await complete()
    const domNodesAfterOpen = await domNodes()
    const heapUsedAfterOpenMB = await heapMB()
    o.log(`renderer: first paint ${firstPaintMs.toFixed(0)} ms, ${domNodesAfterOpen} elements, heap ${heapUsedAfterOpenMB.toFixed(0)} MB; scrolling in ${steps} steps`)
    await page.evaluate(PAGE_FRAMES_START)
    if (o.profile) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.start')
    }
    const traceEvents: unknown[] = []
    let traceDone: Promise<void> | undefined
    if (o.trace) {
      cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => {
        for (const x of e.value) traceEvents.push(x)
      })
      traceDone = new Promise((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()))
      await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute', transferMode: 'ReportEvents' })
    }
    let domNodesMax = domNodesAfterOpen
    let heapUsedMaxMB = heapUsedAfterOpenMB
    const box = await view.boundingBox()
    if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    for (let step = 1; step <= steps; step++) {
      await page.evaluate(PAGE_PHASE(`jump ${step}`))
      await page.evaluate(`(() => { const el = document.querySelector('[data-testid="session-view"]'); el.scrollTo(0, el.scrollHeight * ${step / steps} - el.clientHeight) })()`)
      for (let w = 0; w < 5; w++) {
        if (w === 1) await page.evaluate(PAGE_PHASE(`wheel ${step}`))
        await page.mouse.wheel(0, 400)
        await page.waitForTimeout(30)
      }
      await complete()
      await page.evaluate(PAGE_PHASE('sample'))
      domNodesMax = Math.max(domNodesMax, await domNodes())
      heapUsedMaxMB = Math.max(heapUsedMaxMB, await heapMB())
    }
    // The total height is measured as rows render: keep going to the bottom until the view stays there.
    const atEnd = `(() => { const el = document.querySelector('[data-testid="session-view"]'); return el.scrollTop + el.clientHeight >= el.scrollHeight - 2 })()`
    let reachedEnd = false
    for (let i = 0; i < 60 && !reachedEnd; i++) {
      await page.evaluate(PAGE_PHASE(`end ${i}`))
      await page.evaluate(`(() => { const el = document.querySelector('[data-testid="session-view"]'); el.scrollTo(0, el.scrollHeight) })()`)
      await page.waitForTimeout(100)
      await complete()
      reachedEnd = await page.evaluate<boolean>(atEnd)
    }
    domNodesMax = Math.max(domNodesMax, await domNodes())
    heapUsedMaxMB = Math.max(heapUsedMaxMB, await heapMB())
    if (o.profile) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown }
      writeFileSync(o.profile, JSON.stringify(profile))
      o.log(`renderer: CPU profile of the scroll in ${o.profile}`)
    }
    if (o.trace && traceDone) {
      await cdp.send('Tracing.end')
      await traceDone
      writeFileSync(o.trace, JSON.stringify(traceEvents))
      o.log(`renderer: trace of the scroll (${traceEvents.length} events) in ${o.trace}`)
    }
    const { frames, slow, sampling, long } = await page.evaluate<{ frames: number[]; slow: string[]; sampling: number[]; long: number[] }>(PAGE_FRAMES_STOP)
    // Idle with the session open (live updates on, the renderer polls getChanges): the page's main
    // thread busy time (CDP TaskDuration) and the server's CPU over `idleSec`.
    const taskSec = async (): Promise<number> => ((await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] }).metrics.find((x) => x.name === 'TaskDuration')?.value ?? 0
    const idleSec = o.idleSec ?? 20
    await page.waitForTimeout(3000)
    const task0 = await taskSec()
    const tick0 = cpuTicks(s.pid)
    const ti0 = performance.now()
    await page.waitForTimeout(idleSec * 1000)
    const wall = (performance.now() - ti0) / 1000
    const idle = { seconds: idleSec, pageBusyPct: (((await taskSec()) - task0) / wall) * 100, servePct: ((cpuTicks(s.pid) - tick0) / 100 / wall) * 100 }
    const out: RendererResult = {
      idle: { seconds: idle.seconds, pageBusyPct: Math.round(idle.pageBusyPct * 100) / 100, servePct: Math.round(idle.servePct * 100) / 100 },
      sessionMB: h.bytes / 1e6,
      nodes: 0,
      firstPaintMs: Math.round(firstPaintMs),
      domNodesMax,
      domNodesAfterOpen,
      heapUsedMaxMB: Math.round(heapUsedMaxMB),
      heapUsedAfterOpenMB: Math.round(heapUsedAfterOpenMB),
      frames: { count: frames.length, p50: Math.round(pct(frames, 50) * 10) / 10, p95: Math.round(pct(frames, 95) * 10) / 10, max: Math.round(Math.max(0, ...frames)), over50: frames.filter((x) => x >= 50).length },
      slowFrames: slow,
      samplingFrames: { count: sampling.length, max: Math.round(Math.max(0, ...sampling)) },
      longTasks: { count: long.length, maxMs: Math.round(Math.max(0, ...long)) },
      steps,
      reachedEnd,
      apiLargestResponseKB: Math.round(apiLargest / 1000),
      apiResponses,
      indexMs: Math.round(indexMs),
      servePeakRssMB: peakRssMB(s.pid),
    }
    out.nodes = (await s.call<{ totalNodes: number }>('getSessionPage', 'claude-code', h.id, { offset: 0, limit: 1 })).totalNodes
    o.log(`renderer: ${JSON.stringify(out)}`)
    return out
  } finally {
    await ctx?.close().catch(() => undefined)
    await s.stop()
    rmSync(profile, { recursive: true, force: true })
    rmSync(dir, { recursive: true, force: true })
  }
}
