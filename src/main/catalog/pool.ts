/**
 * Start indexing workers (worker_threads) and hand them jobs. In a build the worker is
 * `catalog-worker.js` beside the main bundle; from TypeScript sources (tsx, Vitest, `npx sepia`)
 * it is `worker.ts`, loaded through tsx's loader. When no worker can be started, callers fall
 * back to indexing on the calling thread.
 */
import { Worker } from 'node:worker_threads'
import { builtWorkerFile, sourceWorkerCode } from '../util/worker-entry'
import type { StoreRef } from '../agents/types'
import type { IndexedRef } from './indexer'
import type { WorkerJob } from './worker'

/** Messages a worker posts. */
type WorkerMessage = { type: 'item'; item: IndexedRef } | { type: 'listed' } | { type: 'text'; done: number; total: number } | { type: 'done' } | { type: 'failed'; message: string }

/**
 * Heap limit of a worker (MB of V8 old generation). Besides capping a runaway read, a small
 * maximum makes V8 grow the heap by a smaller factor after each collection (V8
 * `src/heap/heap-controller.cc`: the factor rises with the maximum heap size, up to 4×), so the
 * streaming index of a 1 GB transcript stays near its live size (measured: peak RSS of the
 * indexing process ~570–590 MB with a 4 GB limit, ~420 MB with this one; BENCHMARKS.md). A whole-session
 * read that needs more kills the worker; the refresh then finishes that work on the calling thread.
 */
export const WORKER_HEAP_MB = 512

/**
 * The built worker file for a bundled module at `here` (a file: URL), or undefined: `catalog-worker.js`
 * in the module's folder or its parent (`builtWorkerFile`, util/worker-entry.ts).
 */
export function builtWorkerPath(here: string): string | undefined {
  return builtWorkerFile(here, 'catalog-worker.js')
}

/** With SEPIA_DEBUG_WORKERS=1, one line on stderr says how indexing runs (tests read it). */
function report(mode: string): void {
  if (process.env['SEPIA_DEBUG_WORKERS'] === '1') process.stderr.write(`sepia: indexing worker ${mode}\n`)
}

/**
 * Errors and exits of workers that happened before a job listened (a worker started early, while
 * the stores are discovered, can fail to load before {@link runJob} attaches its listeners; an
 * unheard 'error' event would end the process).
 */
const early = new WeakMap<Worker, { error?: Error; exitCode?: number }>()

/** A started worker, listened to from the start (see {@link early}). */
function watched(w: Worker): Worker {
  const state: { error?: Error; exitCode?: number } = {}
  early.set(w, state)
  w.on('error', (e: Error) => (state.error ??= e))
  w.once('exit', (code: number) => (state.exitCode = code))
  return w
}

/**
 * The parent's Node flags minus those that only apply to the main entry (`--input-type` is refused
 * for a worker file: `node --input-type=module -e "import('out/main/cli.js')…"` would fail every worker).
 */
function workerExecArgv(): string[] {
  return process.execArgv.filter((a, i, all) => !a.startsWith('--input-type') && !(a === '--input-type' || all[i - 1] === '--input-type'))
}

/** Start one indexing worker, or return undefined when that is impossible here. */
export function startWorker(): Worker | undefined {
  const here = import.meta.url
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB }
  try {
    if (here.endsWith('.ts')) {
      const code = sourceWorkerCode(here, './worker.ts')
      report('started (sources)')
      return watched(new Worker(code, { eval: true, resourceLimits, execArgv: workerExecArgv() }))
    }
    const built = builtWorkerPath(here)
    if (!built) {
      report('missing: indexing on the calling thread')
      return undefined
    }
    report(`started ${built}`)
    return watched(new Worker(built, { resourceLimits, execArgv: workerExecArgv() }))
  } catch (e) {
    report(`failed (${(e as Error).message}): indexing on the calling thread`)
    return undefined
  }
}

/** Run one job on a worker; `onMessage` sees progress. Resolves when the worker says done. */
export function runJob(worker: Worker, job: WorkerJob, onMessage: (m: WorkerMessage) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const before = early.get(worker)
    if (before?.error || before?.exitCode !== undefined) {
      reject(before.error ?? new Error(`the indexing worker stopped (exit code ${before.exitCode})`))
      return
    }
    const onMsg = (m: WorkerMessage): void => {
      if (m.type === 'done') finish()
      else if (m.type === 'failed') finish(new Error(m.message))
      else onMessage(m)
    }
    const onError = (e: Error): void => finish(e)
    const onExit = (code: number): void => finish(new Error(`the indexing worker stopped (exit code ${code})`))
    const finish = (e?: Error): void => {
      worker.off('message', onMsg)
      worker.off('error', onError)
      worker.off('exit', onExit)
      if (e) reject(e)
      else resolve()
    }
    worker.on('message', onMsg)
    worker.on('error', onError)
    worker.on('exit', onExit)
    worker.postMessage(job)
  })
}

/**
 * Split refs into `n` lists of about equal bytes (largest first, each to the lightest list), so
 * one huge session does not leave the other workers idle at the end.
 */
export function splitBySize(refs: readonly StoreRef[], n: number): StoreRef[][] {
  const lists: StoreRef[][] = Array.from({ length: Math.max(1, n) }, () => [])
  const load = lists.map(() => 0)
  for (const ref of [...refs].sort((a, b) => b.size - a.size)) {
    let k = 0
    for (let i = 1; i < load.length; i++) if (load[i]! < load[k]!) k = i
    lists[k]!.push(ref)
    load[k]! += ref.size
  }
  return lists.filter((l) => l.length > 0)
}

/**
 * {@link splitBySize} for refs that come in parts (a cold index's agents, as each is discovered):
 * each part's refs, largest first, go to the list with the fewest bytes so far.
 */
export class SizeSplitter {
  private readonly load: number[]

  constructor(n: number) {
    this.load = Array.from({ length: Math.max(1, n) }, () => 0)
  }

  /** One part split over the lists: the refs each list takes (possibly none). */
  split(refs: readonly StoreRef[]): StoreRef[][] {
    const out: StoreRef[][] = this.load.map(() => [])
    for (const ref of [...refs].sort((a, b) => b.size - a.size)) {
      let k = 0
      for (let i = 1; i < this.load.length; i++) if (this.load[i]! < this.load[k]!) k = i
      out[k]!.push(ref)
      this.load[k]! += ref.size
    }
    return out
  }
}
