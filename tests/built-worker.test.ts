/**
 * Issue 15: the built bundle starts its catalog indexing workers. Rollup puts `startWorker()` in a
 * shared chunk (`out/main/chunks/<name>-*.js`) while the worker entry is `out/main/catalog-worker.js`; the built
 * code must find that file. Uses the bundle `npm test` built (builds it when missing), then runs the built CLI on a
 * fixture home with SEPIA_DEBUG_WORKERS=1 (pool.ts reports how indexing runs) and a 1-byte
 * worker threshold, so even the small fixture is indexed on a worker.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { findAppRoot } from '../src/main/context'

const ROOT = findAppRoot()
const CC = join(ROOT, 'fixtures/real/claude-code/home')
const data = mkdtempSync(join(tmpdir(), 'sepia-built-worker-'))
afterAll(() => rmSync(data, { recursive: true, force: true }))

describe('built bundle: catalog worker', () => {
  it('resolves catalog-worker.js from the chunk that holds startWorker() and indexes on it', async () => {
    // `npm test` builds before any test runs; rebuilding here would swap out/ under the browser
    // tests running beside this one, so build only when there is no bundle yet.
    if (!existsSync(join(ROOT, 'out/main/cli.js'))) execFileSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'ignore' })
    const chunks = join(ROOT, 'out/main/chunks')
    // The chunk rollup put startWorker() in (its name follows the chunk's content: host-*, validate-*…).
    const host = readdirSync(chunks).find((f) => f.endsWith('.js') && readFileSync(join(chunks, f), 'utf8').includes('function builtWorkerPath('))
    expect(host).toBeDefined()
    // The path the built code resolves, computed by the built module itself.
    const mod = (await import(pathToFileURL(join(chunks, host!)).href)) as Record<string, unknown>
    const resolver = Object.values(mod).find((v) => typeof v === 'function' && (v as { name: string }).name === 'builtWorkerPath') as ((here: string) => string | undefined) | undefined
    const resolved = resolver ? resolver(pathToFileURL(join(chunks, host!)).href) : join(ROOT, 'out/main/catalog-worker.js')
    expect(resolved).toBeDefined()
    expect(existsSync(resolved!)).toBe(true)

    const script = `import(${JSON.stringify(pathToFileURL(join(ROOT, 'out/main/cli.js')).href)}).then(async (m) => { process.exitCode = await m.main(['list', '--home', ${JSON.stringify(CC)}, '--json']) })`
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, SEPIA_DATA_DIR: data, SEPIA_DEBUG_WORKERS: '1', SEPIA_WORKER_THRESHOLD_BYTES: '1' },
    })
    expect(r.status).toBe(0)
    expect(r.stderr).toMatch(/indexing worker started .*catalog-worker\.js/)
    expect(r.stderr).not.toMatch(/indexing worker (missing|failed)/)
    const sessions = (JSON.parse(r.stdout) as { sessions: unknown[] }).sessions
    expect(sessions.length).toBeGreaterThan(0)
  }, 240_000)
})
