/**
 * The candidate plan search used before `src/main/search/plan.ts` (issue #8), kept as the reference
 * that `plan.test.ts` compares the fast plan against (not used by the app, so it lives with the
 * test builders; it was `src/main/search/plan-reference.ts`).
 *
 * It takes the newest matches from the index, keeps those that pass the filters, and with filters
 * that keep few asks again for 8x more matches (from scratch), up to `cap`. Its result is the
 * contract stated in `plan.ts`: the newest `wanted` (default `CANDIDATES + 1`) passing rows among
 * the newest `cap` matches (`cap = Infinity`: all of them, as the default fast plan), and whether
 * those were all the matches.
 */
import type Database from 'better-sqlite3'
import { CANDIDATES, MAX_SCANNED, type CandidateRow, type Found, type SearchScope } from '../../../src/main/search/plan'

/** The old finder; `chunk` (first fetch = 8 × chunk when filtered) and `cap` as it had them. */
export function referenceCandidates(db: Database.Database, scope: SearchScope, match: string, chunk = 400, cap = MAX_SCANNED, wanted = CANDIDATES + 1): Found {
  const fetch = (take: number): CandidateRow[] =>
    db
      .prepare(
        `SELECT m.mid AS mid, m.created_at AS created_at
         FROM (SELECT rowid AS mid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC LIMIT ?) f
         CROSS JOIN messages m ON m.mid = f.mid CROSS JOIN sessions s ON s.sid = m.sid
         WHERE ${scope.where.join(' AND ')} ORDER BY m.mid DESC LIMIT ?`,
      )
      .all(match, take, ...scope.args, wanted) as CandidateRow[]
  let rows: CandidateRow[] = []
  for (let want = scope.filtered ? 8 * chunk : wanted; ; want *= 8) {
    const take = Math.min(want, cap)
    rows = fetch(take)
    if (rows.length >= wanted) return { rows, exhausted: () => false }
    if (!scope.filtered) return { rows, exhausted: () => true }
    const scanned = (db.prepare(`SELECT count(*) AS n FROM (SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC LIMIT ?)`).get(match, take) as { n: number }).n
    if (scanned < take) return { rows, exhausted: () => true }
    if (take >= cap) return { rows, exhausted: () => false }
  }
}
