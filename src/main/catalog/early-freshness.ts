/**
 * The freshness check of a one-shot CLI command, started before the CLI's modules load (issue 15).
 *
 * A warm `sepia search` or `sepia list` spends most of its time in two things that need each
 * other's core only at the end: loading its modules (~0.15 s, one thread) and the freshness
 * check (`freshness.ts`: a `stat` of every recorded path, ~22,800 for the bench corpus, ~0.1 s plus
 * the GC of their `Stats`). `bin/sepia.mjs` calls {@link startEarlyFreshness} first, which starts a
 * worker thread (`early-freshness-worker.ts`, its own build entry) that opens the catalog
 * read-only, reads the `fresh:` snapshots of the homes the command names, stats their paths and
 * posts, per snapshot, its text and whether every path still has its recorded signature. The
 * first refresh of the process ({@link claimEarlyFreshness}, `refresh.ts`) uses an answer only
 * for a snapshot whose text is exactly the text the refresh itself read from its catalog (the
 * deps it was recorded for are part of that text and compared as usual); any other snapshot,
 * a worker that could not start, failed or ended without answering, is checked the usual way on
 * the calling thread. Later refreshes of the same process (`sepia serve`, the app) never use it.
 *
 * Why the early observation keeps the guarantee (`freshness.ts`): each signature is observed after
 * this process started and before the refresh decides to skip the discovery, so before the reads
 * (none, when it skips) that make the catalog hold what it holds for this command; the answer is
 * about the snapshot text alone (which paths, which signatures), so it holds for any catalog that
 * holds that same text. A change after the observation shows in the next command's check, as a
 * change right after the calling thread's own check would.
 *
 * Nothing here runs in the Electron app: only the CLI entry starts it.
 */
