/**
 * The resume matrix's record: every case ever run, kept next to the Markdown report
 * (`RESUME-MATRIX.json` beside `RESUME-MATRIX.md`) so a run over some targets or sources updates
 * their cells and keeps the others. A Cline resume takes about a minute a session; rerunning every
 * column to add one would take an hour.
 *
 * Shape: {@link MatrixRecord}. Cases are keyed by source label, session id and target agent; a run
 * replaces every stored case of each (source, target) pair it ran, so a session that left a source
 * does not linger.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { Column, Row } from './report'
import type { CaseResult } from './run-case'

/** One stored case: the run's result without the agent output and the sandbox path. */
export type StoredCase = Omit<CaseResult, 'output' | 'sandbox'> & {
  /** When the case ran (ISO date, `YYYY-MM-DD`). */
  date: string
}

/** What `RESUME-MATRIX.json` holds. */
export interface MatrixRecord {
  version: 1
  /** Target columns in display order, with the CLI each was proven with. */
  columns: Column[]
  /** Source rows in matrix order, with their session counts. */
  rows: Row[]
  cases: StoredCase[]
}

/** The stored record, or an empty one when `path` is missing. Throws on a file that is not a record. */
export function loadRecord(path: string): MatrixRecord {
  if (!existsSync(path)) return { version: 1, columns: [], rows: [], cases: [] }
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as MatrixRecord
  if (parsed.version !== 1 || !Array.isArray(parsed.cases)) throw new Error(`${path} is not a resume-matrix record (version 1)`)
  return parsed
}

/** Write the record (stable key order, one case per line block). */
export function saveRecord(path: string, record: MatrixRecord): void {
  writeFileSync(path, JSON.stringify(record, null, 1) + '\n')
}

/** Target columns in this order, whatever order runs added them. */
const COLUMN_ORDER = ['claude-code', 'cline', 'codex', 'gemini', 'opencode', 'kilo-code']
COLUMN_ORDER.push('qwen-code', 'pi', 'copilot-cli', 'droid', 'continue')

/**
 * Merge a run into the stored record: the run's columns and rows replace stored ones with the same
 * key (new ones are added; columns sorted by {@link COLUMN_ORDER}, rows by `rowOrder`), and every
 * stored case of a (source, target) pair the run covered is replaced by the run's cases, and every
 * stored case with the source, session id and target of a run case is replaced by it (a run of
 * single cases passes no pairs: the other cases of those cells stay).
 */
export function mergeRun(
  stored: MatrixRecord,
  run: { columns: Column[]; rows: Row[]; cases: CaseResult[]; date: string; pairs: Array<[string, string]> },
  rowOrder: readonly string[],
): MatrixRecord {
  const ran = new Set(run.pairs.map(([s, t]) => `${s}>${t}`))
  const rerun = new Set(run.cases.map((c) => `${c.source}>${c.sessionId}>${c.target}`))
  const cases: StoredCase[] = stored.cases.filter((c) => !ran.has(`${c.source}>${c.target}`) && !rerun.has(`${c.source}>${c.sessionId}>${c.target}`))
  for (const c of run.cases) {
    const { output: _output, sandbox: _sandbox, ...rest } = c
    cases.push({ ...rest, date: run.date })
  }
  const columns = new Map(stored.columns.map((c) => [c.agent, c]))
  for (const c of run.columns) columns.set(c.agent, c)
  const rows = new Map(stored.rows.map((r) => [r.label, r]))
  for (const r of run.rows) rows.set(r.label, r)
  const rank = (list: readonly string[], key: string) => (list.includes(key) ? list.indexOf(key) : list.length)
  return {
    version: 1,
    columns: [...columns.values()].sort((a, b) => rank(COLUMN_ORDER, a.agent) - rank(COLUMN_ORDER, b.agent)),
    rows: [...rows.values()].sort((a, b) => rank(rowOrder, a.label) - rank(rowOrder, b.label)),
    cases: cases.sort((a, b) => rank(rowOrder, a.source) - rank(rowOrder, b.source) || rank(COLUMN_ORDER, a.target) - rank(COLUMN_ORDER, b.target)),
  }
}
