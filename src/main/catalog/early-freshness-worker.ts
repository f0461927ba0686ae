/**
 * The early freshness check's worker thread (`early-freshness.ts`; built as its own entry,
 * `out/main/early-freshness-worker.js`): opens the catalog read-only, reads the `fresh:`
 * snapshots of the given homes, and for each in turn posts it (its text, deps, number of paths,
 * slot), stats its recorded paths (`checkEntriesShared`: the same signatures as the calling
 * thread's check, from a counter the refresh's thread may claim chunks of too) and posts that it
 * is done with it.
 * Nothing is written; any failure is posted as `failed` and the refresh checks on its own thread.
 */
import Database from 'better-sqlite3'
import { parentPort, workerData } from 'node:worker_threads'
import { EARLY_SLOTS, type EarlyJob, type EarlyMessage } from './early-freshness'
import { checkEntriesShared, parseSnapshot } from './freshness'

function run(job: EarlyJob): void {
  const post = (m: EarlyMessage): void => parentPort!.postMessage(m)
  const shared = new Int32Array(job.shared)
  const texts: { key: string; value: string }[] = []
  const db = new Database(job.dbPath, { readonly: true, fileMustExist: true })
  try {
    // Keys `fresh:<home>:<agent>`: every key that starts with `fresh:<home>:` (`;` follows `:`).
    const rows = db.prepare('SELECT key, value FROM meta WHERE key >= ? AND key < ?')
    const seen = new Set<string>()
    for (const home of job.homes) {
      for (const row of rows.all(`fresh:${home}:`, `fresh:${home};`) as { key: string; value: string }[]) {
        if (seen.has(row.key) || texts.length >= EARLY_SLOTS) continue
        seen.add(row.key)
        texts.push(row)
      }
    }
  } finally {
    db.close()
  }
  // Each snapshot is posted, then checked, in turn: the refresh asks for them in about this order.
  for (const [slot, { key, value }] of texts.entries()) {
    const snap = parseSnapshot(value)
    if (!snap) continue
    post({ type: 'snapshot', key, slot, text: value, deps: snap.deps, count: snap.entries.length, diagnostics: snap.diagnostics })
    checkEntriesShared(snap.entries, shared, slot)
    post({ type: 'checked', key })
  }
}

try {
  run(workerData as EarlyJob)
  parentPort!.postMessage({ type: 'done' } satisfies EarlyMessage)
} catch (e) {
  parentPort!.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(e) } satisfies EarlyMessage)
}
