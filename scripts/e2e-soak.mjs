#!/usr/bin/env node
// `npm run e2e:soak`: run the browser (Playwright/Chromium) suite `tests/e2e` N times in a row
// while a second process loads the machine, and print pass/fail per round (issue 17: "passes
// three times in a row on a fresh clone while another test suite loads the machine").
//
//   npm run e2e:soak                      3 rounds, one CPU burner per core as the load
//   npm run e2e:soak -- --rounds 5        5 rounds
//   npm run e2e:soak -- --load unit       the load is the unit tests (vitest, tests/e2e excluded), run again and again
//   npm run e2e:soak -- --load none       no extra load
//   npm run e2e:soak -- --no-build        skip `electron-vite build` (the suite serves out/renderer)
//   npm run e2e:soak -- tests/e2e/first-run.test.ts   only these files
//
// Ends with one line "soak: R/N rounds passed" and exits 1 when any round failed. The failing
// tests of each round are listed (from vitest's JSON report). Record a run in tests/e2e/SOAK.md.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const pkgFile = (rel) => join(root, 'node_modules', rel)
const node = process.execPath

/** Command-line options. */
function parseArgs(argv) {
  const o = { rounds: 3, load: 'cpu', build: true, files: [] }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--rounds' || a === '-n') o.rounds = Number(argv[++i])
    else if (a.startsWith('--rounds=')) o.rounds = Number(a.slice(9))
    else if (a === '--load') o.load = argv[++i]
    else if (a.startsWith('--load=')) o.load = a.slice(7)
    else if (a === '--no-build') o.build = false
    else if (a === '--help' || a === '-h') {
      console.log('usage: npm run e2e:soak -- [--rounds N] [--load cpu|unit|none] [--no-build] [test files...]')
      process.exit(0)
    } else o.files.push(a)
  }
  if (!Number.isInteger(o.rounds) || o.rounds < 1) throw new Error(`--rounds must be a whole number of at least 1; got ${o.rounds}`)
  if (!['cpu', 'unit', 'none'].includes(o.load)) throw new Error(`--load must be cpu, unit or none; got ${o.load}`)
  return o
}

/**
 * Start the load: `cpu` spins one busy loop per core (a child node process each); `unit` runs the
 * unit tests over and over (everything but tests/e2e). Returns a stop function that ends only the
 * processes started here (each is a process group leader, killed by its own pid).
 */
function startLoad(kind) {
  if (kind === 'none') return () => {}
  const children = new Set()
  let stopped = false
  const launch = (args) => {
    const c = spawn(node, args, { cwd: root, stdio: 'ignore', detached: true, env: process.env })
    children.add(c)
    c.on('exit', () => {
      children.delete(c)
      // The unit suite ends after a while: start it again so the load lasts the whole round.
      if (!stopped && kind === 'unit') launch(args)
    })
  }
  if (kind === 'cpu') {
    for (let i = 0; i < availableParallelism(); i++) launch(['-e', 'for (;;) {}'])
  } else {
    launch([pkgFile('vitest/vitest.mjs'), 'run', '--exclude', 'tests/e2e/**', '--reporter=dot'])
  }
  return () => {
    stopped = true
    for (const c of children) {
      try {
        process.kill(-c.pid, 'SIGTERM')
      } catch {
        // already gone
      }
    }
  }
}

/** The round's vitest, while it runs (its own process group, so a stop ends it and its workers). */
let current = null

/** One round: the e2e suite once. Resolves {ok, passed, failed, failures[], seconds, load}. */
async function round(files) {
  const dir = mkdtempSync(join(tmpdir(), 'sepia-soak-'))
  const report = join(dir, 'vitest.json')
  const started = Date.now()
  const child = spawn(node, [pkgFile('vitest/vitest.mjs'), 'run', ...(files.length ? files : ['tests/e2e']), '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: process.env,
    detached: true,
  })
  current = child
  const status = await new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)))
  current = null
  const out = { ok: status === 0, passed: 0, failed: 0, failures: [], seconds: Math.round((Date.now() - started) / 1000), load: loadavg()[0] }
  if (existsSync(report)) {
    const j = JSON.parse(readFileSync(report, 'utf8'))
    out.passed = j.numPassedTests ?? 0
    out.failed = j.numFailedTests ?? 0
    for (const f of j.testResults ?? []) {
      for (const t of f.assertionResults ?? []) {
        if (t.status === 'failed') out.failures.push(`${f.name.replace(`${root}/`, '')} > ${t.fullName}: ${(t.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 200)}`)
      }
      if ((f.assertionResults ?? []).length === 0 && f.status === 'failed') out.failures.push(`${f.name.replace(`${root}/`, '')}: ${String(f.message ?? '').split('\n')[0].slice(0, 200)}`)
    }
  }
  rmSync(dir, { recursive: true, force: true })
  return out
}

const opts = parseArgs(process.argv.slice(2))
if (opts.build) {
  console.log('== build (electron-vite)')
  const b = spawnSync(node, [pkgFile('electron-vite/bin/electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit', env: process.env })
  if (b.status !== 0) process.exit(1)
}

const stop = startLoad(opts.load)
const cleanup = () => {
  stop()
  if (current) {
    try {
      process.kill(-current.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
}
process.on('exit', cleanup)
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130))

const results = []
console.log(`== soak: ${opts.rounds} rounds of ${opts.files.length ? opts.files.join(' ') : 'tests/e2e'}, load: ${opts.load}, ${availableParallelism()} cores, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
for (let i = 1; i <= opts.rounds; i++) {
  console.log(`\n== round ${i}/${opts.rounds}`)
  const r = await round(opts.files)
  results.push(r)
  console.log(`round ${i}: ${r.ok ? 'PASS' : 'FAIL'} (${r.passed} passed, ${r.failed} failed, ${r.seconds} s, load average ${r.load.toFixed(2)})`)
  for (const f of r.failures) console.log(`  failed: ${f}`)
}
stop()

console.log('\n== soak summary')
results.forEach((r, i) => console.log(`round ${i + 1}: ${r.ok ? 'PASS' : 'FAIL'}  ${r.passed} passed, ${r.failed} failed, ${r.seconds} s, load ${r.load.toFixed(2)}`))
const good = results.filter((r) => r.ok).length
console.log(`soak: ${good}/${results.length} rounds passed`)
process.exit(good === results.length ? 0 : 1)
