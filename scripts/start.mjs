#!/usr/bin/env node
// `npm start`: build the app when the sources are newer than the build, then open it in Electron.
// Where Electron's binary is missing it is fetched once; where that is impossible (no network, as
// on our build machines) or there is no display, the same UI is served on loopback instead and
// the URL is printed. Extra arguments go to the app: `npm start -- --home /path/to/copied/home`.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const require = createRequire(import.meta.url)
const pkgFile = (rel) => join(root, 'node_modules', rel)

function newest(dir) {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}

function ensureBuilt() {
  const outputs = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'].map((p) => join(root, p))
  const built = outputs.every((p) => existsSync(p))
  const stale = built && newest(join(root, 'src')) > Math.min(...outputs.map((p) => statSync(p).mtimeMs))
  if (built && !stale) return
  console.log('Building Sepia (first start or changed sources)…')
  const r = spawnSync(process.execPath, [pkgFile('electron-vite/bin/electron-vite.js'), 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  if (r.status !== 0) {
    console.error('The build failed; see the messages above.')
    process.exit(r.status ?? 1)
  }
}

function electronBinary() {
  try {
    const p = require('electron')
    return typeof p === 'string' && existsSync(p) ? p : null
  } catch {
    return null
  }
}

function fetchElectron() {
  const install = join(root, 'node_modules', 'electron', 'install.js')
  if (!existsSync(install)) return null
  const env = { ...process.env }
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD
  const r = spawnSync(process.execPath, [install], { cwd: dirname(install), env, stdio: 'ignore', timeout: 180_000 })
  return r.status === 0 ? electronBinary() : null
}

function browserMode(reason) {
  console.log(`${reason}: serving Sepia in your browser instead.`)
  const child = spawn(process.execPath, [join(root, 'bin', 'sepia.mjs'), 'serve', ...args], { cwd: root, stdio: 'inherit' })
  child.on('exit', (code) => process.exit(code ?? 0))
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
}

ensureBuilt()
const headless = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY
let electron = electronBinary()
if (headless) {
  browserMode(electron ? 'No display found' : "Electron's binary is not installed and there is no display to open it on")
} else {
  if (!electron) {
    console.log('Fetching the Electron runtime (once)…')
    electron = fetchElectron()
  }
  if (!electron) browserMode("Electron's binary is not installed and could not be downloaded here")
  else {
    const child = spawn(electron, [root, ...args], { cwd: root, stdio: 'inherit' })
    child.on('exit', (code) => process.exit(code ?? 0))
  }
}
