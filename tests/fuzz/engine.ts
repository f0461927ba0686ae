/**
 * The fuzz engine (issue 9 item 8, issue 16): mutated versions of every fixture file every reader
 * reads are fed to every agent, each input in a worker thread (tests/fuzz/worker.ts) that is
 * killed after `fileMs` (a hang) and has a heap limit. Mutations: those of tests/fuzz/mutate.ts
 * (truncation, byte flips, huge numbers, deep nesting, wrong types, NUL, invalid UTF-8, empty
 * files, huge lines; on bytes, JSON values and SQLite cells) plus special files put in place of
 * the file (a FIFO, a symlink to /dev/zero) and a SQLite database held under an exclusive lock.
 *
 * Used by tests/fuzz.test.ts (a short seeded run inside `npm test`) and by tests/fuzz/run.ts
 * (`npm run fuzz -- --cases N --seconds S [--seed K]`). The report counts four failures that must
 * all be 0: crashes (the worker died, or discovery threw, or a session not built from the mutated
 * file was lost), hangs (no answer in `fileMs`), unbounded reads (worker heap after a collection,
 * with the sessions read still held, above `heapCapMb`), and silent drops (a session built from the mutated file, present before, that
 * is gone with no diagnostic naming the file; or a transcript that no longer parses read with no
 * diagnostic naming it).
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { AGENTS } from '../../src/main/agents/registry'
import { layoutForHome } from '../../src/main/platform'
import { FIXTURE_HOMES } from '../helpers/fixture-homes'
import { MUTATIONS, mutateBytes, mutateSqliteCell, prng, type Mutation } from './mutate'
import type { FuzzAnswer, FuzzRequest } from './worker'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Every kind of input the engine makes: the byte/JSON/SQLite mutations and the special files. */
export const KINDS = [...MUTATIONS, 'fifo', 'dev-zero', 'locked'] as const
export type Kind = (typeof KINDS)[number]

type Failure = { failure: 'hang' | 'crash'; detail: string }

