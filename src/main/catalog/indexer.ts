/**
 * The work of an indexing worker (also run inline for small refreshes): read each ref with its
 * agent's reader, extract the catalog rows, write them; and fill the full-text index from the
 * pending rows. Sessions are read one at a time so memory stays bounded by the largest session;
 * agents with a streaming reader (`readStream`, see `stream.ts`) are indexed node by node, with
 * memory bounded by the session's ids.
 */
import { statSync } from 'node:fs'
import type { Diagnostic } from '../../shared/ir'
import type { AgentDefinition, ReadContext, StoreRef } from '../agents/types'
import { extractHead, extractSession } from './extract'
import { writeHead, type RowSpill } from './rows'
import { indexStream } from './stream'
import { stampOf, type CatalogStore, type FileStamp } from './store'

/** Outcome of indexing one ref. */
export interface IndexedRef {
  agent: string
  sessionId: string
  home: string
  /** Bytes of the ref's files. */
  bytes: number
  /** Set when the session could not be read at all (or its rows could not be written). */
  error?: Diagnostic
}

/** Sizes and times of a ref's files (synchronous: one call each, no thread-pool round trip). */
function fileStamps(files: string[]): FileStamp[] {
  const out: FileStamp[] = []
  for (const path of files) {
    try {
      const s = statSync(path)
      out.push({ path, size: s.size, mtimeMs: s.mtimeMs })
    } catch {
      // vanished since discovery: the next refresh sees it
    }
  }
  return out
}

/** Sessions under this size (bytes) are written together with their neighbours... */
const GROUP_REF_BYTES = 1e6
/** ...up to this many bytes of sessions per transaction. */
const GROUP_BYTES = 8e6

function failure(ref: StoreRef, e: unknown): Diagnostic {
  return { severity: 'error', path: ref.files[0] ?? ref.home, agent: ref.agent, sessionId: ref.sessionId, message: `Could not read this session: ${e instanceof Error ? e.message : String(e)}` }
}

/**
 * Read and store every ref in order, calling `onEach` after each is committed. A ref whose
 * reader rejects (or whose write fails) is reported with an `error` diagnostic, the rest go on.
 * The writes of consecutive small sessions are kept until ~8 MB of sessions were read, then
 * committed in one IMMEDIATE transaction (each session a savepoint): one commit instead of one
 * per session, and the write lock is held only while writing, never while parsing, so the
 * workers run in parallel. A large session writes its own batches (`writer.ts`).
 *
 * With `spill` this is the lighter first pass of a cold index (`rows.ts`): each session's row is
 * written with a pending stamp and its message rows go, unmasked, to the spill file, for
 * `writeSpilledRows` to write afterwards.
 */
export async function indexRefs(
  refs: readonly StoreRef[] | AsyncIterable<StoreRef>,
  agentOf: (id: string) => AgentDefinition,
  store: CatalogStore,
  ctx: ReadContext,
  onEach: (r: IndexedRef) => void,
  spill?: RowSpill,
): Promise<void> {
  let pending: { ref: StoreRef; out: IndexedRef; write?: () => void }[] = []
  let pendingBytes = 0
  const commit = (): void => {
    const group = pending
    pending = []
    pendingBytes = 0
    const writes = group.filter((p) => p.write)
    const run = (): void => {
      for (const p of writes) {
        try {
          store.db.transaction(p.write!)()
        } catch (e) {
          p.out.error = failure(p.ref, e)
        }
      }
    }
    try {
      if (writes.length > 0) store.db.transaction(run).immediate()
    } catch (e) {
      // The catalog could not be written (busy past the timeout, disk full): nothing of the group was.
      for (const p of writes) p.out.error = failure(p.ref, e)
    }
    for (const p of group) onEach(p.out)
  }
  for await (const ref of refs) {
    const out: IndexedRef = { agent: ref.agent, sessionId: ref.sessionId, home: ref.home, bytes: ref.size }
    let write: (() => void) | undefined
    try {
      const def = agentOf(ref.agent)
      if (def.readStream) write = await indexStream(def, ref, ctx, store, () => fileStamps(ref.files), spill)
      else if (spill) {
        const session = await def.read(ref, ctx)
        spill.begin(ref, stampOf(ref))
        const head = extractHead(session, ref, (r) => spill.row(r))
        spill.end()
        const files = fileStamps(ref.files)
        write = () => void writeHead(store, head, files)
      } else {
        const rec = extractSession(await def.read(ref, ctx), ref)
        const files = fileStamps(ref.files)
        write = () => void store.writeSession(rec, files)
      }
    } catch (e) {
      out.error = failure(ref, e)
    }
    pending.push(write ? { ref, out, write } : { ref, out })
    pendingBytes += ref.size
    // A queue that has run dry (main still discovers): what was read is committed before the wait.
    if (ref.size >= GROUP_REF_BYTES || pendingBytes >= GROUP_BYTES || (refs instanceof RefQueue && refs.dry)) commit()
  }
  commit()
}