import { existsSync, readFileSync } from 'node:fs'
import { availableParallelism, homedir, loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { Diagnostic } from '../../shared/ir'
import { defaultAppDataDir } from '../context'
import { homesFromArgv } from '../host'
import { resolveHome } from '../platform/home'
import { checkEntriesShared, parseSnapshot, sharedOutcome } from './freshness'
import { builtWorkerFile, sourceWorkerCode } from '../util/worker-entry'

/** The CLI commands whose first refresh takes the early answers (the others start no worker). */
export const EARLY_COMMANDS: ReadonlySet<string> = new Set(['list', 'search', 'show', 'usage', 'timeline'])

/** `CATALOG_FILE` of `schema.ts` (not imported: that module loads the SQLite driver; a test checks they agree). */
export const EARLY_CATALOG_FILE = 'catalog.sqlite'

/** Snapshots checked together by the worker and the refresh (more are left to the refresh). */
export const EARLY_SLOTS = 256

/** What the worker is given. */
export interface EarlyJob {
  dbPath: string
  /** Homes whose `fresh:<home>:` snapshots are checked. */
  homes: string[]
  /** Int32 ×3 per slot, see `checkEntriesShared` (freshness.ts). */
  shared: SharedArrayBuffer
}

/** One snapshot the worker read (posted before it checks any). */
export interface EarlySnapshot {
  key: string
  slot: number
  /** The snapshot text as the worker read it (compared with the refresh's). */
  text: string
  /** Its `deps` (`depsKey`), for the refresh to compare with the home's deps. */
  deps: string
  /** Number of recorded paths. */
  count: number
  diagnostics: Diagnostic[]
}

/** Messages the worker posts: every snapshot it read, then each slot it is done with, then done. */
export type EarlyMessage = ({ type: 'snapshot' } & EarlySnapshot) | { type: 'checked'; key: string } | { type: 'done' } | { type: 'failed'; message: string }

/** The worker's (and the refresh's) answer for one snapshot text. */
export interface EarlyAnswer {
  deps: string
  /** Every recorded path had its recorded signature when it was stat'ed (after the process started). */
  unchanged: boolean
  diagnostics: Diagnostic[]
}

/** The first refresh's handle on the early answers. */
export interface EarlyFreshness {
  /**
   * The answer for the snapshot `key` whose text is `text`: when the worker read that same text,
   * the refresh's thread helps stat what the worker has not yet, then waits for the rest; undefined
   * when the worker did not read that text or could not finish (then the caller checks it itself).
   */
  answer(key: string, text: string): Promise<EarlyAnswer | undefined>
  /** The refresh is past its checks: the worker is ended and the answers dropped. */
  release(): void
}

/** The refresh is never kept waiting longer than this for the worker (then it checks itself). */
const WAIT_TIMEOUT_MS = 10_000

interface State {
  worker: Worker
  shared: Int32Array
  snapshots: Map<string, EarlySnapshot>
  checked: Set<string>
  /** Called after every message and at the end. */
  listeners: Set<() => void>
  ended: boolean
}

let state: State | undefined
let claimed = false
/** Which snapshot keys the last claimed check answered for the refresh, and which it could not (tests). */
let lastReport: { used: string[]; ignored: string[] } = { used: [], ignored: [] }

/**
 * Start the early check for a CLI command line (`argv` without node and script): only for
 * {@link EARLY_COMMANDS} as the first argument, and a catalog file that exists. Homes are the
 * `--home` values (from the working directory, as `processContext` takes them), else the own home;
 * and only when a core is likely free ({@link coreLikelyFree}).
 */
export function startEarlyFreshness(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  if (!EARLY_COMMANDS.has(argv[0] ?? '')) return false
  if (!coreLikelyFree(env)) return false
  const platform = process.platform === 'win32' ? 'win32' : process.platform === 'darwin' ? 'darwin' : 'linux'
  const own = resolveHome(env, homedir)
  const dbPath = join(defaultAppDataDir(platform, env, own), EARLY_CATALOG_FILE)
  if (!existsSync(dbPath)) return false
  const given = homesFromArgv(argv)
  return startEarlyCheck(dbPath, given.length > 0 ? given.map((h) => resolve(h)) : [own])
}

/**
 * The worker only pays when a core would otherwise be idle while this thread loads its modules: it
 * costs ~0.05-0.1 s of CPU of its own (a worker's start, its modules, reading the snapshots), and
 * on a machine whose cores are busy that CPU is taken from this thread (measured: a warm search
 * 0.1-0.2 s slower at a load of 3 on 2 cores; BENCHMARKS.md "Warm CLI, session 8"). So it starts
 * when a core is free for it beside this thread ({@link coreFreeFor}): on Linux from the tasks
 * runnable right now (`/proc/loadavg`), elsewhere from the 1-minute load average (Windows reports
 * none: there it starts). `SEPIA_EARLY_FRESHNESS=1` always starts it, `=0` never does.
 */
export function coreLikelyFree(env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env['SEPIA_EARLY_FRESHNESS']
  if (force === '1') return true
  if (force === '0') return false
  return coreFreeFor(runnableNow(), loadavg()[0]!, availableParallelism())
}

/**
 * Whether a core is free for the worker. `runnable` (tasks runnable now, this thread included;
 * undefined where unknown) says it at the moment the command starts: free when the others leave
 * two cores, one for this thread and one for the worker. The 1-minute load average is the
 * fallback: it lags (a machine quiet for the last 20 s still averages over 1 on 2 cores, where the
 * worker helped; BENCHMARKS.md "Warm CLI, session 8"), so it only decides where `runnable` is not
 * known, as before: free when it leaves a core.
 */
export function coreFreeFor(runnable: number | undefined, load1: number, cores: number): boolean {
  if (runnable !== undefined) return runnable - 1 <= cores - 2
  return load1 <= cores - 1
}

/**
 * Tasks runnable right now, the reading thread included: the `running` of `/proc/loadavg`'s
 * fourth field (`running/total`, Linux); undefined elsewhere or when it does not read as a count.
 */
export function runnableNow(text?: string): number | undefined {
  let t = text
  if (t === undefined) {
    if (process.platform !== 'linux') return undefined
    try {
      t = readFileSync('/proc/loadavg', 'utf8')
    } catch {
      return undefined
    }
  }
  const m = /^\S+ \S+ \S+ (\d+)\/\d+/.exec(t)
  return m ? Number(m[1]) : undefined
}

/** Start the worker (once per process; `workerFile` replaces the built or source worker, for tests). */
export function startEarlyCheck(dbPath: string, homes: string[], workerFile?: string): boolean {
  if (state || claimed) return false
  const buffer = new SharedArrayBuffer(EARLY_SLOTS * 3 * 4)
  let worker: Worker
  try {
    const w = newWorker({ dbPath, homes, shared: buffer }, workerFile)
    if (!w) return false
    worker = w
  } catch {
    return false
  }
  const s: State = { worker, shared: new Int32Array(buffer), snapshots: new Map(), checked: new Set(), listeners: new Set(), ended: false }
  state = s
  const notify = (): void => {
    for (const f of [...s.listeners]) f()
  }
  const end = (): void => {
    if (s.ended) return
    s.ended = true
    notify()
  }
  worker.on('message', (m: EarlyMessage) => {
    if (m.type === 'snapshot') s.snapshots.set(m.key, m)
    else if (m.type === 'checked') s.checked.add(m.key)
    else return end()
    notify()
  })
  worker.on('error', end)
  worker.on('exit', end)
  // Never what keeps the process alive, except while a refresh waits for it.
  worker.unref()
  return true
}

function newWorker(job: EarlyJob, workerFile?: string): Worker | undefined {
  const here = import.meta.url
  const options = { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 256 } }
  if (workerFile) return new Worker(workerFile, options)
  if (here.endsWith('.ts')) {
    // From the TypeScript sources (tests, tsx): the worker goes through tsx's loader too.
    return new Worker(sourceWorkerCode(here, './early-freshness-worker.ts'), { ...options, eval: true })
  }
  // Beside this entry (out/main/early-freshness.js), or one folder up when the bundler put this module in a chunk.
  const built = builtWorkerFile(here, 'early-freshness-worker.js')
  return built ? new Worker(built, options) : undefined
}

