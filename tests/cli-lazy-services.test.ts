/**
 * A warm `sepia list --json` or `sepia search WORD` does not load the API's services no listing or
 * search needs (src/main/api-services.ts: checkpoints, exports and bundles, moves, convert; issue
 * 15, BENCHMARKS.md "Warm CLI, session 11"). The real entry is spawned with a module hook
 * (`--import`, Node's `module.register`) that records the URL of every module it loads: the built
 * chunk `out/main/chunks/api-services-*.js`, or `src/main/api-services.ts` when bin/sepia.mjs runs
 * the sources. `sepia restores` (the checkpoint service) does load it, which shows the hook sees the
 * module under that name.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')
const HOME = join(ROOT, 'fixtures', 'real', 'claude-code', 'home')
const dir = mkdtempSync(join(tmpdir(), 'sepia-lazy-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const hooks = join(dir, 'hooks.mjs')
writeFileSync(hooks, `import { appendFileSync } from 'node:fs'\nexport async function load(url, context, next) {\n  if (process.env.LOADED_LOG) appendFileSync(process.env.LOADED_LOG, url + '\\n')\n  return next(url, context)\n}\n`)
const registrar = join(dir, 'register.mjs')
writeFileSync(registrar, `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(hooks).href)})\n`)

/** Run `sepia ...args` with the hook; the URLs of the modules it loaded. */
function loaded(name: string, args: string[]): string[] {
  const log = join(dir, `${name}.log`)
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(registrar).href, join(ROOT, 'bin/sepia.mjs'), ...args], {
    env: { ...process.env, HOME: join(dir, 'own-home'), SEPIA_DATA_DIR: join(dir, 'data'), LOADED_LOG: log },
    encoding: 'utf8',
  })
  expect(r.status, r.stderr).toBe(0)
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []
}

const services = (urls: string[]): string[] => urls.filter((u) => /\/api-services(-[^/]*)?\.(js|ts)$/.test(u))

describe('warm CLI commands and the API services', () => {
  it('list --json, list and search load the catalog and commands but not api-services; restores does', () => {
    loaded('first', ['list', '--json', '--home', HOME]) // indexes the fixture home
    const list = loaded('list', ['list', '--json', '--home', HOME])
    expect(list.some((u) => /\/commands(-[^/]*)?\.(js|ts)$/.test(u))).toBe(true)
    expect(services(list)).toEqual([])
    const search = loaded('search', ['search', 'the', '--home', HOME])
    expect(search.some((u) => /\/commands(-[^/]*)?\.(js|ts)$/.test(u))).toBe(true)
    expect(services(search)).toEqual([])
    expect(services(loaded('text', ['list', '--home', HOME]))).toEqual([])
    expect(services(loaded('restores', ['restores', '--home', HOME]))).toHaveLength(1)
  }, 120_000)
})
