/**
 * The Electron shell. Where the Electron binary exists it is launched on a fixture home; where it
 * does not (it cannot be downloaded on our build machines) that test skips itself and says why,
 * and the built bundles are inspected instead.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { API_METHODS } from '../src/shared/api'
import { findAppRoot } from '../src/main/context'

const ROOT = findAppRoot()
const built = existsSync(join(ROOT, 'out/main/index.js')) && existsSync(join(ROOT, 'out/preload/index.cjs'))

function electronBinary(): string | undefined {
  try {
    const p = createRequire(import.meta.url)('electron') as unknown
    return typeof p === 'string' && existsSync(p) ? p : undefined
  } catch {
    return undefined
  }
}
const electron = electronBinary()
const display = process.platform !== 'linux' || !!process.env.DISPLAY || !!process.env.WAYLAND_DISPLAY
const electronSkip = !built ? 'the app is not built' : !electron ? "Electron's binary is not installed (it cannot be downloaded here)" : !display ? 'no display' : undefined
if (electronSkip) console.warn(`Skipping the Electron launch test: ${electronSkip}`)

describe.skipIf(!built)('built bundles', () => {
  it('the preload exposes exactly the SepiaApi methods, and nothing of ipcRenderer itself', () => {
    const preload = readFileSync(join(ROOT, 'out/preload/index.cjs'), 'utf8')
    expect(preload).toContain('exposeInMainWorld')
    expect(preload).toContain('"sepia"')
    for (const m of API_METHODS) expect(preload).toContain(m)
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer\s*\)/)
  })

  it('the main bundle creates windows with isolation and sandbox on, node off, navigation locked', () => {
    const main = readFileSync(join(ROOT, 'out/main/index.js'), 'utf8')
    expect(main).toMatch(/contextIsolation:\s*true/)
    expect(main).toMatch(/sandbox:\s*true/)
    expect(main).toMatch(/nodeIntegration:\s*false/)
    expect(main).toContain('will-navigate')
    expect(main).toContain('setWindowOpenHandler')
  })
})

describe.skipIf(electronSkip !== undefined)('Electron', () => {
  it('starts on a fixture home and stays up', async () => {
    const child = spawn(electron!, [ROOT, '--home', join(ROOT, 'fixtures/real/claude-code/home')], { stdio: 'ignore' })
    const exited = await new Promise<boolean>((ok) => {
      const t = setTimeout(() => ok(false), 5000)
      child.once('exit', () => {
        clearTimeout(t)
        ok(true)
      })
    })
    child.kill()
    expect(exited).toBe(false)
  })
})