/** Resolves when `ready()` holds after a message of the worker or its end, or after the timeout. */
function until(s: State, ready: () => boolean): Promise<void> {
  if (ready() || s.ended) return Promise.resolve()
  return new Promise((done) => {
    const finish = (): void => {
      clearTimeout(timer)
      s.listeners.delete(check)
      if (s.listeners.size === 0) s.worker.unref()
      done()
    }
    const check = (): void => {
      if (ready() || s.ended) finish()
    }
    const timer = setTimeout(finish, WAIT_TIMEOUT_MS)
    s.listeners.add(check)
    s.worker.ref()
  })
}

/**
 * The early answers, for the first refresh of the process only (undefined for every later call,
 * and when no check was started).
 */
export function claimEarlyFreshness(): EarlyFreshness | undefined {
  if (claimed) return undefined
  claimed = true
  const s = state
  if (!s) return undefined
  const report = { used: [] as string[], ignored: [] as string[] }
  lastReport = report
  let released = false
  const release = (): void => {
    if (released) return
    released = true
    s.ended = true
    for (const f of [...s.listeners]) f()
    void s.worker.terminate()
    state = undefined
  }
  const answer = async (key: string, text: string): Promise<EarlyAnswer | undefined> => {
    await until(s, () => s.snapshots.has(key))
    const snap = released ? undefined : s.snapshots.get(key)
    s.snapshots.delete(key)
    let outcome: boolean | undefined
    if (snap && snap.text === text) {
      outcome = sharedOutcome(s.shared, snap.slot, snap.count)
      if (outcome === undefined && !s.ended) {
        // The worker is not done with it: this thread stats from the same counter, then waits for the worker's last chunk.
        const parsed = parseSnapshot(text)
        if (parsed && parsed.entries.length === snap.count) checkEntriesShared(parsed.entries, s.shared, snap.slot)
        outcome = sharedOutcome(s.shared, snap.slot, snap.count)
        if (outcome === undefined) {
          await until(s, () => s.checked.has(key))
          outcome = sharedOutcome(s.shared, snap.slot, snap.count)
        }
      }
    }
    if (outcome === undefined || !snap) {
      report.ignored.push(key)
      return undefined
    }
    report.used.push(key)
    return { deps: snap.deps, unchanged: outcome, diagnostics: snap.diagnostics }
  }
  return { release, answer: (key, text) => (released ? Promise.resolve(undefined) : answer(key, text)) }
}

/** Which snapshot keys the claimed early check answered, and which the refresh checked itself (tests). */
export function earlyFreshnessReport(): { used: string[]; ignored: string[] } {
  return { used: [...lastReport.used], ignored: [...lastReport.ignored] }
}

/** Resolves when the started worker has ended (done, failed or exited; tests). */
export function whenEarlyDone(): Promise<void> {
  return state ? until(state, () => false) : Promise.resolve()
}

/** Forget the process's early check (tests: each case is a new "process"). */
export function resetEarlyFreshness(): void {
  if (state) void state.worker.terminate()
  state = undefined
  claimed = false
  lastReport = { used: [], ignored: [] }
}
