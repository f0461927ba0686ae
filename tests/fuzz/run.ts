/**
 * `npm run fuzz -- --cases N --seconds S [--seed K]`: the fuzz engine (tests/fuzz/engine.ts) run
 * until N inputs or S seconds, whichever comes first. Prints cases tried, crashes, hangs over
 * 30 s, unbounded reads and silent drops; exits 1 when any of the four is above 0, 2 on bad usage.
 * With `SEPIA_FUZZ_KEEP=<dir>` in the environment, each silently dropping input is kept for replay
 * as `<dir>/case-<n>/<path in the home>` (the mutated file) next to `ORIGINAL` (the file before).
 */
import { formatReport, runFuzz } from './engine'

const args = process.argv.slice(2)
const num = (name: string, fallback: number | undefined): number | undefined => {
  const i = args.indexOf(`--${name}`)
  if (i < 0) return fallback
  const v = Number(args[i + 1])
  if (!Number.isFinite(v) || v < 0) {
    console.error(`usage: npm run fuzz -- --cases N --seconds S [--seed K] (bad --${name})`)
    process.exit(2)
  }
  return v
}
const report = await runFuzz({ cases: num('cases', undefined), seconds: num('seconds', 900), seed: num('seed', 9), log: (l) => console.log(l) })
for (const line of formatReport(report)) console.log(line)
process.exit(report.crashes.length + report.hangs.length + report.unbounded.length + report.silentDrops.length > 0 ? 1 : 0)