/**
 * Refs handed over in parts (a worker's job while main still discovers, `worker.ts`), read in the
 * order they came: an async iterable that waits for the next part until the last one was pushed.
 */
export class RefQueue implements AsyncIterable<StoreRef> {
  private items: StoreRef[] = []
  private at = 0
  private ended = false
  private wake: (() => void) | undefined

  /** True when the next ref is not here yet (the reader would wait for a part). */
  get dry(): boolean {
    return this.at >= this.items.length && !this.ended
  }

  /** Append `refs`; `last`: nothing more comes. */
  push(refs: readonly StoreRef[], last: boolean): void {
    for (const r of refs) this.items.push(r)
    if (last) this.ended = true
    const w = this.wake
    this.wake = undefined
    w?.()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StoreRef> {
    for (;;) {
      if (this.at < this.items.length) {
        const ref = this.items[this.at]!
        // Taken refs are not kept.
        this.items[this.at++] = undefined as unknown as StoreRef
        yield ref
        continue
      }
      if (this.ended) return
      await new Promise<void>((resolve) => (this.wake = resolve))
    }
  }
}

/**
 * Fill the full-text index from the pending rows in batches of `batch`, calling `onStep(done,
 * total)` after each; stops early when `shouldStop()` says so (a new refresh started).
 */
export async function indexText(store: CatalogStore, onStep: (done: number, total: number) => void, shouldStop: () => boolean = () => false, batch = 2000): Promise<void> {
  const total = store.ftsPending()
  let done = 0
  while (!shouldStop()) {
    const n = store.ftsStep(batch)
    if (n === 0) break
    done += n
    onStep(done, Math.max(total, done))
    // Let the event loop breathe between batches (inline mode shares the main thread).
    await new Promise((r) => setImmediate(r))
  }
}

/**
 * Rows of the first batch of a {@link followText} fill (each next batch twice the last, up to its
 * `least`): on the bench's 204,654 rows the fill's chain then starts ~0.6 s after the listing
 * instead of waiting for 20,000 committed rows (BENCHMARKS.md "Search ready, session 12").
 */
export const FOLLOW_FIRST_BATCH = 2_500

/** How often a {@link followText} fill looks for newly committed rows while the rows are written (ms). */
const FOLLOW_POLL_MS = 50

/**
 * Fill the full-text index while the rows pass of a cold index (`rows.ts`) is still writing the
 * message rows: each batch takes the pending rows committed so far (`ftsStep` takes the rows
 * above the index's `through_mid`, so a row is indexed once whichever connection wrote it). While
 * `rowsDone()` is false a batch waits until at least `least` rows are pending (the first ones
 * fewer: {@link FOLLOW_FIRST_BATCH}, doubling), so the index gets batches as large as after the
 * rows (`TEXT_WORKER_BATCH`: fewer FTS5 segments and merges);
 * once it is true the rest is filled in batches of `batch` until none is pending. `onStep(done,
 * total)` as in {@link indexText} (total: done + still pending). `around` runs each batch's
 * catalog transaction (the write turn of the rows pass, `rows.ts` `inTurn`); its index
 * transaction, the long part, is in the other file and runs beside the rows' writes
 * (`CatalogStore.ftsStep`). `first`: the rows the first batch waits for (default
 * {@link FOLLOW_FIRST_BATCH}).
 */
export async function followText(
  store: CatalogStore,
  onStep: (done: number, total: number) => void,
  rowsDone: () => boolean,
  batch: number,
  least: number = batch,
  around: <T>(fn: () => T) => T = (fn) => fn(),
  first: number = FOLLOW_FIRST_BATCH,
): Promise<void> {
  let done = 0
  // The first batches are smaller (`first`, doubling up to `least`): the index is the longest
  // chain of a cold index's rows phase, so it starts as soon as a few rows are committed.
  let want = Math.max(1, Math.min(least, first))
  for (;;) {
    // Read before the step: every row committed before the rows ended is then visible to it.
    const last = rowsDone()
    if (!last && !store.ftsPendingAtLeast(want)) {
      await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS))
      continue
    }
    const n = store.ftsStep(batch, around)
    want = Math.min(least, want * 2)
    if (n === 0 && last) break
    done += n
    onStep(done, done + store.ftsPending())
    await new Promise((r) => setImmediate(r))
  }
}
