/**
 * `sepia serve` stopped with SIGTERM (or Ctrl+C) closes its catalog before it exits
 * (src/cli/serve.ts `onStop`, library.ts `closeNow`): SQLite folds the write-ahead log into the
 * database, so no `catalog.sqlite-wal` is left beside it holding what the index wrote.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('sepia serve, stopped', () => {
  it('leaves no write-ahead log beside the catalog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sepia-serve-stop-'))
    dirs.push(dir)
    const data = join(dir, 'data')
    const child = spawn(process.execPath, [join(ROOT, 'bin/sepia.mjs'), 'serve', '--home', join(ROOT, 'fixtures', 'real', 'claude-code', 'home')], {
      env: { ...process.env, HOME: dir, SEPIA_DATA_DIR: data, SEPIA_EARLY_FRESHNESS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (c) => (stderr += String(c)))
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
    await new Promise<void>((serving, failed) => {
      child.stdout.on('data', (c) => {
        stdout += String(c)
        if (stdout.includes('Sepia is serving')) serving()
      })
      child.on('close', () => failed(new Error(`serve ended before serving: ${stderr}`)))
    })
    // The catalog was written (and its log grew) before the server said it serves.
    expect(existsSync(join(data, 'catalog.sqlite'))).toBe(true)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    const wal = join(data, 'catalog.sqlite-wal')
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0)
  }, 120_000)
})