/** A worker thread running tests/fuzz/worker.ts through tsx, restarted after a hang or a crash. */
export class Reader {
  private worker: Worker | undefined
  private seq = 0
  /** `heapMb`: the worker's old-generation limit in MB (past it the worker dies: a crash). */
  constructor(private readonly heapMb = 1024) {}
  private start(): Worker {
    const tsx = pathToFileURL(join(REPO_ROOT, 'node_modules/tsx/dist/esm/api/index.mjs')).href
    const entry = pathToFileURL(join(REPO_ROOT, 'tests/fuzz/worker.ts')).href
    const code = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry)})`
    return new Worker(code, { eval: true, type: 'module', resourceLimits: { maxOldGenerationSizeMb: this.heapMb, stackSizeMb: 8 } } as never)
  }

  /** Read `agent` under `home`; `hang` or `crash` when the worker had to be killed or died. */
  read(agent: string, home: string, limitMs: number, only?: string[]): Promise<FuzzAnswer | Failure> {
    const w = (this.worker ??= this.start())
    const seq = ++this.seq
    return new Promise((resolve) => {
      const done = (v: FuzzAnswer | Failure) => {
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

/** Options of a run. */
export interface FuzzOptions {
  /** Stop after this many inputs (default: no limit). */
  cases?: number
  /** Stop after this many seconds of mutated inputs, after the baseline (default 60). */
  seconds?: number
  /** PRNG seed; the same seed replays the same inputs (default 9). */
  seed?: number
  /** A read with no answer after this many ms is a hang (default 30000). */
  fileMs?: number
  /** Worker heap in MB above which a read is unbounded (default 256). */
  heapCapMb?: number
  /** Progress lines (default: none). */
  log?: (line: string) => void
}

/** What a run found. Every list holds `kind: agent file (mutation): detail` lines. */
export interface FuzzReport {
  cases: number
  diagnostics: number
  crashes: string[]
  hangs: string[]
  unbounded: string[]
  silentDrops: string[]
  seconds: number
  seed: number
  files: number
  maxHeapMb: number
  perKind: Record<string, number>
  perAgent: Record<string, number>
  /** Agents with no fixture home (not fuzzed). */
  skipped: string[]
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

const isSqlite = (path: string) => readFileSync(path).subarray(0, 16).toString('latin1').startsWith('SQLite format 3')

/** Run the fuzzer; never throws for what it finds (see the report). */
export async function runFuzz(opts: FuzzOptions = {}): Promise<FuzzReport> {
  const seed = opts.seed ?? 9
  const totalMs = (opts.seconds ?? 60) * 1000
  const maxCases = opts.cases ?? Infinity
  const fileMs = opts.fileMs ?? 30_000
  const heapCap = (opts.heapCapMb ?? 256) * 2 ** 20
  const log = opts.log ?? (() => {})
  const reader = new Reader()
  const rand = prng(seed)
  const targets: Target[] = []
  const skipped: string[] = []
  const scratch: string[] = []

  for (const agent of AGENTS) {
    const homes = FIXTURE_HOMES[agent.id]?.()
    if (!homes) {
      skipped.push(agent.id)
      continue
    }
    for (const source of homes) {
      const home = mkdtempSync(join(tmpdir(), `sepia-fuzz-${agent.id}-`))
      scratch.push(home)
      cpSync(source, home, { recursive: true })
      const base = await reader.read(agent.id, home, 120_000)
      if ('failure' in base) throw new Error(`baseline read of ${agent.id} failed: ${base.detail}`)
      const refs = (await agent.discover(await layoutForHome({ home }), { now: () => 0 })).refs
      const primaries = new Set(refs.map((r) => r.files[0]))
      const byFile = new Map<string, Set<string>>()
      for (const ref of refs) for (const f of ref.files) if (existsSync(f) && statSync(f).isFile()) byFile.set(f, (byFile.get(f) ?? new Set()).add(ref.sessionId))
      for (const [file, ids] of byFile) targets.push({ agent: agent.id, home, file, sessionsOf: ids, primary: primaries.has(file), baseline: { discovered: base.discovered, sessions: base.sessions } })
    }
  }
  log(`fuzz: baseline read, ${targets.length} files of ${new Set(targets.map((t) => t.agent)).size} agents (seed ${seed})`)
  const started = Date.now()
  const report: FuzzReport = { cases: 0, diagnostics: 0, crashes: [], hangs: [], unbounded: [], silentDrops: [], seconds: 0, seed, files: targets.length, maxHeapMb: 0, perKind: {}, perAgent: {}, skipped }
  const agents = [...new Set(targets.map((t) => t.agent))]
  let lastLog = started

  while (Date.now() - started < totalMs && report.cases < maxCases && agents.length) {
    const agent = agents[Math.floor(rand() * agents.length)]!
    const mine = targets.filter((t) => t.agent === agent)
    const t = mine[Math.floor(rand() * mine.length)]!
    const full = report.cases % 8 === 0
    const kind: Kind = rand() < 0.1 ? (['fifo', 'dev-zero', 'locked'] as const)[Math.floor(rand() * 3)]! : MUTATIONS[Math.floor(rand() * MUTATIONS.length)]!
    const original = readFileSync(t.file)
    const sqlite = isSqlite(t.file)
    const sides = ['-wal', '-shm', '-journal'].map((s) => [t.file + s, existsSync(t.file + s) ? readFileSync(t.file + s) : undefined] as const)
    let lock: Database.Database | undefined
    try {
      let broken = false
      // A text file cut right after a newline is an older, valid state of an append-only log
      // (Aider's chat history holds many sessions appended in order): the sessions after the cut
      // were never written as far as the file can tell, so their absence is not a silent drop.
      let cleanCut = false
      if (kind === 'fifo') {
        rmSync(t.file)
        execFileSync('mkfifo', [t.file])
      } else if (kind === 'dev-zero') {
        rmSync(t.file)
        symlinkSync('/dev/zero', t.file)
      } else if (kind === 'locked') {
        if (!sqlite) continue
        lock = new Database(t.file)
        lock.exec('BEGIN EXCLUSIVE')
      } else if (sqlite && rand() < 0.6) {
        if (!mutateSqliteCell(t.file, kind, rand)) continue
      } else {
        const mutated = mutateBytes(original, kind, rand, t.file.endsWith('.jsonl'))
        cleanCut = kind === 'truncate' && !sqlite && mutated.length > 0 && mutated[mutated.length - 1] === 0x0a
        writeFileSync(t.file, mutated)
        broken = t.primary && brokenJson(t.file, readFileSync(t.file))
      }
      const answer = await reader.read(t.agent, t.home, fileMs, full ? undefined : [t.file])
      report.cases++
      report.perKind[kind] = (report.perKind[kind] ?? 0) + 1
      report.perAgent[t.agent] = (report.perAgent[t.agent] ?? 0) + 1
      const where = `${t.agent} ${relative(t.home, t.file)} (${kind})`
      if ('failure' in answer) {
        ;(answer.failure === 'hang' ? report.hangs : report.crashes).push(`${where}: ${answer.detail}`)
        log(`fuzz: ${answer.failure.toUpperCase()} ${where}: ${answer.detail}`)
        continue
      }
      report.maxHeapMb = Math.max(report.maxHeapMb, Math.round(answer.heapUsed / 2 ** 20))
      if (answer.heapUsed > heapCap) report.unbounded.push(`${where}: worker heap ${Math.round(answer.heapUsed / 2 ** 20)} MB after the read (cap ${heapCap / 2 ** 20} MB)`)
      report.diagnostics += answer.diagnosticPaths.length + answer.rejected.length
      const named = answer.diagnosticPaths.some((p) => p === t.file || p.startsWith(`${t.file}-`) || p.startsWith(`${t.file}:`)) || answer.rejected.some((r) => r.files.includes(t.file))
      if (broken && !named) report.silentDrops.push(`${where}: the transcript no longer parses and no diagnostic names it`)
      if (answer.discoverThrew) report.crashes.push(`${where}: discover threw: ${answer.discoverThrew}`)
      const found = new Set(answer.discovered)
      const loaded = new Set(answer.sessions)
      const lost = [
        ...t.baseline.discovered.filter((id) => !t.sessionsOf.has(id) && !found.has(id)),
        ...(full ? t.baseline.sessions.filter((id) => !t.sessionsOf.has(id) && !loaded.has(id)) : []),
      ]
      if (lost.length) report.crashes.push(`${where}: the rest did not load: lost ${[...new Set(lost)].slice(0, 3).join(', ')}`)
      // Sessions of this file that were there before and are gone now: a diagnostic must name the file.
      // (A session still discovered but whose ref no longer names this file is not read by a
      // file-scoped read; it is not gone.)
      const missing = t.baseline.sessions.filter((id) => t.sessionsOf.has(id) && !loaded.has(id) && !found.has(id))
      // A mutation inside an id that is written once in the store (a flipped byte in a Cursor tab
      // id, fuzz seed 301) lists the session under the changed id: it is still there, not dropped.
      // Only sessions beyond those that reappeared under a new id count.
      const before = new Set([...t.baseline.sessions, ...t.baseline.discovered])
      const renamed = new Set([...loaded, ...found].filter((id) => !before.has(id))).size
      const dropped = missing.slice(Math.min(renamed, missing.length))
      if (dropped.length && !named && !cleanCut) report.silentDrops.push(`${where}: ${dropped.length} session(s) gone with no diagnostic naming the file, e.g. ${dropped.slice(0, 3).join(', ')}`)
      // `SEPIA_FUZZ_KEEP=<dir>`: keep each silently dropping input (case number, file) for replay.
      if (dropped.length && !named && process.env.SEPIA_FUZZ_KEEP) {
        const keep = join(process.env.SEPIA_FUZZ_KEEP, `case-${report.cases}`, relative(t.home, t.file))
        mkdirSync(dirname(keep), { recursive: true })
        cpSync(t.file, keep)
        writeFileSync(join(process.env.SEPIA_FUZZ_KEEP, `case-${report.cases}`, 'ORIGINAL'), original)
      }
    } finally {
      lock?.close()
      rmSync(t.file, { force: true })
      writeFileSync(t.file, original)
      for (const [p, bytes] of sides) {
        if (bytes) writeFileSync(p, bytes)
        else rmSync(p, { force: true })
      }
    }
    if (Date.now() - lastLog > 30_000) {
      lastLog = Date.now()
      log(`fuzz: ${report.cases} cases, ${report.crashes.length} crashes, ${report.hangs.length} hangs, ${report.unbounded.length} unbounded, ${report.silentDrops.length} silent drops (${Math.round((lastLog - started) / 1000)} s)`)
    }
  }
  await reader.close()
  report.seconds = Math.round((Date.now() - started) / 1000)
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true })
  return report
}

/** The report as lines for a console: totals, then up to `max` examples of each failure. */
export function formatReport(r: FuzzReport, max = 20): string[] {
  const lines = [
    `fuzz: ${r.cases} cases tried in ${r.seconds} s (seed ${r.seed}, ${r.files} files), ${r.diagnostics} diagnostics, max worker heap ${r.maxHeapMb} MB`,
    `fuzz: ${r.crashes.length} crashes, ${r.hangs.length} hangs, ${r.unbounded.length} unbounded reads, ${r.silentDrops.length} silent drops`,
    `fuzz: per agent ${Object.entries(r.perAgent).map(([a, n]) => `${a} ${n}`).join(', ')}`,
    `fuzz: per kind ${Object.entries(r.perKind).map(([a, n]) => `${a} ${n}`).join(', ')}${r.skipped.length ? `; no fixture home: ${r.skipped.join(', ')}` : ''}`,
  ]
  for (const [name, list] of [['CRASH', r.crashes], ['HANG', r.hangs], ['UNBOUNDED', r.unbounded], ['SILENT DROP', r.silentDrops]] as const) for (const x of [...new Set(list)].slice(0, max)) lines.push(`fuzz: ${name} ${x}`)
  return lines
}
