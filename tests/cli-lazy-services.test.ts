/**
 * A warm `sepia list --json` or `sepia search WORD` does not load the API's services no listing or
 * search needs (src/main/api-services.ts: checkpoints, exports and bundles, moves, convert; issue
 * 15, BENCHMARKS.md "Warm CLI, session 11"). The real entry is spawned with a module hook
 * (`--import`, Node's `module.register`) that records the URL of every module it loads: the built
 * chunk `out/main/chunks/api-services-*.js`, or `src/main/api-services.ts` when bin/sepia.mjs runs
 * the sources. `sepia restores` (the checkpoint service) does load it, which shows the hook sees the
 * module under that name.
 *
 * Nor do they load any agent's reader or writer (src/main/agents/<agent>/index.ts loads them with
 * its first `read`/`write` call, ../lazy.ts; BENCHMARKS.md "Warm CLI, lazy readers, session 11"):
 * a built chunk is checked by the `// src/...` module markers Rollup writes into it, a source run
 * by the module's path. A session made stale (its file's mtime moved) is read again, and that run
 * does load the Claude Code reader, which shows the hook sees reader modules.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
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

/** An agent's reader or writer module (what the definitions load on first use), by source path. */
const READER = /src\/main\/agents\/[^/]+\/(?:[^/]+\/)*(?:read|write|stream|timeline|recover)(?:-(?!schema)[a-z0-9-]+)?\.ts$/

/** The agent reader and writer modules among the loaded URLs: source files, or those a built chunk holds. */
function readers(urls: string[]): string[] {
  const found: string[] = []
  for (const u of urls) {
    if (!u.startsWith('file:')) continue
    const path = fileURLToPath(u)
    if (READER.test(path)) found.push(path)
    else if (/[\\/]out[\\/]main[\\/].*\.js$/.test(path)) {
      for (const m of readFileSync(path, 'utf8').matchAll(/^\/\/ (src\/\S+\.ts)$/gm)) if (READER.test(m[1]!)) found.push(`${path}: ${m[1]!}`)
    }
  }
  return found
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

describe('warm CLI commands and the agents\' readers', () => {
  it('list --json and search load no reader or writer while nothing is stale; a stale session is read again', () => {
    const home = join(dir, 'home')
    cpSync(HOME, home, { recursive: true })
    const first = loaded('r-first', ['list', '--json', '--home', home]) // indexes the copy: reads every session
    expect(readers(first).length).toBeGreaterThan(0)
    expect(readers(loaded('r-list', ['list', '--json', '--home', home]))).toEqual([])
    expect(readers(loaded('r-search', ['search', 'the', '--home', home]))).toEqual([])
    // One session file's mtime moves: the freshness check finds it stale and its reader loads.
    const projects = join(home, '.claude', 'projects')
    const project = join(projects, readdirSync(projects).sort()[0]!)
    const file = join(project, readdirSync(project).filter((f) => f.endsWith('.jsonl')).sort()[0]!)
    const later = new Date(statSync(file).mtimeMs + 60_000)
    utimesSync(file, later, later)
    const stale = readers(loaded('r-stale', ['list', '--json', '--home', home]))
    expect(stale.some((m) => m.includes('src/main/agents/claude-code/read.ts'))).toBe(true)
    expect(readers(loaded('r-after', ['list', '--json', '--home', home]))).toEqual([])
  }, 120_000)
})
