/**
 * `npm run resume-matrix`: prove conversions with the real agents. For every target with a driver
 * and every sample session of every other store, convert, resume in the real CLI (installed from
 * npm into a cache folder on first use), check the request, and print the matrix source x target
 * (written to RESUME-MATRIX.md at the repository root). Not part of `npm test`: it installs agents
 * and takes minutes.
 *
 *   npm run resume-matrix -- [--targets claude-code,cline] [--sources cline,codex,...] [--session ID]
 *                            [--text-only] [--keep | --keep-failed] [--out FILE] [--no-write] [--fresh]
 *                            [--report-only] [--cases ID,ID] [--only-failed]
 *
 * `--cases` (session id prefixes) and `--only-failed` (the stored cases of the selected sources and
 * targets that failed without a `cannot` reason) rerun single cases: only those cases are replaced in
 * the record, the other cases of their cells are kept.
 *
 * Every case is also kept in `RESUME-MATRIX.json` (results.ts): a run over some targets or sources
 * replaces those cells and keeps the rest, so adding a target does not rerun the others. `--fresh`
 * starts the record over; `--report-only` runs nothing and rewrites the
 * Markdown from the record.
 *
 * Exit status 0 when every case passed, 1 otherwise, 2 on bad usage.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { agentById } from '../src/main/agents/registry'
import { FIXTURE_SOURCES, readFixtureSessions } from '../tests/builders/fixture-sources'
import type { AgentId } from '../src/shared/ir'
import { claudeCodeDriver } from './drivers/claude-code'
import { clineDriver } from './drivers/cline'
import { codexDriver } from './drivers/codex'
import { copilotCliDriver } from './drivers/copilot-cli'
import { droidDriver } from './drivers/droid'
import { continueDriver } from './drivers/continue'
import { geminiDriver } from './drivers/gemini'
import { kiloDriver } from './drivers/kilo'
import { opencodeDriver } from './drivers/opencode'
import { piDriver } from './drivers/pi'
import { qwenCodeDriver } from './drivers/qwen-code'
import { publicRealSources } from './public-real'
import type { Driver } from './drivers/types'
import { renderMatrix, type Column, type Row } from './report'
import { loadRecord, mergeRun, saveRecord } from './results'
import { type CaseResult, runCase } from './run-case'
import { ensureInstalled, ensureTmux } from './sandbox'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Drivers by target agent (one line per target; the next writers add theirs). */
const DRIVERS: Record<string, Driver> = { 'claude-code': claudeCodeDriver, cline: clineDriver, codex: codexDriver, opencode: opencodeDriver, 'kilo-code': kiloDriver, gemini: geminiDriver, 'qwen-code': qwenCodeDriver, pi: piDriver }
DRIVERS['copilot-cli'] = copilotCliDriver
DRIVERS.droid = droidDriver
DRIVERS.continue = continueDriver

/** Source store label → the target agent it already is (not converted onto itself). */
const SAME: Record<string, string> = {
  'claude-code': 'claude-code',
  cline: 'cline',
  codex: 'codex',
  gemini: 'gemini',
  opencode: 'opencode',
  kilo: 'kilo-code',
  devin: 'devin',
  cursor: 'cursor',
  'cursor-agent': 'cursor-agent',
  'public-real-claude-code': 'claude-code',
  'public-real-codex': 'codex',
  'qwen-code': 'qwen-code',
  pi: 'pi',
  'copilot-cli': 'copilot-cli',
  droid: 'droid',
  continue: 'continue',
}

const log = (s: string): void => void process.stderr.write(`[resume ${new Date().toISOString().slice(11, 19)}] ${s}\n`)

