/**
 * `npx tsx bench/trace-tasks.ts TRACE.json [minMs]`: the long tasks of a Chrome trace written by
 * `bench/run.ts --only renderer --trace` (a JSON array of trace events, or `{ traceEvents }`), on
 * the page's main thread (`CrRendererMain`). For every top-level task of at least `minMs` (default
 * 50) it prints its duration and the time its direct kinds of work took inside it (script
 * `FunctionCall`/`TimerFire`/`FireAnimationFrame`/`EventDispatch`, style `UpdateLayoutTree`,
 * `Layout`, `Paint`, `PrePaint`, GC, ...), then the totals over those tasks. Durations are the
 * events' `dur` (wall µs, trace clock), self time of each kind (its children's time taken out);
 * `cpu` is the task's `tdur` (thread time): on a loaded machine a task's wall time is mostly
 * waiting for a core. With the bench's phase marks in the trace (`TimeStamp` events), each task is
 * prefixed by the phase it started in (`[wheel 1]`: the wheel steps after the first jump). Then,
 * from the same marks and the page's network events (`ResourceSendRequest`/`ResourceFinish` of
 * `/api/getSessionPage`), how long the first jumps' phases lasted and the slowest page answer
 * asked for in each: a wheel phase lasts until the rows in view are loaded.
 */
import { readFileSync } from 'node:fs'

interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  /** Thread (CPU) time of the event, µs: below `dur` when the thread waited for a core. */
  tdur?: number
  pid: number
  tid: number
  args?: { name?: string; data?: { url?: string; functionName?: string; message?: string; requestId?: string; encodedDataLength?: number } }
}

const file = process.argv[2]
if (!file) throw new Error('usage: bench/trace-tasks.ts TRACE.json [minMs]')
const minMs = Number(process.argv[3] ?? 50)
const raw = JSON.parse(readFileSync(file, 'utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] }
const events = Array.isArray(raw) ? raw : raw.traceEvents
const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
if (!main) throw new Error('no CrRendererMain thread in the trace')
const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)

/** Self time by event name of the events nested in [start, end). */
function breakdown(inside: TraceEvent[]): Map<string, number> {
  const self = new Map<string, number>()
  const stack: { e: TraceEvent; end: number; child: number }[] = []
  const close = (until: number): void => {
    while (stack.length && stack[stack.length - 1]!.end <= until) {
      const top = stack.pop()!
      self.set(top.e.name, (self.get(top.e.name) ?? 0) + top.e.dur! - top.child)
      if (stack.length) stack[stack.length - 1]!.child += top.e.dur!
    }
  }
  for (const e of inside) {
    close(e.ts)
    stack.push({ e, end: e.ts + e.dur!, child: 0 })
  }
  close(Infinity)
  return self
}

/** The bench's phase marks (`console.timeStamp('phase jump 3')` in bench/renderer.ts), by time. */
const phases = events
  .filter((e) => e.name === 'TimeStamp' && typeof e.args?.data?.message === 'string' && e.args.data.message.startsWith('phase '))
  .map((e) => ({ ts: e.ts, name: e.args!.data!.message!.slice(6) }))
  .sort((a, b) => a.ts - b.ts)
function phaseAt(ts: number): string {
  let name = ''
  for (const p of phases) {
    if (p.ts > ts) break
    name = p.name
  }
  return name
}

const tasks = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask')
const long = tasks.filter((t) => t.dur! >= minMs * 1000)
const totals = new Map<string, number>()
let cpu = 0
let i = 0
for (const t of long) {
  while (i < onMain.length && onMain[i]!.ts < t.ts) i++
  const inside: TraceEvent[] = []
  for (let j = i; j < onMain.length && onMain[j]!.ts < t.ts + t.dur!; j++) inside.push(onMain[j]!)
  const b = breakdown(inside)
  for (const [k, v] of b) totals.set(k, (totals.get(k) ?? 0) + v)
  const top = [...b].filter(([k]) => k !== t.name).sort((x, y) => y[1] - x[1]).slice(0, 6)
  cpu += t.tdur ?? 0
  const at = phases.length ? `[${phaseAt(t.ts)}] `.padEnd(11) : ''
  process.stdout.write(`${(t.dur! / 1000).toFixed(0).padStart(5)} ms (cpu ${t.tdur === undefined ? '?' : (t.tdur / 1000).toFixed(0)})  ${at}${top.map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`).join(', ')}\n`)
}
const all = tasks.reduce((n, t) => n + t.dur!, 0)
const allCpu = tasks.reduce((n, t) => n + (t.tdur ?? 0), 0)
const longCpu = tasks.filter((t) => (t.tdur ?? 0) >= minMs * 1000)
process.stdout.write(`\n${long.length} tasks >= ${minMs} ms of ${tasks.length} (wall ${(all / 1000).toFixed(0)} ms, cpu ${(allCpu / 1000).toFixed(0)} ms in all tasks; cpu in the long ones ${(cpu / 1000).toFixed(0)} ms; ${longCpu.length} tasks of >= ${minMs} ms cpu, max ${(Math.max(0, ...tasks.map((t) => t.tdur ?? 0)) / 1000).toFixed(0)} ms); wall self time in them by kind (ms):\n`)
for (const [k, v] of [...totals].sort((x, y) => y[1] - x[1]).slice(0, 25)) process.stdout.write(`${(v / 1000).toFixed(0).padStart(7)}  ${k}\n`)

const cpus = tasks.map((t) => (t.tdur ?? 0) / 1000).sort((a, b) => a - b)
const q = (p: number): number => cpus[Math.min(cpus.length - 1, Math.floor(p * cpus.length))] ?? 0
process.stdout.write(`\ntask cpu (thread time): total ${allCpu / 1000 | 0} ms, p95 ${q(0.95).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, max ${q(1).toFixed(1)} ms, ${cpus.filter((c) => c >= 16).length} tasks >= 16 ms\n`)

// How long the first phases lasted, and the page answers asked for in them (request to finish).
const sent = new Map<string, number>()
const answers: { ts: number; ms: number; kb: number }[] = []
for (const e of events) {
  const id = e.args?.data?.requestId
  if (id === undefined) continue
  if (e.name === 'ResourceSendRequest' && e.args?.data?.url?.includes('getSessionPage')) sent.set(id, e.ts)
  if (e.name === 'ResourceFinish' && sent.has(id)) answers.push({ ts: sent.get(id)!, ms: (e.ts - sent.get(id)!) / 1000, kb: (e.args?.data?.encodedDataLength ?? 0) / 1000 })
}
const steps = phases.filter((p) => p.name !== 'sample')
if (steps.length && answers.length) {
  process.stdout.write(`
first phases (ms lasted; page answers asked for in it: count, slowest ms):
`)
  for (let k = 0; k < Math.min(steps.length - 1, 12); k++) {
    const from = steps[k]!.ts
    const to = steps[k + 1]!.ts
    const mine = answers.filter((a) => a.ts >= from && a.ts < to)
    process.stdout.write(`  ${steps[k]!.name.padEnd(9)} ${((to - from) / 1000).toFixed(0).padStart(6)}  ${mine.length}, ${Math.max(0, ...mine.map((a) => a.ms)).toFixed(0)}\n`)
  }
}
