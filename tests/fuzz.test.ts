/**
 * Issue 9 item 8, issue 16: hostile input. The short seeded run of the fuzz engine
 * (tests/fuzz/engine.ts; the long run is `npm run fuzz -- --cases N --seconds S`): mutated
 * versions of every fixture file every reader reads (truncation, byte flips, huge numbers, deep
 * nesting, wrong types, NUL, invalid UTF-8, empty files, huge lines, FIFOs, /dev/zero links,
 * locked SQLite) are fed to every agent, each in a worker thread killed after FUZZ_FILE_MS.
 * Asserted: 0 crashes, 0 hangs, 0 unbounded reads (worker heap above the cap), 0 silent drops (a
 * session or broken transcript of the mutated file with no diagnostic naming it).
 *
 * FUZZ_MS (default 60000) bounds the time spent on mutated inputs (after an ~10 s baseline),
 * FUZZ_SEED (default 9) replays a run.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './helpers/golden'
import { formatReport, Reader, runFuzz } from './fuzz/engine'

const TOTAL_MS = Number(process.env.FUZZ_MS ?? 60_000)
const FILE_MS = Number(process.env.FUZZ_FILE_MS ?? 30_000)
const SEED = Number(process.env.FUZZ_SEED ?? 9)

describe('fuzz: hostile input to every reader', () => {
  it('the harness kills a reader that hangs or runs out of memory, then goes on', async () => {
    const reader = new Reader(96)
    expect(await reader.read('__spin__', tmpdir(), 1500)).toEqual({ failure: 'hang', detail: 'no answer in 1500 ms' })
    const oom = await reader.read('__eat__', tmpdir(), 60_000)
    expect(oom).toMatchObject({ failure: 'crash' })
    const ok = await reader.read('claude-code', join(REPO_ROOT, 'fixtures/real/claude-code/home'), 30_000)
    expect('failure' in ok ? ok : ok.sessions.length).toBeGreaterThan(4)
    await reader.close()
  }, 120_000)

  it(`0 crashes, 0 hangs, 0 unbounded reads, 0 silent drops (${Math.round(TOTAL_MS / 1000)} s budget, seed ${SEED})`, async () => {
    const report = await runFuzz({ seconds: TOTAL_MS / 1000, seed: SEED, fileMs: FILE_MS })
    for (const line of formatReport(report)) console.log(line)
    expect(report.files).toBeGreaterThan(20)
    expect(report.cases).toBeGreaterThanOrEqual(Math.min(50, Math.floor(TOTAL_MS / 500)))
    expect(report.crashes, 'crashes').toEqual([])
    expect(report.hangs, 'hangs').toEqual([])
    expect(report.unbounded, 'unbounded reads').toEqual([])
    expect([...new Set(report.silentDrops)], 'silent drops').toEqual([])
  }, TOTAL_MS + 240_000)
})
