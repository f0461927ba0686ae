/**
 * The early freshness check's worker thread (`early-freshness.ts`; built as its own entry,
 * `out/main/early-freshness-worker.js`): opens the catalog read-only, reads the `fresh:`
 * snapshots of the given homes, posts each (its text, deps, number of paths, slot), then for each
 * in turn stats its recorded paths (`checkEntriesShared`: the same signatures as the calling
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
  // Every snapshot is posted before any is checked, then each is checked in turn: the refresh may
  // ask for any of them (in the agents' order, not the keys') and help stat it at once, instead of
  // waiting idle until the worker is done with the ones before it (issue 15: ~30-50 ms of a warm
  // search on 2 cores).
  const parsed: { key: string; slot: number; entries: readonly (readonly [string, string])[] }[] = []
  for (const [slot, { key, value }] of texts.entries()) {
    const snap = parseSnapshot(value)
    if (!snap) continue
    post({ type: 'snapshot', key, slot, text: value, deps: snap.deps, count: snap.entries.length, diagnostics: snap.diagnostics })
    parsed.push({ key, slot, entries: snap.entries })
  }
  for (const { key, slot, entries } of parsed) {
    checkEntriesShared(entries, shared, slot)
    post({ type: 'checked', key })
  }
}

try {
  run(workerData as EarlyJob)
  parentPort!.postMessage({ type: 'done' } satisfies EarlyMessage)
} catch (e) {
  parentPort!.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(e) } satisfies EarlyMessage)
}
