/**
 * The work of an indexing worker (also run inline for small refreshes): read each ref with its
 * agent's reader, extract the catalog rows, write them; and fill the full-text index from the
 * pending rows. Sessions are read one at a time so memory stays bounded by the largest session.
 */
import { stat } from 'node:fs/promises'
import type { Diagnostic } from '../../shared/ir'
import type { AgentDefinition, ReadContext, StoreRef } from '../agents/types'
import { extractSession } from './extract'
import type { CatalogStore, FileStamp } from './store'

/** Outcome of indexing one ref. */
export interface IndexedRef {
  agent: string
  sessionId: string
  home: string
  /** Bytes of the ref's files. */
  bytes: number
  /** Set when the session could not be read at all. */
  error?: Diagnostic
}

async function fileStamps(files: string[]): Promise<FileStamp[]> {
  const out: FileStamp[] = []
  for (const path of files) {
    try {
      const s = await stat(path)
      out.push({ path, size: s.size, mtimeMs: s.mtimeMs })
    } catch {
      // vanished since discovery: the next refresh sees it
    }
  }
  return out
}

/**
 * Read and store every ref in order, calling `onEach` after each. A ref whose reader rejects is
 * reported with an `error` diagnostic (and not written), the rest go on.
 */
export async function indexRefs(
  refs: readonly StoreRef[],
  agentOf: (id: string) => AgentDefinition,
  store: CatalogStore,
  ctx: ReadContext,
  onEach: (r: IndexedRef) => void,
): Promise<void> {
  for (const ref of refs) {
    const out: IndexedRef = { agent: ref.agent, sessionId: ref.sessionId, home: ref.home, bytes: ref.size }
    try {
      const session = await agentOf(ref.agent).read(ref, ctx)
      const rec = extractSession(session, ref)
      store.writeSession(rec, await fileStamps(ref.files))
    } catch (e) {
      out.error = { severity: 'error', path: ref.files[0] ?? ref.home, agent: ref.agent, sessionId: ref.sessionId, message: `Could not read this session: ${e instanceof Error ? e.message : String(e)}` }
    }
    onEach(out)
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
