/**
 * What `npm run bench` (bench/run.ts) and `npm run bench -- --postgres` (bench/postgres.ts) share:
 * the search queries both time and the percentile they report.
 */

/**
 * The search queries both benches time over the corpus (bench/corpus.ts plants the rare words):
 * `[query, filters]`, the filters as `search` takes them. Each bench appends its own (run.ts: CJK
 * text; postgres.ts: a tool name, role and sort filter).
 */
export const SEARCH_QUERIES: readonly [string, Record<string, unknown>][] = [
  ['session', {}],
  ['catalog index', {}],
  ['getSessionPage', {}],
  ['getSess', {}],
  ['src/main/library_catalog.ts', {}],
  ['snake_case_name', {}],
  ['frobnicate_widget', {}],
  ['zanzibarquokka', {}],
  ['"parse render"', {}],
  ['error -promise', {}],
  ['token', { agent: 'claude-code' }],
  ['return', { project: '/home/ana/src/project-03' }],
]

/** The `p`th percentile (0 to 100) of `values` (ms), nearest rank; `values` must not be empty. */
export function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}
