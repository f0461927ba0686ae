/**
 * Entry of an indexing worker (worker_threads). Protocol (structured-clone messages):
 *
 *   main → worker  {type: 'index', dbPath, refs: StoreRef[], spill?, more?}   read + store each ref; with
 *                                     `spill`, the lighter first pass (`rows.ts`): session rows,
 *                                     then `listed`, then (after {type: 'rows'}) the message
 *                                     rows from the spill file; with `more`, further refs follow
 *                                     while main discovers the other stores:
 *                  {type: 'refs', refs, last}            more refs of the running job (`last`: no more)
 *                  {type: 'text', dbPath}                      fill the full-text index
 *                  {type: 'text', dbPath, follow: true, turn}  fill it while the rows pass of a cold
 *                                     index still writes (`followText`), until {type: 'rows-done'}
 *                                     says the rows are all written; then fill the rest
 *   worker → main  {type: 'item', item: IndexedRef}            after each ref
 *                  {type: 'listed'}                            every session row of the job is written
 *                  {type: 'text', done, total}                 after each full-text batch
 *                  {type: 'done'} | {type: 'failed', message}
 *
 * Built as its own entry (`catalog-worker.js`, electron.vite.config.ts); in development it is
 * loaded through tsx (see `pool.ts`).
 */
import { rmSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import { agentById } from '../agents/registry'
import type { StoreRef } from '../agents/types'
import { followText, indexRefs, indexText, RefQueue } from './indexer'
import { inTurn, RowSpill, useWriteTurn, writeSpilledRows } from './rows'
import { openCatalog } from './schema'
import { CatalogStore, TEXT_WORKER_BATCH } from './store'
import { lowerThreadPriority } from '../util/thread-priority'

/** A job sent to a worker. */
export type WorkerJob = { type: 'index'; dbPath: string; refs: StoreRef[]; spill?: string; turn?: SharedArrayBuffer; more?: boolean } | { type: 'text'; dbPath: string; follow?: boolean; turn?: SharedArrayBuffer }

/** More refs for a running job started with `more` (see the protocol above). */
export type MoreRefs = { type: 'refs'; refs: StoreRef[]; last: boolean }

const port = parentPort

/**
 * Test hook (rows.test.ts): with `SEPIA_TEST_DIE_IN_ROWS=<chars>`, a first pass keeps `<chars>`
 * of row text in memory (the rest goes to its spill file), and the worker of the first job (spill
 * `…-0.jsonl`) ends when told to write its rows, as a worker that dies after `listed` would.
 */
const dieInRows = process.env['SEPIA_TEST_DIE_IN_ROWS']

/**
 * Nice value a rows worker adds to its thread when it starts writing the message rows (Linux;
 * `util/thread-priority.ts`): at 10 the scheduler gives a nice-0 thread ~9 times its share.
 */
const ROWS_NICE = 10

/** Resolves the wait of a first pass for `{type: 'rows'}`. */
let go: (() => void) | undefined
/** The refs of a job started with `more` that its reader has not taken yet. */
const queue = new RefQueue()
/** Set by {type: 'rows-done'}: a following text fill (`followText`) fills the rest and ends. */
let rowsDone = false
if (port) {
  port.on('message', (job: WorkerJob | MoreRefs | { type: 'rows' } | { type: 'rows-done' }) => {
    if (job.type === 'rows') {
      go?.()
      return
    }
    if (job.type === 'refs') {
      queue.push(job.refs, job.last)
      return
    }
    // Queued at once: the job's own refs come before any part that arrives while it opens the catalog.
    if (job.type === 'index' && job.more) queue.push(job.refs, false)
    if (job.type === 'rows-done') {
      rowsDone = true
      return
    }
    void run(job).then(
      () => port.postMessage({ type: 'done' }),
      (e) => port.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(e) }),
    )
  })
}

async function run(job: WorkerJob): Promise<void> {
  const db = openCatalog(job.dbPath)
  try {
    const store = new CatalogStore(db)
    if (job.type === 'index') {
      // Rows are appended, never read back: a small page cache does as well and keeps the
      // worker's memory flat on a huge session (the text phase keeps the default).
      db.pragma('cache_size = -8192')
      const spill = job.spill !== undefined ? new RowSpill(job.spill, dieInRows ? Number(dieInRows) : undefined) : undefined
      try {
        const refs: StoreRef[] | AsyncIterable<StoreRef> = job.more ? queue : job.refs
        await indexRefs(refs, agentById, store, { now: Date.now }, (item) => port!.postMessage({ type: 'item', item }), spill)
      } finally {
        spill?.close()
      }
      if (spill) {
        // Every session row of this job is written: the library can be listed. The rows are
        // written when main says so (its link pass and listing write too, and would wait for
        // the write lock behind the rows' transactions).
        const told = new Promise<void>((resolve) => (go = resolve))
        port!.postMessage({ type: 'listed' })
        await told
        if (dieInRows && spill.path.endsWith('-0.jsonl')) process.exit(1)
        // Below the text worker that follows these rows into the full-text index: its one
        // writer is the longest chain of what is left (util/thread-priority.ts).
        lowerThreadPriority(ROWS_NICE)
        useWriteTurn(job.turn)
        await writeSpilledRows(store, spill)
        rmSync(spill.path, { force: true })
      }
    } else {
      const onStep = (done: number, total: number): void => port!.postMessage({ type: 'text', done, total })
      if (job.follow) {
        // Each batch in the rows workers' write turn (`rows.ts` `inTurn`).
        useWriteTurn(job.turn)
        await followText(store, onStep, () => rowsDone, TEXT_WORKER_BATCH, TEXT_WORKER_BATCH, inTurn)
      }
      else await indexText(store, onStep, undefined, TEXT_WORKER_BATCH)
    }
  } finally {
    db.close()
  }
}
