#!/usr/bin/env node
// The `sepia` command (npx sepia ...). Uses the built CLI (out/main/cli.js, made by
// `electron-vite build`, which npm start and npm test run) when it is at least as new as the CLI's
// sources (src/main, src/cli, src/shared); otherwise runs them through tsx's loader, so it always works.
import { existsSync, readdirSync, statSync } from 'node:fs'
import nodeModule from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

// A reader that stops early (`sepia usage --json | head -1`) closes the pipe: the next write fails
// with EPIPE, which is not an error of the command (the reader has what it wanted). Exit at once,
// quietly and with status 0, as `cat` or `ls` do, instead of an unhandled 'error' event's stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e && e.code === 'EPIPE') process.exit(0)
    throw e
  })
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const built = join(root, 'out', 'main', 'cli.js')

// V8's compile cache in Sepia's data folder, on a Node that has it (22.1+; not 20): the bundle's
// modules are compiled once, not by every command (src/cli/compile-cache.ts; issue 15).
const cache = join(root, 'out', 'main', 'compile-cache.js')
if (typeof nodeModule.enableCompileCache === 'function' && existsSync(cache)) {
  try {
    ;(await import(pathToFileURL(cache).href)).enableCliCompileCache(process.env, (dir) => nodeModule.enableCompileCache(dir))
  } catch {
    // no cache: every module is compiled, as on Node 20
  }
}

// The freshness check of the catalog starts on a worker thread first, while the CLI's modules load
// (src/main/catalog/early-freshness.ts; issue 15). Only the built CLI takes its answers: when the
// sources run instead (below), they never see this module's answers and check on their own.
const early = join(root, 'out', 'main', 'early-freshness.js')
if (existsSync(early)) {
  try {
    ;(await import(pathToFileURL(early).href)).startEarlyFreshness(process.argv.slice(2))
  } catch {
    // no early check: the refresh checks the snapshots itself
  }
}

// Every source file of the CLI's bundle (tests aside: they are not bundled) is stat'ed (an in-place edit changes no
// folder's mtime); `dir/name` rather than path.join, which normalises each of ~400 paths (issue 15: this check is part of
// every command's start-up). Only the folders the main-process build reads (src/main, src/cli, src/shared): the renderer
// and the preload script are other builds, which the CLI never runs from their sources (`sepia serve` serves
// out/renderer either way), so an edit there says nothing about which CLI to run.
const CLI_SOURCES = ['main', 'cli', 'shared']
function newest(dir) {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.endsWith('.test.ts')) continue // not in the bundle
    const p = `${dir}/${e.name}`
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}

let entry
if (existsSync(built) && !existsSync(join(root, 'src')) ) entry = built
else if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...CLI_SOURCES.map((d) => newest(`${root}/src/${d}`)))) entry = built
else {
  const { register } = await import('tsx/esm/api')
  register()
  entry = join(root, 'src', 'cli', 'index.ts')
}
const { main } = await import(pathToFileURL(entry).href)
const code = await main(process.argv.slice(2))
if (code !== -1) process.exitCode = code
