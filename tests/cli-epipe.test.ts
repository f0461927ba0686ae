/**
 * A reader that stops early (`sepia usage --json | head -1`) closes the pipe before `sepia` is done
 * writing: the command exits quietly with status 0 (bin/sepia.mjs), never with the stack trace of
 * an unhandled EPIPE. The real entry is spawned with its stdout closed before it writes.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** Run `sepia ...args` with its stdout closed at once; resolves its exit status and stderr. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sepia-epipe-'))
  dirs.push(dir)
  const child = spawn(process.execPath, [join(ROOT, 'bin/sepia.mjs'), ...args], {
    env: { ...process.env, HOME: dir, SEPIA_DATA_DIR: join(dir, 'data'), SEPIA_EARLY_FRESHNESS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.destroy() // the reader is gone before the first write
  let stderr = ''
  child.stderr.on('data', (c) => (stderr += String(c)))
  return new Promise((done) => child.on('close', (code, signal) => done({ code, signal, stderr })))
}

describe('sepia with its output closed early', () => {
  it.each([['--help'], ['--version'], ['list', '--json', '--home', join(ROOT, 'fixtures', 'real', 'codex', 'home')]])('%s exits quietly with status 0', async (...args) => {
    const r = await withClosedStdout(args)
    expect(r.stderr).toBe('')
    expect(r.signal).toBeNull()
    expect(r.code).toBe(0)
  }, 60_000)
})