async function main(): Promise<number> {
  let args
  try {
    args = parseArgs({
      options: {
        targets: { type: 'string' },
        sources: { type: 'string' },
        session: { type: 'string' },
        'text-only': { type: 'boolean', default: false },
        keep: { type: 'boolean', default: false },
        'keep-failed': { type: 'boolean', default: false },
        out: { type: 'string' },
        'no-write': { type: 'boolean', default: false },
        fresh: { type: 'boolean', default: false },
        'report-only': { type: 'boolean', default: false },
        cases: { type: 'string' },
        'only-failed': { type: 'boolean', default: false },
      },
    }).values
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`)
    return 2
  }
  const targets = (args.targets ?? Object.keys(DRIVERS).join(',')).split(',').filter(Boolean)
  for (const t of targets) if (!DRIVERS[t]) return usage(`no driver for target "${t}" (have ${Object.keys(DRIVERS).join(', ')})`)
  const labels = args.sources?.split(',').filter(Boolean)
  // The real sample homes, then the sessions people published (issue 14; skipped while absent).
  const allSources = [...FIXTURE_SOURCES, ...publicRealSources(ROOT)]
  const sources = allSources.filter((s) => !labels || labels.includes(s.label))
  const textOnly = args['text-only'] === true
  const keep = args.keep ? 'all' : args['keep-failed'] ? 'failed' : 'none'

  const out = args.out ?? join(ROOT, textOnly ? 'RESUME-MATRIX-TEXT-ONLY.md' : 'RESUME-MATRIX.md')
  const recordPath = out.replace(/\.md$/, '') + '.json'
  const stored = args.fresh || args['no-write'] ? { version: 1 as const, columns: [], rows: [], cases: [] } : loadRecord(recordPath)
  // Single cases (--cases, --only-failed): `source>session>target` keys, or session prefixes.
  const casePrefixes = args.cases?.split(',').filter(Boolean)
  const failedKeys = args['only-failed'] ? new Set(stored.cases.filter((c) => !c.ok && !c.cannot).map((c) => `${c.source}>${c.sessionId}>${c.target}`)) : undefined
  const single = casePrefixes !== undefined || failedKeys !== undefined
  const wanted = (source: string, id: string, target: string): boolean =>
    (!casePrefixes || casePrefixes.some((p) => id.startsWith(p))) && (!failedKeys || failedKeys.has(`${source}>${id}>${target}`))

  const bins: Record<string, string> = {}
  if (args['report-only']) targets.length = 0
  for (const t of targets) {
    if (t === 'cline' || t === 'droid') await ensureTmux(log)
    bins[t] = await ensureInstalled(DRIVERS[t]!.package, log)
  }
  const results: CaseResult[] = []
  const rows: Row[] = []
  for (const source of sources) {
    const all = await readFixtureSessions(source)
    const sessions = all.filter((s) => !args.session || s.id.startsWith(args.session))
    // The row counts the source's sessions, not the ones this run selected.
    rows.push({ label: source.label, sessions: all.length })
    for (const t of targets) {
      if (SAME[source.label] === t) continue
      for (const session of sessions) {
        if (!wanted(source.label, session.id, t)) continue
        log(`${source.label} ${session.id} → ${t}`)
        const r = await runCase(source.label, session, { driver: DRIVERS[t]!, bin: bins[t]!, textOnly, keep, scenariosDir: join(ROOT, 'resume', 'scenarios'), log })
        log(`  ${r.verdict}${r.verified ? '' : ' (read-back differs)'} [${r.seconds}s]${r.sandbox ? ` kept ${r.sandbox}` : ''}`)
        for (const m of r.missing) log(`    ${m}`)
        results.push(r)
      }
    }
  }
  const date = new Date().toISOString().slice(0, 10)
  const columns: Column[] = targets.map((t) => ({ agent: t, displayName: agentById(t as AgentId).displayName, cli: `${DRIVERS[t]!.package.pkg}@${DRIVERS[t]!.package.version}`, date }))
  // A run of whole cells replaces them; a run of single cases (or of --session) replaces just those cases.
  const pairs = single || args.session ? [] : sources.flatMap((s) => targets.filter((t) => SAME[s.label] !== t).map((t): [string, string] => [s.label, t]))
  const record = mergeRun(stored, { columns, rows, cases: results, date, pairs }, allSources.map((s) => s.label))
  const md = renderMatrix(record.cases, record.rows, record.columns, {
    date,
    command: `npm run resume-matrix${process.argv.length > 2 ? ' -- ' + process.argv.slice(2).join(' ') : ''}`,
    textOnly,
    node: process.version,
  })
  process.stdout.write(md + '\n')
  if (!args['no-write']) {
    writeFileSync(out, md)
    saveRecord(recordPath, record)
    log(`wrote ${out} and ${recordPath}`)
  }
  return results.every((r) => r.ok) ? 0 : 1
}

function usage(msg: string): number {
  process.stderr.write(`${msg}\n`)
  return 2
}

main().then(
  (code) => (process.exitCode = code),
  (e) => {
    process.stderr.write(`resume-matrix: ${(e as Error).stack ?? e}\n`)
    process.exitCode = 1
  },
)
