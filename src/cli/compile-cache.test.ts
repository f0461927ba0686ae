/** The CLI's V8 compile cache (src/cli/compile-cache.ts): in Sepia's data folder, only when Node has the call and the folder exists. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { COMPILE_CACHE_DIR, enableCliCompileCache } from './compile-cache'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sepia-compile-cache-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('enableCliCompileCache', () => {
  it('enables the cache in <data dir>/compile-cache when the data folder exists', () => {
    const data = join(dir, 'data')
    mkdirSync(data)
    const calls: string[] = []
    expect(enableCliCompileCache({ HOME: join(dir, 'home'), SEPIA_DATA_DIR: data }, (d) => calls.push(d))).toBe(join(data, COMPILE_CACHE_DIR))
    expect(calls).toEqual([join(data, COMPILE_CACHE_DIR)])
  })

  it('the default data folder is the per-OS one under the home, never a --home the command reads', () => {
    const home = join(dir, 'home')
    const data = process.platform === 'darwin' ? join(home, 'Library', 'Application Support', 'Sepia') : join(home, '.config', 'Sepia')
    mkdirSync(data, { recursive: true })
    const calls: string[] = []
    if (process.platform !== 'win32') expect(enableCliCompileCache({ HOME: home }, (d) => calls.push(d))).toBe(join(data, COMPILE_CACHE_DIR))
  })

  it('stays off without the call (Node 20), without a data folder, or when the call fails', () => {
    const data = join(dir, 'data')
    const calls: string[] = []
    expect(enableCliCompileCache({ HOME: dir, SEPIA_DATA_DIR: data }, (d) => calls.push(d))).toBeUndefined() // no data folder yet
    mkdirSync(data)
    expect(enableCliCompileCache({ HOME: dir, SEPIA_DATA_DIR: data }, undefined)).toBeUndefined()
    expect(
      enableCliCompileCache({ HOME: dir, SEPIA_DATA_DIR: data }, () => {
        throw new Error('EACCES')
      }),
    ).toBeUndefined()
    expect(calls).toEqual([])
  })
})
