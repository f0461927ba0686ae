/**
 * `npm run resume-matrix`: prove conversions with the real agents. For every target with a driver
 * and every sample session of every other store, convert, resume in the real CLI (installed from
 * npm into a cache folder on first use), check the request, and print the matrix source x target
 * (written to RESUME-MATRIX.md at the repository root). Not part of `npm test`: it installs agents
 * and takes minutes.
 *
 *   npm run resume-matrix -- [--targets claude-code,cline] [--sources cline,codex,...] [--session ID]
 *                            [--text-only] [--keep | --keep-failed] [--out FILE] [--no-write]
 *
 * Exit status 0 when every case passed, 1 otherwise, 2 on bad usage.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { FIXTURE_SOURCES, readFixtureSessions } from '../src/main/convert/fixture-sources'
import { claudeCodeDriver } from './drivers/claude-code'
import { clineDriver } from './drivers/cline'
import type { Driver } from './drivers/types'
import { renderMatrix, type Column, type Row } from './report'
import { type CaseResult, runCase } from './run-case'
import { ensureInstalled, ensureTmux } from './sandbox'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Drivers by target agent (one line per target; the next writers add theirs). */
const DRIVERS: Record<string, Driver> = { 'claude-code': claudeCodeDriver, cline: clineDriver }

/** Source store label → the target agent it already is (not converted onto itself). */
const SAME: Record<string, string> = { 'claude-code': 'claude-code', cline: 'cline' }

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
      },
    }).values
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`)
    return 2
  }
  const targets = (args.targets ?? Object.keys(DRIVERS).join(',')).split(',').filter(Boolean)
  for (const t of targets) if (!DRIVERS[t]) return usage(`no driver for target "${t}" (have ${Object.keys(DRIVERS).join(', ')})`)
  const labels = args.sources?.split(',').filter(Boolean)
  const sources = FIXTURE_SOURCES.filter((s) => !labels || labels.includes(s.label))
  const textOnly = args['text-only'] === true
  const keep = args.keep ? 'all' : args['keep-failed'] ? 'failed' : 'none'

  const bins: Record<string, string> = {}
  for (const t of targets) {
    if (t === 'cline') await ensureTmux(log)
    bins[t] = await ensureInstalled(DRIVERS[t]!.package, log)
  }
  const results: CaseResult[] = []
  const rows: Row[] = []
  for (const source of sources) {
    const sessions = (await readFixtureSessions(source)).filter((s) => !args.session || s.id.startsWith(args.session))
    rows.push({ label: source.label, sessions: sessions.length })
    for (const t of targets) {
      if (SAME[source.label] === t) continue
      for (const session of sessions) {
        log(`${source.label} ${session.id} → ${t}`)
        const r = await runCase(source.label, session, { driver: DRIVERS[t]!, bin: bins[t]!, textOnly, keep, scenariosDir: join(ROOT, 'resume', 'scenarios'), log })
        log(`  ${r.verdict}${r.verified ? '' : ' (read-back differs)'} [${r.seconds}s]${r.sandbox ? ` kept ${r.sandbox}` : ''}`)
        for (const m of r.missing) log(`    ${m}`)
        results.push(r)
      }
    }
  }
  const columns: Column[] = targets.map((t) => ({ agent: t, displayName: t === 'claude-code' ? 'Claude Code' : 'Cline', cli: `${DRIVERS[t]!.package.pkg}@${DRIVERS[t]!.package.version}` }))
  const md = renderMatrix(results, rows, columns, {
    date: new Date().toISOString().slice(0, 10),
    command: `npm run resume-matrix${process.argv.length > 2 ? ' -- ' + process.argv.slice(2).join(' ') : ''}`,
    textOnly,
    node: process.version,
  })
  process.stdout.write(md + '\n')
  if (!args['no-write']) {
    const out = args.out ?? join(ROOT, textOnly ? 'RESUME-MATRIX-TEXT-ONLY.md' : 'RESUME-MATRIX.md')
    writeFileSync(out, md)
    log(`wrote ${out}`)
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
