/**
 * Issue 9 item 8: hostile input. Mutated versions of every fixture file every reader reads
 * (truncation, byte flips, huge numbers, deep nesting, wrong types, NUL, invalid UTF-8, empty
 * files, huge lines; on bytes, JSON values and SQLite cells — tests/fuzz/mutate.ts) are fed to
 * every agent for a bounded time. Each input runs in a worker thread that is killed after
 * FUZZ_FILE_MS (no hang) and has a heap limit (bounded memory). Asserted: no crash, no hang, no
 * discovery exception, every session not built from the mutated file still loads; counted and
 * printed: inputs tried, diagnostics, reads that threw (the library turns those into diagnostics).
 *
 * FUZZ_MS (default 35000) bounds the time spent on mutated inputs (after an ~10 s baseline), FUZZ_SEED (default 9) replays a run.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { AGENTS } from '../src/main/agents/registry'
import { FIXTURE_HOMES } from './helpers/fixture-homes'
import { REPO_ROOT } from './helpers/golden'
import { MUTATIONS, mutateBytes, mutateSqliteCell, prng, type Mutation } from './fuzz/mutate'
import type { FuzzAnswer, FuzzRequest } from './fuzz/worker'

const TOTAL_MS = Number(process.env.FUZZ_MS ?? 35_000)
const FILE_MS = Number(process.env.FUZZ_FILE_MS ?? 10_000)
const SEED = Number(process.env.FUZZ_SEED ?? 9)
const HEAP_MB = 1024

/** A worker thread running tests/fuzz/worker.ts through tsx, restarted after a hang or a crash. */
class Reader {
  private worker: Worker | undefined
  private seq = 0
  constructor(private readonly heapMb = HEAP_MB) {}
  private start(): Worker {
    const tsx = pathToFileURL(join(REPO_ROOT, 'node_modules/tsx/dist/esm/api/index.mjs')).href
    const entry = pathToFileURL(join(REPO_ROOT, 'tests/fuzz/worker.ts')).href
    const code = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry)})`
    return new Worker(code, { eval: true, type: 'module', resourceLimits: { maxOldGenerationSizeMb: this.heapMb, stackSizeMb: 8 } } as never)
  }

  /** Read `agent` under `home`; `hang` or `crash` when the worker had to be killed or died. */
  read(agent: string, home: string, limitMs: number, only?: string[]): Promise<FuzzAnswer | { failure: 'hang' | 'crash'; detail: string }> {
    const w = (this.worker ??= this.start())
    const seq = ++this.seq
    return new Promise((resolve) => {
      const done = (v: FuzzAnswer | { failure: 'hang' | 'crash'; detail: string }) => {
        clearTimeout(timer)
        w.off('message', onMessage)
        w.off('error', onError)
        w.off('exit', onExit)
        resolve(v)
      }
      const kill = () => {
        this.worker = undefined
        void w.terminate()
      }
      const timer = setTimeout(() => {
        kill()
        done({ failure: 'hang', detail: `no answer in ${limitMs} ms` })
      }, limitMs)
      const onMessage = (m: FuzzAnswer) => m.seq === seq && done(m)
      const onError = (e: Error) => {
        kill()
        done({ failure: 'crash', detail: `${e.name}: ${e.message}` })
      }
      const onExit = (code: number) => {
        this.worker = undefined
        done({ failure: 'crash', detail: `worker exited with ${code}` })
      }
      w.on('message', onMessage)
      w.on('error', onError)
      w.on('exit', onExit)
      w.postMessage({ seq, agent, home, ...(only ? { only } : {}) } satisfies FuzzRequest)
    })
  }

  async close(): Promise<void> {
    await this.worker?.terminate()
  }
}

interface Target {
  agent: string
  home: string
  /** A file of the home some ref reads, and the sessions built from it. */
  file: string
  sessionsOf: Set<string>
  /** True when the file is some ref's primary file (its transcript). */
  primary: boolean
  /** Unmutated: the refs discovery finds and the sessions read. */
  baseline: { discovered: string[]; sessions: string[] }
}

/** True when a JSON file no longer parses, or a JSONL file has a non-empty line that does not. */
function brokenJson(path: string, bytes: Buffer): boolean {
  if (!/\.jsonl?$/.test(path)) return false
  const text = bytes.toString('utf8')
  const parses = (t: string) => {
    try {
      JSON.parse(t)
      return true
    } catch {
      return false
    }
  }
  if (path.endsWith('.json')) return text.trim() !== '' && !parses(text)
  return text.split('\n').some((l) => l.trim() !== '' && !parses(l))
}

function isSqlite(path: string): boolean {
  const fd = readFileSync(path).subarray(0, 16).toString('latin1')
  return fd.startsWith('SQLite format 3')
}

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

  it(`no crash, no hang, bounded memory; the rest loads (${Math.round(TOTAL_MS / 1000)} s budget, seed ${SEED})`, async () => {
    const reader = new Reader()
    const rand = prng(SEED)
    const targets: Target[] = []
    const skipped: string[] = []
    const setupStarted = Date.now()

    // Baseline: each agent's homes copied to a scratch folder, read once unmutated.
    for (const agent of AGENTS) {
      const homes = FIXTURE_HOMES[agent.id]?.()
      if (!homes) {
        skipped.push(agent.id)
        continue
      }
      for (const source of homes) {
        const home = mkdtempSync(join(tmpdir(), `sepia-fuzz-${agent.id}-`))
        cpSync(source, home, { recursive: true })
        const base = await reader.read(agent.id, home, 60_000)
        if ('failure' in base) throw new Error(`baseline read of ${agent.id} failed: ${base.detail}`)
        // Which sessions each file feeds, from a read of the refs (the worker reports ids only,
        // so discover here too).
        const { layoutForHome } = await import('../src/main/platform')
        const refs = (await agent.discover(await layoutForHome({ home }), { now: () => 0 })).refs
        const primaries = new Set(refs.map((r) => r.files[0]))
        const byFile = new Map<string, Set<string>>()
        for (const ref of refs) for (const f of ref.files) if (existsSync(f) && statSync(f).isFile()) byFile.set(f, (byFile.get(f) ?? new Set()).add(ref.sessionId))
        for (const [file, ids] of byFile) targets.push({ agent: agent.id, home, file, sessionsOf: ids, primary: primaries.has(file), baseline: { discovered: base.discovered, sessions: base.sessions } })
      }
    }
    expect(targets.length).toBeGreaterThan(20)
    const started = Date.now()

    let inputs = 0
    let diagnostics = 0
    let threw = 0
    let maxHeap = 0
    const failures: string[] = []
    const silent: string[] = []
    const threwExamples = new Map<string, string>()
    const perMutation = new Map<Mutation, number>()
    const perAgent = new Map<string, number>()
    const agents = [...new Set(targets.map((t) => t.agent))]
    while (Date.now() - started < TOTAL_MS) {
      // A random agent, then a random file of it: every reader gets its share of the budget.
      const agent = agents[Math.floor(rand() * agents.length)]!
      const mine = targets.filter((t) => t.agent === agent)
      const t = mine[Math.floor(rand() * mine.length)]!
      // Every 8th input reads the whole home (the rest loads); others read the refs of the file.
      const full = inputs % 8 === 0
      const kind = MUTATIONS[Math.floor(rand() * MUTATIONS.length)]!
      const original = readFileSync(t.file)
      const sides = ['-wal', '-shm', '-journal'].map((s) => [t.file + s, existsSync(t.file + s) ? readFileSync(t.file + s) : undefined] as const)
      try {
        if (isSqlite(t.file) && rand() < 0.6) {
          if (!mutateSqliteCell(t.file, kind, rand)) continue
        } else {
          writeFileSync(t.file, mutateBytes(original, kind, rand, t.file.endsWith('.jsonl')))
        }
        const broken = t.primary && brokenJson(t.file, readFileSync(t.file))
        const answer = await reader.read(t.agent, t.home, FILE_MS, full ? undefined : [t.file])
        inputs++
        perMutation.set(kind, (perMutation.get(kind) ?? 0) + 1)
        perAgent.set(t.agent, (perAgent.get(t.agent) ?? 0) + 1)
        const where = `${t.agent} ${relative(t.home, t.file)} (${kind})`
        if ('failure' in answer) {
          failures.push(`${answer.failure}: ${where}: ${answer.detail}`)
          continue
        }
        maxHeap = Math.max(maxHeap, answer.heapUsed)
        diagnostics += answer.diagnosticPaths.length + answer.rejected.length
        threw += answer.rejected.length
        for (const r of answer.rejected) if (!threwExamples.has(t.agent)) threwExamples.set(t.agent, `${where}: ${r.message}`)
        // A transcript that no longer parses must be reported: a diagnostic naming it, or a read that threw.
        if (broken && !answer.diagnosticPaths.includes(t.file) && !answer.rejected.some((r) => r.files.includes(t.file))) silent.push(where)
        if (answer.discoverThrew) failures.push(`discover threw: ${where}: ${answer.discoverThrew}`)
        const found = new Set(answer.discovered)
        const loaded = new Set(answer.sessions)
        const lost = [
          ...t.baseline.discovered.filter((id) => !t.sessionsOf.has(id) && !found.has(id)),
          ...(full ? t.baseline.sessions.filter((id) => !t.sessionsOf.has(id) && !loaded.has(id)) : []),
        ]
        if (lost.length) failures.push(`the rest did not load: ${where}: lost ${[...new Set(lost)].slice(0, 3).join(', ')}`)
      } finally {
        writeFileSync(t.file, original)
        for (const [p, bytes] of sides) {
          if (bytes) writeFileSync(p, bytes)
          else rmSync(p, { force: true })
        }
      }
    }
    await reader.close()
    const rss = process.memoryUsage().rss

    console.log(`fuzz: ${inputs} inputs tried, ${diagnostics} diagnostics, ${failures.length} crashes (seed ${SEED}, ${targets.length} files, ${Math.round((Date.now() - started) / 1000)} s after a ${Math.round((started - setupStarted) / 1000)} s baseline)`)
    console.log(`fuzz: per agent ${[...perAgent].map(([a, n]) => `${a} ${n}`).join(', ')}; per mutation ${[...perMutation].map(([m, n]) => `${m} ${n}`).join(', ')}`)
    console.log(`fuzz: max worker heap ${Math.round(maxHeap / 2 ** 20)} MB (limit ${HEAP_MB} MB); ${threw} reads threw and became library diagnostics${skipped.length ? `; no fixture home: ${skipped.join(', ')}` : ''}`)
    for (const ex of threwExamples.values()) console.log(`fuzz: read threw: ${ex}`)
    for (const f of failures.slice(0, 20)) console.log(`fuzz: FAILURE ${f}`)
    if (silent.length) console.log(`fuzz: ${silent.length} broken transcripts read without a diagnostic naming them, e.g. ${[...new Set(silent)].slice(0, 5).join('; ')}`)

    expect(inputs).toBeGreaterThanOrEqual(Math.min(50, Math.floor(TOTAL_MS / 500)))
    expect(failures).toEqual([])
    expect([...new Set(silent)], 'broken transcripts with no diagnostic').toEqual([])
    expect(maxHeap).toBeLessThan(HEAP_MB * 2 ** 20)
    expect(rss).toBeLessThan(4 * 2 ** 30)
  }, TOTAL_MS + 180_000)
})
