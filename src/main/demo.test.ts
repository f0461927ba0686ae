/** Issue 17: the demo library shows only clean examples; the damaged stores stay in tests. */
import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApi } from './api'
import { demoHomes, findAppRoot } from './context'

const ROOT = findAppRoot()
const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)))

describe('demo library', () => {
  it('leaves the damaged homes out', () => {
    const homes = demoHomes(join(ROOT, 'fixtures')).map((h) => relative(ROOT, h))
    for (const d of ['cursor-negative', 'cursor-agent', 'devin']) expect(homes).not.toContain(join('fixtures', 'generated', d, 'home'))
    expect(homes).toContain(join('fixtures', 'real', 'claude-code', 'home'))
  })

  it('opens with 0 problems', async () => {
    // An empty own home: the app falls back to the demo, as on a machine with no agent history.
    const api = createApi({ mode: 'browser', version: '0', platform: 'linux', homes: [], fixturesDir: join(ROOT, 'fixtures'), env: {}, ownHome: tmp('sepia-demo-own-'), appDataDir: tmp('sepia-demo-data-') })
    const lib = await api.getLibrary()
    expect(lib.homes.length).toBeGreaterThan(0)
    expect(lib.homes.every((h) => h.isDemo)).toBe(true)
    expect(lib.sessions.length).toBeGreaterThan(0)
    const problems = lib.diagnostics.map((d) => `${relative(ROOT, d.path)}:${d.line ?? ''} ${d.severity} ${d.message}`)
    expect(problems).toEqual([])
    const opened = await api.openDemo()
    expect(opened.diagnostics.map((d) => relative(ROOT, d.path))).toEqual([])
  }, 120_000)
})
