#!/usr/bin/env node
// `npm test`: type-check, build (the browser tests serve the built renderer), then every Vitest
// test, unit, golden and Playwright/Chromium alike. Ends with one plain line
// "N passed, N failed, N skipped" for CI.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const pkgFile = (rel) => join(root, 'node_modules', rel)
const node = process.execPath
const run = (label, cmd, args) => {
  console.log(`\n== ${label}`)
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env })
  return r.status ?? 1
}

if (run('type-check (node)', node, [pkgFile('typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.node.json']) !== 0) process.exit(1)
if (run('type-check (browser tests)', node, [pkgFile('typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.e2e.json']) !== 0) process.exit(1)
if (run('type-check (web)', node, [pkgFile('vue-tsc/bin/vue-tsc.js'), '--noEmit', '-p', 'tsconfig.web.json']) !== 0) process.exit(1)
if (run('build', node, [pkgFile('electron-vite/bin/electron-vite.js'), 'build']) !== 0) process.exit(1)

/** The SQLite side files under fixtures/ (-wal, -shm, -journal), path → sha256 of their bytes. */
function sideFiles() {
  const out = new Map()
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (/-(wal|shm|journal)$/.test(e.name)) out.set(p, createHash('sha256').update(readFileSync(p)).digest('hex'))
    }
  }
  walk(join(root, 'fixtures'))
  return out
}
const sideBefore = sideFiles()

// The tests' own temp files go in one run folder that tests/setup/global.ts removes; this one
// (Vitest's JSON report) is removed here once read.
const reportDir = mkdtempSync(join(tmpdir(), 'sepia-test-'))
const report = join(reportDir, 'vitest.json')
const status = run('tests', node, [pkgFile('vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)])
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'))
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0)
  console.log(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`)
}
rmSync(reportDir, { recursive: true, force: true })
// Nothing may open a fixture database in place: no -wal/-shm/-journal may appear under fixtures/,
// and the ones a fixture holds on purpose (a real store whose data sits only in its -wal,
// fixtures/public-real/crush/exabgp-wal-only) keep their bytes.
const strays = []
const sideAfter = sideFiles()
for (const [p, hash] of sideAfter) {
  if (!sideBefore.has(p)) strays.push(p)
  else if (sideBefore.get(p) !== hash) strays.push(`${p} (changed)`)
}
for (const p of sideBefore.keys()) if (!sideAfter.has(p)) strays.push(`${p} (removed)`)
if (strays.length > 0) {
  console.error(`\nFAIL: the tests left or changed SQLite side files in fixtures/ (something opened a fixture database in place):\n${strays.join('\n')}`)
  process.exit(1)
}
process.exit(status)
