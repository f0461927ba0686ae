/**
 * Issue 17, Electron drag and drop: the preload exposes `window.sepia` (the SepiaApi methods) and
 * exactly one more method, `window.sepiaFiles.pathForFile`, which is `webUtils.getPathForFile`.
 * Run with a fake `electron` (its binary cannot run here), then the source and, when built, the
 * bundle are read for anything else exposed.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { API_METHODS } from '../src/shared/api'
import { findAppRoot } from '../src/main/context'
import { exposeSepia } from '../src/preload/expose'

const ROOT = findAppRoot()

describe('preload', () => {
  it('exposes the API methods on window.sepia and only pathForFile on window.sepiaFiles', async () => {
    const exposed = new Map<string, Record<string, (...a: unknown[]) => unknown>>()
    const invoked: unknown[][] = []
    const asked: unknown[] = []
    exposeSepia({
      contextBridge: { exposeInMainWorld: (k, v) => void exposed.set(k, v as Record<string, (...a: unknown[]) => unknown>) },
      ipcRenderer: { invoke: async (...a) => void invoked.push(a) },
      webUtils: { getPathForFile: (f: never) => (asked.push(f), '/home/ana/dropped') },
    })
    expect([...exposed.keys()]).toEqual(['sepia', 'sepiaFiles'])
    expect(Object.keys(exposed.get('sepia')!).sort()).toEqual([...API_METHODS].sort())
    expect(Object.keys(exposed.get('sepiaFiles')!)).toEqual(['pathForFile'])
    expect(Object.isFrozen(exposed.get('sepiaFiles'))).toBe(true)
    const file = { name: 'home' }
    expect(exposed.get('sepiaFiles')!.pathForFile!(file)).toBe('/home/ana/dropped')
    expect(asked).toEqual([file])
    await exposed.get('sepia')!.getSession!('cline', 'x')
    expect(invoked).toEqual([['sepia:getSession', 'cline', 'x']])
  })

  it('the source uses webUtils.getPathForFile once and exposes nothing else', () => {
    const src = readFileSync(join(ROOT, 'src/preload/expose.ts'), 'utf8') + readFileSync(join(ROOT, 'src/preload/index.ts'), 'utf8')
    const code = src.replace(/\/\*\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')
    expect(code.match(/\.exposeInMainWorld\(/g)).toHaveLength(2)
    expect(code.match(/\.getPathForFile\(/g)).toHaveLength(1)
    expect(code).not.toMatch(/ipcRenderer\.(on|once|send|sendSync|postMessage)\b/)
    expect(code).not.toMatch(/webUtils\.(?!getPathForFile)/)
  })

  it.runIf(existsSync(join(ROOT, 'out/preload/index.cjs')))('the built bundle exposes window.sepia and window.sepiaFiles only', () => {
    const bundle = readFileSync(join(ROOT, 'out/preload/index.cjs'), 'utf8')
    const keys = [...bundle.matchAll(/exposeInMainWorld\(\s*["']([^"']+)["']/g)].map((m) => m[1])
    // A bundle built before this change has only "sepia"; `npx electron-vite build` refreshes it.
    if (!bundle.includes('getPathForFile')) return
    expect(keys.sort()).toEqual(['sepia', 'sepiaFiles'])
    expect(bundle).not.toMatch(/ipcRenderer\.(on|once|send|sendSync|postMessage)\b/)
  })
})
